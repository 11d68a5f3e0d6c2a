#pragma once
// A sweep: the cross product of topologies (kinds x sizes), library profiles, rank orders,
// and either collectives x algorithms or pipeline schedules x P2P modes, at each message
// size, each point run on its own topology. Points are numbered in a fixed order, so a
// sweep's output does not depend on threads or shards: topology, then library, rank order,
// collective (schedule), algorithm (P2P mode), size.
//
// A collective point is a collective study point (study/collective_study.h); a pipeline
// point is a training step with one stage per NPU of the topology (stage i on NPU i) whose
// activations are the point's size (study/pipeline_study.h). Rows: study/sweep_rows.h.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/pipeline_sim.h"
#include "pipeline/schedules.h"
#include "study/collective_study.h"
#include "study/sweep_rows.h"
#include "topology/builders.h"

namespace commsim {

/// The pipeline of a pipeline sweep (DESIGN.md section 3, "Pipeline parallelism").
struct PipelineAxes {
  std::vector<PipelineSchedule> schedules{PipelineSchedule::k1F1B};
  std::vector<P2PMode> modes{P2PMode::kSequential, P2PMode::kOverlapped, P2PMode::kBatched};
  std::uint32_t microbatches = 8;
  std::uint32_t virtual_stages = 2;  // of the interleaved schedule
  TimePs forward_ps = 1'000'000'000;   // one micro-batch on one stage: 1 ms
  TimePs backward_ps = 2'000'000'000;  // 2 ms
};

struct SweepPlan {
  std::vector<TopologyConfig> topologies;  // in order; each point builds its own
  std::vector<LibraryProfile> libraries;
  /// Where ranks run (topology/placement.h parse_rank_order): "linear", "random:SEED", or a
  /// file naming an NPU per rank.
  std::vector<std::string> rank_orders{"linear"};
  std::vector<CollectiveKind> collectives;
  /// Names: an algorithm, "all" (every one that applies) or "nccl" (NCCL's choice per size).
  std::vector<std::string> algorithms;
  std::vector<Bytes> sizes;  // requested; each collective rounds them as nccl-tests does
  CollectiveConfig run;      // overhead, chunks, gamma, ...; library and channels per point
  /// Set: a pipeline sweep (collectives and algorithms unused; sizes are activations).
  std::optional<PipelineAxes> pipeline;
};

struct SweepPoint {
  std::size_t index = 0;  // in the unsharded sweep
  std::size_t topology = 0;
  std::size_t library = 0;
  std::size_t rank_order = 0;
  CollectiveKind kind = CollectiveKind::kAllReduce;
  AlgorithmChoice algorithm;
  Bytes size = 0;
  PipelineSchedule schedule = PipelineSchedule::k1F1B;  // pipeline sweeps
  P2PMode mode = P2PMode::kOverlapped;
};

/// Every point, in order; algorithms that do not apply to a topology and collective are left
/// out (an algorithm named explicitly that applies nowhere is an InputError), and so are
/// topologies of one NPU. Throws InputError on an empty list, a rank order that does not
/// fit a topology, or a pipeline a schedule cannot run.
std::vector<SweepPoint> sweep_points(const SweepPlan& plan);

/// How much work a point is, for the time left on a progress bar: the messages the simulator
/// moves (collective/footprint.h estimate_footprint of its algorithm, NCCL's choice where it
/// picks; 2 a rank in the switch for NVLS; 2 x stages x micro-batches x model chunks for a
/// pipeline), each x the cube root of the flows in flight with it (peak flows; 2 a rank for
/// NVLS; the stages), plus the links of `topology` (the point's, built), which each point
/// builds.
double sweep_point_work(const SweepPlan& plan, const SweepPoint& point, const Topology& topology);

/// Runs one collective point on a topology built for it (so points may run on several
/// threads).
CollectivePoint run_sweep_point(const SweepPlan& plan, const SweepPoint& point);

/// Runs one point of either kind on a topology built for it: its CSV row.
std::string run_sweep_row(const SweepPlan& plan, const SweepPoint& point, const TopologyFacts& topology);

SweepLayout sweep_plan_layout(const SweepPlan& plan);

/// Joins sweep CSV files (shards, or parts of a resumed sweep) of one layout into one,
/// header first, ordered by point index: rows given twice must be identical. Throws
/// InputError naming FILE:LINE on a file that is not a sweep CSV, files of two layouts, or
/// rows that disagree.
std::vector<std::string> merge_sweep_csv(const std::vector<std::string>& paths);

/// The points a sweep CSV already holds (none if the file does not exist), for a resumed
/// sweep. Throws InputError naming FILE:LINE if it exists and is not a CSV of this sweep's
/// layout, or a row is not this sweep's point of its number (its topology, library, rank
/// order, overhead, collective or schedule, algorithm or mode, or size differ): the output
/// of another sweep.
std::vector<std::size_t> resumed_points(const std::string& path, const SweepPlan& plan,
                                        const std::vector<SweepPoint>& points);

}  // namespace commsim
