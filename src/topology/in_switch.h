#pragma once
// Switches that reduce in the fabric: NVIDIA's NVLink SHARP ("NVLS", third-generation
// NVSwitch and later). A GPU sends its data to the switch once; the switch adds what all
// GPUs sent (multimem.ld_reduce) and multicasts the result back (multimem.st), so an
// AllReduce moves about n bytes each way per GPU instead of a ring's 2(p-1)/p n.
// A spec marks such a switch (BuilderSpec.nvls, VertexSpec.reduces); the NPUs linked
// directly to one form its group.

#include <optional>
#include <string>
#include <vector>

#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct InSwitchGroup {
  VertexId switch_vertex = 0;
  std::vector<Rank> ranks;  // ascending
};

/// Each reducing switch with the NPUs linked directly to it (an NPU joins the first such
/// switch it is linked to), ordered by their lowest rank. Empty when no switch reduces.
std::vector<InSwitchGroup> in_switch_groups(const Topology& topology);
/// The same for the NPUs `members` of a communicator: each reducing switch with the members
/// among its NPUs, switches without members left out.
std::vector<InSwitchGroup> in_switch_groups(const Topology& topology, std::vector<Rank> members);

/// Why NVLS cannot run an AllReduce over all NPUs of `topology`, or nothing if it can:
///   across_nodes false (algorithm nvls): every NPU on one reducing switch;
///   across_nodes true (nvls-tree): every NPU on a reducing switch, at least two such
///   groups (nodes), all of one size.
std::optional<std::string> in_switch_unavailable(const Topology& topology, bool across_nodes);

/// The chunk NCCL moves an NVLS AllReduce of `bytes` in, on `ops` concurrent operations (its
/// channels x the GPUs of the switch, each GPU the head of a share): 128 KiB, 64 KiB below
/// 32 ops chunks, 32 KiB below 8, 16 KiB below 2 (NVIDIA/nccl src/enqueue.cc,
/// calcCollChunking, NCCL_ALGO_NVLS: "if (nBytes < 32 * concurrentOps * chunkSize) ...").
/// So 8 GPUs on 16 channels move 16 KiB chunks below 8 MiB, 32 KiB below 64 MiB, 64 KiB
/// below 512 MiB.
Bytes nvls_chunk_bytes(Bytes bytes, std::uint64_t ops);

/// The time an NVLS AllReduce of `size` on one switch spends filling its pipeline before
/// its flows move at rate. NCCL's NVLS kernel passes each chunk through three groups of
/// warps in turn (src/device/all_reduce.h, NVLS: scatter into the switch's buffers, reduce
/// and multicast through the switch, gather out of them), so the last of the K rounds of
/// ops chunks ends two rounds after the flows alone would:
///   fill = 2 x min(n, ops x chunk) x (G+1)/G / rate,  ops = costs.fill_channels x G
/// with rate the slowest GPU-switch link at the costs' in-switch rate. 0 without
/// fill_channels. 32 MiB on 8 H100s (16 channels, 32 KiB chunks): 2 x 4 MiB x 9/8 /
/// 315.18 GB/s = 29.9 us.
TimePs in_switch_fill_ps(const Topology& topology, const std::vector<InSwitchGroup>& groups, Bytes size,
                         const ProtocolCosts& costs);

/// The chunk NCCL moves an nvls-tree AllReduce of `bytes` in across `nodes` nodes, on `ops`
/// concurrent operations (channels x GPUs per node): 128 KiB, at most 64 KiB from 4 nodes on,
/// 64 KiB below 4 rounds of ops chunks, 32 KiB below one (NVIDIA/nccl src/enqueue.cc,
/// calcCollChunking, NCCL_ALGO_NVLS_TREE, NCCL_NVLSTREE_MAX_CHUNKSIZE's default). So 8 GPUs
/// per node on 16 channels across 10 nodes move 32 KiB chunks below 8 MiB, 64 KiB above.
Bytes nvls_tree_chunk_bytes(Bytes bytes, std::uint64_t ops, std::size_t nodes);

/// One of nvls-tree's flows across nodes (collective/in_switch_run.h): GPU k of one node to
/// GPU k of the node next to it in a tree, with the rate it gets when all such flows run at
/// once: the least over its route's links of bandwidth / tree flows on the link.
struct InSwitchTreeFlow {
  Rank from = 0;
  Rank to = 0;
  Route route;
  BandwidthBps share_Bps = 0;
};
/// Every edge of the double binary tree of `groups` (base/binary_tree.h), up and down, for
/// every GPU k: 2 x 2(N-1) x G flows.
std::vector<InSwitchTreeFlow> in_switch_tree_flows(const Topology& topology, const std::vector<InSwitchGroup>& groups);

/// The time an nvls-tree AllReduce of `size` spends filling its pipeline through the tree
/// beyond its flows. Each of the C channels (costs.fill_channels) runs on one of the two
/// trees, and for each GPU k a chunk climbs d edges to the root and comes back down d
/// (d = binary_tree_depth(N)); the flows move all rounds at once, the pipeline finishes its
/// last round 2d - 1 rounds after them (one round: C/2 chunks per flow):
///   fill = (2d - 1) x min(n/(2G), C/2 x chunk) / r
/// with r the slowest tree flow's rate, its share (in_switch_tree_flows) or its cap by route
/// class, whichever is less. The NVLink stages at either end of the tree take
/// (G+1)/G x chunk at NVLink rates, a few percent of a network round: left out. 0 without
/// fill_channels or with one node. 10 nodes of 8 H100s, 16 channels, 64 MiB: 7 rounds of
/// 8 x 64 KiB at the 10 GB/s cap each, 367 us. `flows`: in_switch_tree_flows(topology, groups).
TimePs in_switch_tree_fill_ps(const Topology& topology, const std::vector<InSwitchGroup>& groups,
                              const std::vector<InSwitchTreeFlow>& flows, Bytes size, const ProtocolCosts& costs,
                              const RateCapsByClass& caps);

}  // namespace commsim
