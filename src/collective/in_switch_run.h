#pragma once
// AllReduce reduced in the switch: algorithms nvls and nvls-tree (topology/in_switch.h).
//
// The switch reads every GPU's data, adds it up and multicasts the sum, chunk by chunk, so
// that reading, reducing and multicasting overlap (NCCL pipelines NVLS through its
// buffers). At the flow level that is a set of concurrent flows. With G GPUs of the
// communicator on a reducing switch and n the AllReduce size:
//   GPU -> switch   n (G+1)/G bytes: its n to be reduced, and the 1/G it multicasts
//   switch -> GPU   n (G+1)/G bytes: its reduced 1/G, and every multicast result
// (the GPU that owns a slice reads it reduced, then stores it to all: multimem.ld_reduce,
// multimem.st). nvls-tree, N nodes of G GPUs (NCCL's NVLSTree): GPU k of each node also
// runs the 1/G it owns over NCCL's double binary tree of the nodes (base/binary_tree.h),
// half over each tree: on every tree edge, GPU k of the child node sends n/(2G) bytes up
// to GPU k of the parent node (the subtree's sum) and receives n/(2G) back down (the
// result), all at once, at the route's full rate (NCCL's network protocol there is
// Simple, efficiency 1), up to the caps the library's channels put on them. A node inside
// one tree with two children and a parent in the other moves 4 n/(2G) = 2n/G each way
// through its GPU k's NIC, twice what a node of a two-node tree moves: NCCL's own estimate
// halves NVLSTree's network bandwidth beyond two nodes (src/graph/tuning.cc, bwInter/2).
// Every flow pays the overhead o; flows to and from the switch pay the library's NVLink
// step (one reduction round), and the whole starts after the call latency and, for
// nvls-tree, 2 ceil(log2 N) network steps (NCCL's NVLSTree latency, tuning.cc) and the fill
// of its pipeline through the tree (topology/in_switch.h, in_switch_tree_fill_ps):
//   T = L_call + [2 ceil(log2 N) L_net + fill'] + max over flows (o + step + path latency + bytes / rate)
// A GPU's part is done when every flow it sends or receives has arrived.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "base/binary_tree.h"
#include "base/collectives.h"
#include "base/units.h"
#include "collective/collective_message.h"
#include "network/link_stats.h"
#include "network/transport.h"
#include "topology/in_switch.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// One in-switch AllReduce among the NPUs of `groups` (in_switch_groups), on a transport
/// that may carry other traffic (a replay's network).
class InSwitchAllReduceRun {
 public:
  /// Precondition: the groups can run `algorithm` (callers check inapplicable_reason on the
  /// topology the communicator spans). `costs`: the library's in-switch costs
  /// (LibraryProfile::in_switch), or none (ideal). `on_npu_done` (optional) hears of each
  /// NPU whose part is done; `on_message` (optional) of every flow as it arrives.
  /// `tree_caps`: caps by route class on nvls-tree's flows across nodes
  /// (collective_rate_caps, model layer).
  InSwitchAllReduceRun(Transport& transport, const Topology& topology, std::vector<InSwitchGroup> groups,
                       AlgorithmKind algorithm, Bytes size, const ProtocolCosts& costs,
                       const RateCapsByClass& tree_caps = kNoRateCaps, std::function<void(Rank)> on_npu_done = {},
                       OnCollectiveMessage on_message = {});
  InSwitchAllReduceRun(const InSwitchAllReduceRun&) = delete;
  InSwitchAllReduceRun& operator=(const InSwitchAllReduceRun&) = delete;

  /// Starts the run now, its call latency already paid: the flows start after nvls-tree's
  /// network steps and tree fill, or nvls's pipeline fill.
  void start();
  TimePs last_arrival_ps() const { return last_arrival_ps_; }
  std::uint64_t flows() const { return flows_; }

 private:
  void start_flows();
  /// An NPU of the run: its group in groups_ and its position there.
  struct Member {
    std::size_t group;
    std::size_t index;
  };
  Rank npu(Member m) const { return groups_[m.group].ranks[m.index]; }
  /// A flow of `bytes` from `from` to `to`, or between `from` and its switch.
  void send(Member from, std::optional<Member> to, bool from_switch, Bytes bytes, const ProtocolCosts* costs);
  void arrived(const CollectiveMessage& message, Member from, std::optional<Member> to);
  void done_with(Member m);

  Transport& transport_;
  const Topology& topology_;
  std::vector<InSwitchGroup> groups_;
  bool tree_;
  Bytes size_;
  ProtocolCosts costs_;
  ProtocolCosts full_rate_;  // the tree's network flows: no step latency, efficiency 1
  RateCapsByClass tree_caps_;
  std::function<void(Rank)> on_npu_done_;
  OnCollectiveMessage on_message_;
  std::vector<TreeEdge> tree_edges_;  // nvls-tree: across the groups; else none
  std::vector<std::vector<std::uint32_t>> flows_left_;  // per member, as groups_
  TimePs last_arrival_ps_ = 0;
  std::uint64_t flows_ = 0;
};

struct InSwitchRun {
  TimePs time_ps = 0;
  std::uint64_t flows = 0;
  LinkStats link_stats;  // T = time_ps
};

/// The AllReduce of every NPU of `topology`, alone on its network. Precondition: the
/// topology can run `algorithm` (in_switch_unavailable is empty; callers check
/// inapplicable_reason). `on_message`, if set, hears of every flow as it arrives (ranks
/// are NPUs).
InSwitchRun simulate_in_switch_allreduce(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                         const ProtocolCosts& costs, TimePs overhead_ps,
                                         const RateCapsByClass& tree_caps = kNoRateCaps,
                                         const OnCollectiveMessage& on_message = {});

}  // namespace commsim
