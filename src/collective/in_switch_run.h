#pragma once
// AllReduce reduced in the switch: algorithms nvls and nvls-tree (topology/in_switch.h).
//
// The switch reads every GPU's data, adds it up and multicasts the sum, chunk by chunk, so
// that reading, reducing and multicasting overlap (NCCL pipelines NVLS through its
// buffers). At the flow level that is a set of concurrent flows. With G GPUs on a
// reducing switch and n the AllReduce size:
//   GPU -> switch   n (G+1)/G bytes: its n to be reduced, and the 1/G it multicasts
//   switch -> GPU   n (G+1)/G bytes: its reduced 1/G, and every multicast result
// (the GPU that owns a slice reads it reduced, then stores it to all: multimem.ld_reduce,
// multimem.st). nvls-tree, N nodes of G GPUs: GPU k of each node also sends the 1/G it
// owns across the nodes, a ring's share 2(N-1)/N n/G bytes to GPU k of the next node,
// at the route's full rate (NCCL's network protocol there is Simple, efficiency 1).
// Every flow pays the overhead o; flows to and from the switch pay the library's NVLink
// step (one reduction round), and the whole starts after the call latency and, for
// nvls-tree, 2 ceil(log2 N) network steps (NCCL's NVLSTree latency, tuning.cc):
//   T = L_call + [2 ceil(log2 N) L_net] + max over flows (o + step + path latency + bytes / rate)

#include "base/collectives.h"
#include "base/units.h"
#include "collective/collective_message.h"
#include "network/link_stats.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct InSwitchRun {
  TimePs time_ps = 0;
  std::uint64_t flows = 0;
  LinkStats link_stats;  // T = time_ps
};

/// Precondition: the topology can run `algorithm` (in_switch_unavailable is empty; callers
/// check inapplicable_reason). `costs`: the library's in-switch costs (LibraryProfile::in_switch), or none (ideal).
/// `on_message`, if set, hears of every flow as it arrives (ranks are NPUs).
InSwitchRun simulate_in_switch_allreduce(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                         const ProtocolCosts& costs, TimePs overhead_ps,
                                         const OnCollectiveMessage& on_message = {});

}  // namespace commsim
