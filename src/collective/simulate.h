#pragma once
// One collective on the flow-level network of a topology, from start to finish.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "collective/collective_message.h"
#include "network/link_stats.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct CollectiveConfig {
  TimePs overhead_ps = 0;        // o, per message
  ProtocolCosts library;         // a library's costs (topology/library.h); default: none
  std::size_t chunks = 1;        // pieces that pipeline through the algorithm
  std::size_t channels = 1;      // rings at once (algorithms.h, make_schedule)
  std::size_t tree_node_gpus = 0; // NCCL's tree: GPUs chained per node; 0: double binary tree
  double gamma_s_per_byte = 0;   // reduction arithmetic
  Rank root = 0;                 // Broadcast, Reduce
  std::vector<Rank> npu_of_rank; // empty: rank r on NPU r
  bool verify = false;           // track data symbolically and check the result
  OnCollectiveMessage on_message;  // optional: every message as it arrives (timelines)
  bool record_link_stats = false; // per-link statistics of the run (network/link_stats.h)
  /// Caps on every message's rate by its route's class (collective_rate_caps in
  /// model/collective_model.h: the P2P channels of NCCL's AllToAll sends).
  RateCapsByClass rate_caps_by_class = kNoRateCaps;
};

struct CollectiveResult {
  TimePs time_ps = 0;
  std::uint64_t messages = 0;
  /// With verify: empty if every rank ends with what the collective defines, else why not.
  std::string verify_error;
  /// With record_link_stats: the links over the run, T = time_ps.
  std::optional<LinkStats> link_stats;
};

/// Throws InputError if the algorithm does not apply, or if the run would be beyond the
/// limits of collective/footprint.h (with the estimate): call it before long work.
void check_collective_footprint(const Topology& topology, CollectiveKind kind,
                                AlgorithmKind algorithm, const CollectiveConfig& config);

/// `size` is the nccl-tests size (base/collectives.h). Throws InputError if the algorithm
/// does not apply or the run is beyond the footprint limits; InternalError if the schedule
/// does not finish (a bug in it).
CollectiveResult simulate_collective(const Topology& topology, CollectiveKind kind,
                                     AlgorithmKind algorithm, Bytes size,
                                     const CollectiveConfig& config);

}  // namespace commsim
