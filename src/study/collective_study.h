#pragma once
// A collective on a topology and library profile, simulated beside its closed form and lower
// bound (DESIGN.md section 3, "Collectives", "Closed-form model"). Each point is one
// (collective, algorithm, size):
//   sim    simulate_collective on the flow-level network (collective/simulate.h), ps
//   model  the closed form under the same library costs (model/collective_model.h), s
//   bound  the lower bound of any algorithm (Chan et al. 2007), s
//   algbw  = S / sim, busbw = algbw x busbw_factor (nccl-tests doc/PERFORMANCE.md), GB/s
// On an idle network in rank order, sim = model (relative error < 1e-9) wherever the
// formula's assumptions hold: sim/model > 1 is contention the formula cannot see.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "model/one_node_ramp.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct CollectiveStudyOptions {
  /// Overhead, chunks, channels, gamma, root, rank order and verify, as the simulator takes
  /// them; the closed form takes the same (model_options). `run.library` is set per point,
  /// `run.tree_node_gpus` from the library (collective/algorithms.h default_tree_node_gpus).
  /// With `run.record_link_stats` a study records the links of each block's largest size
  /// only (a single point, run_collective_point, records its own).
  CollectiveConfig run;
  LibraryProfile library;            // ideal: the wire alone
  std::optional<Protocol> protocol;  // forced; empty: the fastest by NCCL's estimate, as NCCL picks
  std::function<void()> on_point;    // called after each point of a study (progress); may be empty
  /// Record every message of each algorithm's run at the largest size (CollectiveBlock::timeline).
  bool record_timeline = false;
  /// Pipeline each point as a library does (library_chunks), in place of run.chunks.
  bool pipeline_as_library = false;
  /// GPUs one host thread drives (nccl-tests -g G): back-to-back calls take at least the
  /// library's thread issue time (LibraryProfile::thread_issue_ps), sim and model alike; 0: none.
  std::size_t gpus_per_thread = 0;
};


/// The least time a collective of `size` inside one NVLink node takes under the library's
/// one-node ramp (model/one_node_ramp.h): the closed form of the same algorithm and protocol
/// at the ramp's last size, planned as this study plans it, times one_node_ramp_scale. 0
/// where the ramp does not apply.
TimePs one_node_ramp_floor_ps(const Topology& topology, CollectiveKind kind, const NcclChoice& choice, Bytes size,
                              const CollectiveStudyOptions& options);

/// A timeline holds at most this many messages (about 250 MB of Chrome trace JSON, what
/// Perfetto's UI loads comfortably); a study asked for a larger one is refused up front.
inline constexpr double kMaxTimelineMessages = 1 << 20;

/// An algorithm, or NCCL's choice at each size (empty; model/collective_model.h nccl_choice).
using AlgorithmChoice = std::optional<AlgorithmKind>;

struct CollectivePoint {
  AlgorithmKind algorithm = AlgorithmKind::kRing;  // what ran
  std::optional<Protocol> protocol;                // empty under the ideal library
  ProtocolCosts costs;                             // the library's costs it ran under
  Bytes size = 0;                                  // the nccl-tests size
  std::size_t chunks = 1;                          // the pieces it pipelined
  /// The channels it ran on, as NCCL_DEBUG=INFO tells: the library's choice for the call
  /// (collective_call_channels), else the rings the simulator runs at once.
  std::uint32_t channels = 1;
  TimePs sim_ps = 0;
  /// The one-node ramp's bound on the call (one_node_ramp_floor_ps), sim_ps and model_s at
  /// least that; 0 where it does not apply.
  TimePs ramp_floor_ps = 0;
  CollectiveCost cost;                             // the closed form, term by term
  double model_s = 0;
  double bound_s = 0;
  double algbw_GBps = 0;
  double busbw_GBps = 0;
  std::optional<double> sim_over_model;            // empty when the model is 0
  std::string verify_error;                        // with run.verify: empty if the data is right
  std::optional<LinkStats> link_stats;             // with run.record_link_stats, T = sim_ps
};

/// The chunks a library pipelines `algorithm` with at `size` (least_time_chunks in
/// model/collective_model.h) within the footprint limits (collective/footprint.h).
std::size_t library_chunks(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                           const ModelOptions& model, const CollectiveConfig& run);

/// The closed form's options for a run of the simulator under `costs`: the one mapping from
/// the simulator's knobs to the model's (o in seconds, gamma, chunks, channels, root).
ModelOptions model_options(const CollectiveConfig& run, const ProtocolCosts& costs = {});

/// What one point runs: the algorithm (or NCCL's choice) and protocol (or the fastest) for
/// `size`, and the simulator's options for it (the library's costs in `run.library`, tree
/// layout, rate caps, and with pipeline_as_library its chunks).
struct PlannedPoint {
  NcclChoice choice;
  CollectiveConfig run;
};
PlannedPoint plan_collective_point(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm,
                                   Bytes size, const CollectiveStudyOptions& options);

/// One point: the algorithm (or NCCL's choice) and protocol (or the fastest) for `size`, the
/// simulation, the closed form and the bound. `size` is an nccl-tests size. Throws
/// InputError if the algorithm does not apply or the run is beyond the footprint limits.
CollectivePoint run_collective_point(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm,
                                     Bytes size, const CollectiveStudyOptions& options);

/// One algorithm choice at every size.
struct CollectiveBlock {
  AlgorithmChoice algorithm;
  /// The closed form in the papers' notation ("2(p-1) a + 2(p-1)/p n b", model/), as the
  /// block's first point runs it; empty for NCCL's choice, whose algorithm varies.
  std::string formula;
  std::vector<CollectivePoint> points;  // one per size, in order
  /// With record_timeline: the messages of the run at the largest size, points[timeline_point].
  std::vector<CollectiveMessage> timeline;
  std::size_t timeline_point = 0;

  /// The first point whose data check failed, or null.
  const CollectivePoint* first_verify_failure() const;
};

struct CollectiveStudy {
  std::vector<CollectiveBlock> blocks;  // in the order of the choices
  /// With more than one block: at each size the point of least simulated time (the earlier
  /// block on a tie).
  std::vector<CollectivePoint> fastest;

  bool all_verified() const;
  /// The point whose links a report shows: at the largest size, the fastest choice (or the
  /// only one). Null when the study recorded no link statistics.
  const CollectivePoint* link_stats_point() const;
};

/// The sizes nccl-tests runs for the requested ones on `ranks` ranks (base/collectives.h
/// nccl_size), repeats in a row dropped; Barrier moves no data: {0}.
std::vector<Bytes> collective_sizes(CollectiveKind kind, const std::vector<Bytes>& requested, std::size_t ranks);

/// Every choice at every size. Checks before any simulation, with InputError: that every
/// algorithm applies, every run (NCCL's candidates too) is within the footprint limits, that
/// with chunks > 1 the smallest size has a byte per chunk, and that a timeline asked for
/// stays within kMaxTimelineMessages.
CollectiveStudy study_collective(const Topology& topology, CollectiveKind kind,
                                 const std::vector<AlgorithmChoice>& algorithms, const std::vector<Bytes>& sizes,
                                 const CollectiveStudyOptions& options);

}  // namespace commsim
