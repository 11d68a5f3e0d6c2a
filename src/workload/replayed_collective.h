#pragma once
// What replay (workload/replay.h) reports of each collective it ran, and identical ones
// tallied as one row. Bandwidths follow nccl-tests (doc/PERFORMANCE.md), as `commsim
// collective` reports them:
//   algbw = S / t                                  GB/s (1e9 B/s)
//   busbw = algbw x busbw_factor(kind, p)          (base/collectives.h)
// where S is the nccl-tests size of the collective and p the members of its group.

#include <compare>
#include <cstddef>
#include <optional>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// What ran: the collective, among whom, how much, how.
struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::optional<std::size_t> group;  // index into Workload::groups; empty: every rank
  std::size_t ranks = 0;             // the group's members
  Bytes bytes = 0;                   // the nccl-tests size (WorkloadNode::bytes)
  AlgorithmKind algorithm = AlgorithmKind::kRing;
  std::optional<Protocol> protocol;  // the library's (asked for, or its choice); none if ideal
  std::uint32_t channels = 1;        // what it ran on (collective_call_channels)

  auto operator<=>(const CollectiveCall&) const = default;
};

/// algbw and busbw of `call` taking `time_ps`; 0 for no time.
double algbw_GBps(const CollectiveCall& call, TimePs time_ps);
double busbw_GBps(const CollectiveCall& call, TimePs time_ps);

/// One collective instance: the k-th of a group, once every member had reached it.
struct ReplayedCollective {
  CollectiveCall call;
  Rank first_rank = 0;        // the group's first member and its node (index in the rank's
  std::size_t first_node = 0;  // node list), which name the collective
  TimePs start_ps = 0;  // the last member reached it (the library's call latency follows)
  TimePs end_ps = 0;    // every member's part was done

  TimePs time_ps() const { return end_ps - start_ps; }
};

/// The instances of one CollectiveCall: how many, and their times.
struct CollectiveTally {
  CollectiveCall call;
  std::size_t count = 0;
  double total_us = 0;  // the sum of their times (a double: it may pass the clock's range)
  TimePs min_ps = 0;
  TimePs max_ps = 0;

  double mean_us() const { return total_us / static_cast<double>(count); }
  /// At the mean time.
  double algbw_GBps() const;
  double busbw_GBps() const;
};

/// One row per distinct CollectiveCall, the most total time first (where the time goes);
/// rows of equal total in the order each first appears in `collectives`.
std::vector<CollectiveTally> tally_collectives(const std::vector<ReplayedCollective>& collectives);

}  // namespace commsim
