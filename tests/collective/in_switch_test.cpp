// AllReduce reduced in the switch (NVLink SHARP): the simulator's flows and the closed form
// agree on an idle network, reproduce hand-derived times, and refuse topologies without a
// reducing switch.

#include "topology/in_switch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "topology/builders.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;
using A = AlgorithmKind;
constexpr CollectiveKind kAllReduce = CollectiveKind::kAllReduce;

Topology nvls_topology(TopologyKind kind, std::uint32_t nodes, std::uint32_t gpus, bool nvls = true) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = gpus;
  c.nodes = nodes;
  c.gpus_per_node = gpus;
  c.link = {50e9, ps_from_ns(250), LinkKind::kNvlink, Duplex::kFull};
  c.nic = {25e9, ps_from_ns(500), LinkKind::kInfiniband, Duplex::kFull};
  c.nvls = nvls;
  return build_topology(c);
}

double sim_s(const Topology& t, A a, Bytes size, const ProtocolCosts& costs, TimePs overhead_ps = 0) {
  CollectiveConfig config;
  config.library = costs;
  config.overhead_ps = overhead_ps;
  return seconds_from_ps(simulate_collective(t, kAllReduce, a, size, config).time_ps);
}

double model_s(const Topology& t, A a, Bytes size, const ProtocolCosts& costs, TimePs overhead_ps = 0) {
  ModelOptions options;
  options.library = costs;
  options.overhead_s = seconds_from_ps(overhead_ps);
  return collective_cost(t, kAllReduce, a, size, options).time_s(0);
}

// In-switch costs whose rate is whole picoseconds per byte: 0.8 x 50 GB/s = 40 GB/s, 25 ps/B.
const ProtocolCosts kWhole{ps_from_us(2), {ps_from_us(25), 0, ps_from_us(14)}, 0.8};

TEST(InSwitch, GroupsAreTheNpusOfEachReducingSwitch) {
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  ASSERT_EQ(in_switch_groups(node).size(), 1u);
  EXPECT_EQ(in_switch_groups(node).front().ranks.size(), 8u);
  const Topology cluster = nvls_topology(TopologyKind::kHierarchical, 3, 4);
  const auto groups = in_switch_groups(cluster);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[1].ranks, (std::vector<Rank>{4, 5, 6, 7}));
  EXPECT_TRUE(in_switch_groups(nvls_topology(TopologyKind::kSwitch, 1, 8, false)).empty());
}

TEST(InSwitch, NvlsOnOneNodeIsOneRoundOfFlowsToAndFromTheSwitch) {
  // 8 GPUs, n = 8 MiB: each GPU sends and receives n (8+1)/8 = 9 MiB at 0.8 x 50 GB/s
  // (25 ps/B), after the call latency 2 us, the NVLink step 25 us and one 250 ns hop:
  //   T = 2 + 25 + 0.25 us + 9 x 2^20 x 25 ps.
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  const double expected = 27.25e-6 + 9.0 * kMiB * 25e-12;
  EXPECT_NEAR(sim_s(node, A::kNvls, 8 * kMiB, kWhole), expected, 1e-15);
  EXPECT_NEAR(model_s(node, A::kNvls, 8 * kMiB, kWhole), expected, 1e-15);
}

TEST(InSwitch, NvlsLinkStatsAreTheWireBytesToAndFromTheSwitch) {
  // As above: every GPU's link carries 9 MiB of data each way, 9 MiB / 0.8 on the wire,
  // busy the 9 x 2^20 x 25 ps it flows, one flow at a time, out of T = 27.25 us + that.
  CollectiveConfig config;
  config.library = kWhole;
  config.record_link_stats = true;
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  const CollectiveResult r = simulate_collective(node, kAllReduce, A::kNvls, 8 * kMiB, config);
  ASSERT_TRUE(r.link_stats);
  EXPECT_EQ(r.link_stats->simulated_ps, r.time_ps);
  ASSERT_EQ(r.link_stats->loads.size(), 16u);
  for (const LinkLoad& load : r.link_stats->loads) {
    EXPECT_DOUBLE_EQ(load.bytes, 9.0 * kMiB / 0.8);
    EXPECT_EQ(load.busy_ps, 9 * kMiB * 25);
    EXPECT_EQ(load.peak_flows, 1u);
  }
}

TEST(InSwitch, NvlsRecordsMessagesAndLinkStatsInOneRun) {
  // As above, with a listener too: 16 flows of 9 MiB (8 to the switch, 8 back), the last
  // arriving at T, and the same links as without one.
  CollectiveConfig config;
  config.library = kWhole;
  config.record_link_stats = true;
  std::vector<CollectiveMessage> messages;
  config.on_message = [&messages](const CollectiveMessage& m) { messages.push_back(m); };
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  const CollectiveResult r = simulate_collective(node, kAllReduce, A::kNvls, 8 * kMiB, config);
  ASSERT_EQ(messages.size(), 16u);
  TimePs last = 0;
  for (const CollectiveMessage& m : messages) {
    EXPECT_EQ(m.bytes, 9 * kMiB);
    EXPECT_FALSE(m.peer);
    last = std::max(last, m.arrived_ps);
  }
  EXPECT_EQ(std::count_if(messages.begin(), messages.end(), [](const CollectiveMessage& m) { return m.from_switch; }),
            8);
  EXPECT_EQ(last, r.time_ps);
  ASSERT_TRUE(r.link_stats);
  ASSERT_EQ(r.link_stats->loads.size(), 16u);
  for (const LinkLoad& load : r.link_stats->loads) EXPECT_EQ(load.busy_ps, 9 * kMiB * 25);
}

TEST(InSwitch, NvlsOnAnH100NodeAsNcclCostsIt) {
  // NCCL's NVLS: base latency 0, one NVLink step of 25 us, nvlsEfficiency 0.85 (Hopper), on
  // 370.8 GB/s: 1 GiB takes 25.25 us + 2^30 x 9/8 B / 315.18 GB/s = 3857.85 us, busbw
  // 2^30 / T x 14/8 = 487 GB/s (measured on such nodes: ~470-480 GB/s).
  const Topology node = load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto");
  const ProtocolCosts nvls = node.library().costs(A::kNvls, std::nullopt);
  const double expected = 25.25e-6 + 1024.0 * kMiB * 9 / 8 / (0.85 * 370.8e9);
  EXPECT_NEAR(sim_s(node, A::kNvls, 1024 * kMiB, nvls), expected, 1e-9);
  EXPECT_NEAR(model_s(node, A::kNvls, 1024 * kMiB, nvls), expected, 1e-12);
  // And NCCL's choice: NVLS at 1 GiB, not at 4 KiB, below its 25 us step.
  const NcclChoice large = nccl_choice(node, kAllReduce, 1024 * kMiB, {}, node.library());
  EXPECT_EQ(large.algorithm, A::kNvls);
  EXPECT_EQ(large.protocol, Protocol::kSimple);
  EXPECT_NE(nccl_choice(node, kAllReduce, 4096, {}, node.library()).algorithm, A::kNvls);
  // Where NCCL's estimate (tuning.cc: no wire term) turns to NVLS, between 512 KiB and 1 MiB:
  // ring LL 6.6 + 14 x 0.6 us + 14 x n/8 at a quarter of 370.8 GB/s (LL's share of an
  // AllReduce) against NVLS 25 us + 9/8 n / 315.18 GB/s: 24.90 against 26.87 us at 512 KiB,
  // 34.80 against 28.74 at 1 MiB. With the route's 2 x 250 ns a step added (7 us) ring
  // would lose from 256 KiB.
  EXPECT_EQ(nccl_choice(node, kAllReduce, 512 << 10, {}, node.library()).algorithm, A::kRing);
  EXPECT_EQ(nccl_choice(node, kAllReduce, 512 << 10, {}, node.library()).protocol, Protocol::kLL);
  EXPECT_EQ(nccl_choice(node, kAllReduce, kMiB, {}, node.library()).algorithm, A::kNvls);
  // A forced LL protocol leaves NVLS out, as NCCL_PROTO=LL would.
  EXPECT_EQ(nccl_choice(node, kAllReduce, 1024 * kMiB, {}, node.library(), Protocol::kLL).algorithm, A::kRing);
}

TEST(InSwitch, NcclLeavesNvlsOutWithTwoGpusANode) {
  // NCCL turns NVLS off where the communicator has 2 GPUs or fewer in a node (src/transport/
  // nvls.cc, ncclNvlsInit: "gpuCount <= 2"): 2 GPUs of an H100 node run rings at 1 GiB, where
  // 4 run NVLS; 10 nodes of 2 run rings where 10 of 4 run nvls-tree. The switch still
  // reduces: --algorithm nvls runs on 2.
  const std::string dir = std::string(COMMSIM_SOURCE_DIR) + "/topologies/";
  for (const auto& [gpus, expected] : {std::pair{2u, A::kRing}, {4u, A::kNvls}}) {
    const Topology node =
        load_topology_file(dir + "h100-nvswitch-node.textproto", {.nodes = std::nullopt, .gpus_per_node = gpus});
    EXPECT_EQ(nccl_choice(node, kAllReduce, 1024 * kMiB, {}, node.library()).algorithm, expected) << gpus;
    EXPECT_FALSE(in_switch_unavailable(node, false)) << gpus;
  }
  for (const auto& [gpus, expected] : {std::pair{2u, A::kRing}, {4u, A::kNvlsTree}}) {
    const Topology cluster =
        load_topology_file(dir + "h100-ib-cluster.textproto", {.nodes = 10, .gpus_per_node = gpus});
    EXPECT_EQ(nccl_choice(cluster, kAllReduce, 256 * kMiB, {}, cluster.library()).algorithm, expected) << gpus;
  }
}

TEST(InSwitch, NcclMovesNvlsInChunksThatShrinkWithTheMessage) {
  // src/enqueue.cc: 128 KiB, halved below 32, 8 and 2 rounds of ops chunks. 8 GPUs on 16
  // channels are 128 ops: 16 KiB below 8 MiB, 32 KiB below 64 MiB, 64 KiB below 512 MiB.
  EXPECT_EQ(nvls_chunk_bytes(8 * kMiB - 1, 128), 16u << 10);
  EXPECT_EQ(nvls_chunk_bytes(8 * kMiB, 128), 32u << 10);
  EXPECT_EQ(nvls_chunk_bytes(64 * kMiB - 1, 128), 32u << 10);
  EXPECT_EQ(nvls_chunk_bytes(64 * kMiB, 128), 64u << 10);
  EXPECT_EQ(nvls_chunk_bytes(512 * kMiB - 1, 128), 64u << 10);
  EXPECT_EQ(nvls_chunk_bytes(512 * kMiB, 128), 128u << 10);
  EXPECT_EQ(nvls_chunk_bytes(1, 64), 16u << 10);
}

TEST(InSwitch, NvlsRunsTwoRoundsOfChunksBeyondItsFlows) {
  // An H100 node's NVLS AllReduce of 32 MiB as NCCL runs it: 16 channels x 8 heads move
  // 32 KiB chunks, 4 MiB a round; the pipeline ends two rounds after the flows, 2 x 4 MiB x
  // 9/8 at 0.85 x 370.8 GB/s = 29.93 us, beside 25 us + 32 MiB x 9/8 / 315.18 GB/s + 250 ns.
  const Topology node = load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto");
  const ProtocolCosts nvls = node.library().costs(kAllReduce, A::kNvls, std::nullopt);
  EXPECT_EQ(nvls.fill_channels, 16u);
  const double rate = 0.85 * 370.8e9;
  const double fill = 2 * 4.0 * kMiB * 9 / 8 / rate;
  EXPECT_NEAR(seconds_from_ps(in_switch_fill_ps(node, in_switch_groups(node), 32 * kMiB, nvls)), fill, 1e-12);
  const double expected = 25.25e-6 + 32.0 * kMiB * 9 / 8 / rate + fill;
  EXPECT_NEAR(sim_s(node, A::kNvls, 32 * kMiB, nvls), expected, 1e-9);
  EXPECT_NEAR(model_s(node, A::kNvls, 32 * kMiB, nvls), expected, 1e-12);
  // 1 MiB is less than a round (16 KiB chunks: 2 MiB), so the whole message is the round.
  EXPECT_NEAR(seconds_from_ps(in_switch_fill_ps(node, in_switch_groups(node), kMiB, nvls)), 2.0 * kMiB * 9 / 8 / rate,
              1e-12);
  // NCCL's estimate has no fill: it chooses as before, and nvls-tree runs none.
  EXPECT_EQ(node.library().ranked_costs(kAllReduce, A::kNvls, std::nullopt).fill_channels, 0u);
  EXPECT_EQ(node.library().ranked_costs(kAllReduce, A::kNvlsTree, std::nullopt).fill_channels, 0u);
  EXPECT_EQ(node.library().costs(kAllReduce, A::kNvlsTree, std::nullopt).fill_channels, 16u);
}

TEST(InSwitch, NcclMovesNvlsTreeInChunksOfAtMost64KiBFromFourNodesOn) {
  // src/enqueue.cc, NCCL_ALGO_NVLS_TREE: 128 KiB (64 KiB from 4 nodes on), 64 KiB below 4
  // rounds of ops chunks, 32 KiB below one. 16 channels x 8 heads = 128 ops.
  EXPECT_EQ(nvls_tree_chunk_bytes(8 * kMiB - 1, 128, 10), 32u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(8 * kMiB, 128, 10), 64u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(16384 * kMiB, 128, 4), 64u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(64 * kMiB - 1, 128, 3), 64u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(64 * kMiB, 128, 3), 128u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(8 * kMiB - 1, 128, 2), 32u << 10);
  EXPECT_EQ(nvls_tree_chunk_bytes(8 * kMiB, 128, 2), 64u << 10);
}

Topology nvls_cluster(std::uint32_t nodes, std::uint32_t gpus, BandwidthBps nic_Bps) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = nodes;
  c.gpus_per_node = gpus;
  c.link = {50e9, ps_from_ns(250), LinkKind::kNvlink, Duplex::kFull};
  c.nic = {nic_Bps, ps_from_ns(500), LinkKind::kInfiniband, Duplex::kFull};
  c.nvls = true;
  return build_topology(c);
}

TEST(InSwitch, NvlsTreeAddsTreeLevelsAndTheCrossNodeTreeShare) {
  // 3 nodes x 4 GPUs, n = 12 MiB, kWhole:
  //   latency 2 us + 2 ceil(log2 3) x 14 us = 58 us;
  //   switch flows: 25 us + 250 ns + n 5/4 = 15 MiB at 25 ps/B = 393.216 us + 25.25 us;
  //   tree flows: n/(2G) = 1.5 MiB each way on every edge of the double binary tree of 3
  //   nodes (tree 0: 1 -> 2 -> 0; tree 1, shifted: 2 -> 0 -> 1), GPU k to GPU k. Node 0
  //   sends down to 2 (tree 0), up to 1 and down to 2 (tree 1): 3 flows, 4.5 MiB, through
  //   each NIC (25 GB/s, 40 ps/B, two 500 ns hops): 1 us + 188.74 us. The switch flows are
  //   slower: T = 58 + 25.25 us + 15 MiB x 25 ps.
  const Topology cluster = nvls_topology(TopologyKind::kHierarchical, 3, 4);
  const double expected = 58e-6 + 25.25e-6 + 15.0 * kMiB * 25e-12;
  EXPECT_NEAR(sim_s(cluster, A::kNvlsTree, 12 * kMiB, kWhole), expected, 1e-15);
  EXPECT_NEAR(model_s(cluster, A::kNvlsTree, 12 * kMiB, kWhole), expected, 1e-15);
  // With the NICs 10x slower (2.5 GB/s, 400 ps/B) the tree is the bottleneck: three flows
  // share a NIC's direction, T = 58 us + 1 us + 4.5 MiB x 400 ps (a ring's share would
  // have been 2(3-1)/3 n/G = 4 MiB).
  const Topology slow_nics = nvls_cluster(3, 4, 2.5e9);
  const double tree_bound = 59e-6 + 4.5 * kMiB * 400e-12;
  EXPECT_NEAR(sim_s(slow_nics, A::kNvlsTree, 12 * kMiB, kWhole), tree_bound, 1e-15);
  EXPECT_NEAR(model_s(slow_nics, A::kNvlsTree, 12 * kMiB, kWhole), tree_bound, 1e-15);
}

TEST(InSwitch, NvlsTreeBeyondTwoNodesMovesTwiceTheShareThroughTheBusiestNic) {
  // 10 nodes x 2 GPUs, NICs of 2.5 GB/s (400 ps/B), n = 12 MiB, kWhole. In tree 0 node 4
  // has children 2 and 6 and parent 8; in tree 1 (mirrored) it is a leaf: it sends 4 flows
  // of n/(2G) = 3 MiB, 2n/G in all, through each NIC (NCCL's bwInter/2 beyond two nodes).
  //   T = 2 us + 2 ceil(log2 10) x 14 us + 1 us + 12 MiB x 400 ps.
  const Topology ten = nvls_cluster(10, 2, 2.5e9);
  const double expected = 2e-6 + 8 * 14e-6 + 1e-6 + 12.0 * kMiB * 400e-12;
  EXPECT_NEAR(sim_s(ten, A::kNvlsTree, 12 * kMiB, kWhole), expected, 1e-15);
  EXPECT_NEAR(model_s(ten, A::kNvlsTree, 12 * kMiB, kWhole), expected, 1e-15);
  // Two nodes: one edge per tree, each NIC direction carries 2 flows, n/G.
  const Topology two = nvls_cluster(2, 2, 2.5e9);
  const double two_nodes = 2e-6 + 2 * 14e-6 + 1e-6 + 6.0 * kMiB * 400e-12;
  EXPECT_NEAR(sim_s(two, A::kNvlsTree, 12 * kMiB, kWhole), two_nodes, 1e-15);
  EXPECT_NEAR(model_s(two, A::kNvlsTree, 12 * kMiB, kWhole), two_nodes, 1e-15);
}

// nvls-tree's fill on every NPU of `t` (in_switch_tree_fill_ps).
TimePs tree_fill_ps(const Topology& t, Bytes size, const ProtocolCosts& costs, const RateCapsByClass& caps) {
  const std::vector<InSwitchGroup> groups = in_switch_groups(t);
  return in_switch_tree_fill_ps(t, groups, in_switch_tree_flows(t, groups), size, costs, caps);
}

TEST(InSwitch, NvlsTreeFillsItsPipelineUpAndDownTheTree) {
  // 10 nodes x 2 GPUs, NICs of 2.5 GB/s, n = 12 MiB, kWhole with 4 channels: 8 ops move 64 KiB
  // chunks (12 MiB >= 8 x 64 KiB), a round is 4/2 chunks = 128 KiB per flow. The tree of 10
  // nodes is 4 edges deep (1 -> 2 -> 4 -> 8 -> 0): the last round comes back down 2 x 4 - 1
  // rounds after the flows end. The slowest flows share the busiest NIC four ways, 625 MB/s
  // (1600 ps/B): fill = 7 x 128 KiB x 1600 ps = 1468.0064 us, beside the flows' time of
  // NvlsTreeBeyondTwoNodesMovesTwiceTheShareThroughTheBusiestNic.
  const Topology ten = nvls_cluster(10, 2, 2.5e9);
  ProtocolCosts filled = kWhole;
  filled.fill_channels = 4;
  const double fill = 7 * 128.0 * 1024 * 1600e-12;
  EXPECT_NEAR(seconds_from_ps(tree_fill_ps(ten, 12 * kMiB, filled, kNoRateCaps)), fill, 1e-15);
  const double expected = 2e-6 + 8 * 14e-6 + 1e-6 + 12.0 * kMiB * 400e-12 + fill;
  EXPECT_NEAR(sim_s(ten, A::kNvlsTree, 12 * kMiB, filled), expected, 1e-15);
  EXPECT_NEAR(model_s(ten, A::kNvlsTree, 12 * kMiB, filled), expected, 1e-15);
  ModelOptions options;
  options.library = filled;
  const CollectiveCost cost = collective_cost(ten, kAllReduce, A::kNvlsTree, 12 * kMiB, options);
  EXPECT_NE(cost.formula.find("+ (2d-1) rounds of chunks"), std::string::npos) << cost.formula;
  const auto term = std::find_if(cost.terms.begin(), cost.terms.end(),
                                 [](const CostTerm& t) { return t.label.find("pipeline fill") == 0; });
  ASSERT_NE(term, cost.terms.end());
  EXPECT_NEAR(term->time_s(0), fill, 1e-15);
  // A cap below the share sets the rounds' rate: 100 MB/s on the network, 10000 ps/B.
  RateCapsByClass caps = kNoRateCaps;
  caps[static_cast<int>(LinkClass::kNet)] = 100e6;
  EXPECT_NEAR(seconds_from_ps(tree_fill_ps(ten, 12 * kMiB, filled, caps)), 7 * 128.0 * 1024 * 10000e-12, 1e-15);
  // Less than a round per flow (64 KiB: 16 KiB each way per edge) moves whole; two nodes are
  // one edge deep, one round; one node or no channels: none.
  EXPECT_NEAR(seconds_from_ps(tree_fill_ps(ten, 64 * 1024, filled, kNoRateCaps)), 7 * 16.0 * 1024 * 1600e-12, 1e-15);
  const Topology two = nvls_cluster(2, 2, 2.5e9);
  // Two nodes: 2 flows a NIC direction, 1.25 GB/s (800 ps/B); 8 ops at 12 MiB: 128 KiB chunks.
  EXPECT_NEAR(seconds_from_ps(tree_fill_ps(two, 12 * kMiB, filled, kNoRateCaps)), 256.0 * 1024 * 800e-12, 1e-15);
  EXPECT_EQ(tree_fill_ps(ten, 12 * kMiB, kWhole, kNoRateCaps), 0);
}

TEST(InSwitch, NcclRanksNvlsTreeBeyondTwoNodesAtItsPerChannelCap) {
  // 10 H100 nodes of 8 GPUs, a 48.5 GB/s NIC a GPU: NCCL's estimate (tuning.cc after 2.26)
  // gives nvls-tree a bus bandwidth of 8 heads at min(NIC, perChMaxNVLSTreeBw 45.5 GB/s),
  // turned into the call's rate as a ring's: at 1 GiB
  //   2 ceil(log2 10) x 20.9 us + 2 x 79/80 x 2^30 B / (8 x 45.5 GB/s) = 167.2 + 5825.93 us,
  // beside its switch flows' 25 us + 2^30 x 9/8 / (0.85 x 370.8 GB/s) = 3857.62 us.
  const Topology cluster =
      load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-ib-cluster.textproto", {10, 8});
  const LibraryProfile& nccl = cluster.library();
  EXPECT_DOUBLE_EQ(nccl.nvls_tree_net_rate_Bps, 45.5e9);
  ModelOptions estimate;
  estimate.estimate = true;
  estimate.library = nccl.ranked_costs(kAllReduce, A::kNvlsTree, Protocol::kSimple);
  estimate.estimate_nvls_tree_net_rate_Bps = nccl.nvls_tree_net_rate_Bps;
  const double expected = 167.2e-6 + 2 * 79.0 / 80 * 1024 * kMiB / (8 * 45.5e9);
  EXPECT_NEAR(collective_cost(cluster, kAllReduce, A::kNvlsTree, 1024 * kMiB, estimate).time_s(0), expected, 1e-12);
  // A ring's estimate has the NICs' 8 x 48.5 GB/s behind 8.4 + 158 x 14 us of steps, 1.4
  // times over (NCCL's ring plateau, LibraryProfile::ring_plateau): it overtakes nvls-tree's
  // 364 GB/s where n x 2 x 79/80 (1/364 - 1/388 GB/s) = 1.4 x 2220.4 - 167.2 = 2941.36 us,
  // n = 8.76 GB: nvls-tree at 8 GiB, the ring at 16 GiB; without the plateau at 2053.2 us,
  // n = 6.12 GB, the ring would from 8 GiB. (The cluster's AllReduce moves its rings' 314-320
  // GB/s from 4 GiB already, tests/data: NCCL's own ring estimate, its hops summed along the
  // ring, most at NVLink's step latency, overtakes sooner.)
  ModelOptions run;
  run.channels = 8;
  EXPECT_EQ(nccl_choice(cluster, kAllReduce, 8192 * kMiB, run, nccl).algorithm, A::kNvlsTree);
  EXPECT_EQ(nccl_choice(cluster, kAllReduce, 16384 * kMiB, run, nccl).algorithm, A::kRing);
  LibraryProfile flat = nccl;
  flat.ring_plateau = 1;
  EXPECT_EQ(nccl_choice(cluster, kAllReduce, 4096 * kMiB, run, flat).algorithm, A::kNvlsTree);
  EXPECT_EQ(nccl_choice(cluster, kAllReduce, 8192 * kMiB, run, flat).algorithm, A::kRing);
  // Without the cap nvls-tree ranks at the NICs' own bandwidth and keeps every size.
  LibraryProfile uncapped = nccl;
  uncapped.nvls_tree_net_rate_Bps = std::numeric_limits<double>::infinity();
  EXPECT_EQ(nccl_choice(cluster, kAllReduce, 16384 * kMiB, run, uncapped).algorithm, A::kNvlsTree);
  // It ranks and never runs: the closed form of a run is the same with and without it.
  ModelOptions capped_run = run;
  capped_run.library = nccl.costs(kAllReduce, A::kNvlsTree, Protocol::kSimple);
  ModelOptions free_run = capped_run;
  capped_run.estimate_nvls_tree_net_rate_Bps = 1e9;
  EXPECT_EQ(collective_cost(cluster, kAllReduce, A::kNvlsTree, 1024 * kMiB, capped_run).time_s(0),
            collective_cost(cluster, kAllReduce, A::kNvlsTree, 1024 * kMiB, free_run).time_s(0));
}

TEST(InSwitch, NvlsTreeFlowsShareTheirHeadsChannelsAcrossNodes) {
  // NCCL's 16 NVLS channels over the 8 heads of an H100 node, 2 each, each channel at most
  // 20 GB/s across the network (the preset's net_channel_rate): 40 GB/s a head, shared by
  // its flows, 4 at the busiest node of 10 (parent and two children in one tree, a parent in
  // the other), 2 on two nodes: 10 and 20 GB/s a flow. With 4 GPUs a node, 4 channels a head:
  // 20 GB/s a flow, above a NIC's share of 48.5 / 4. One node, or no channel rate: no cap.
  const std::string spec = std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-ib-cluster.textproto";
  const Topology ten = load_topology_file(spec, {10, 8});
  const LibraryProfile& nccl = ten.library();
  const auto cap = [&](const Topology& t, const LibraryProfile& profile) {
    return collective_rate_caps(t, kAllReduce, A::kNvlsTree, 1024 * kMiB, Protocol::kSimple, profile,
                                {})[static_cast<int>(LinkClass::kNet)];
  };
  EXPECT_DOUBLE_EQ(cap(ten, nccl), 10e9);
  EXPECT_DOUBLE_EQ(cap(load_topology_file(spec, {2, 8}), nccl), 20e9);
  EXPECT_DOUBLE_EQ(cap(load_topology_file(spec, {10, 4}), nccl), 20e9);
  EXPECT_TRUE(std::isinf(cap(load_topology_file(spec, {1, 8}), nccl)));
  LibraryProfile unbounded = nccl;
  unbounded.net_channel_rate_Bps = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isinf(cap(ten, unbounded)));
  EXPECT_EQ(collective_rate_caps(ten, kAllReduce, A::kNvls, kMiB, Protocol::kSimple, nccl, {}), kNoRateCaps);
  // At 1 GiB on 10 nodes the tree sets the time, each flow of n/16 at its 10 GB/s (100 ps/B),
  // then its pipeline's fill, 7 rounds of 8 x 64 KiB (NvlsTreeFillsItsPipelineUpAndDownTheTree):
  //   T = 2 ceil(log2 10) x 20.9 us + 1 us + 2^30 / 16 x 100 ps + 7 x 512 KiB x 100 ps
  //     = 167.2 + 1 + 6710.8864 + 367.0016 us
  // (the switch flows take 25.25 us + 2^30 x 9/8 / (0.85 x 370.8 GB/s) = 3858 us).
  CollectiveConfig config;
  config.library = nccl.costs(kAllReduce, A::kNvlsTree, Protocol::kSimple);
  config.rate_caps_by_class =
      collective_rate_caps(ten, kAllReduce, A::kNvlsTree, 1024 * kMiB, Protocol::kSimple, nccl, {});
  ModelOptions options;
  options.library = config.library;
  options.rate_caps_by_class = config.rate_caps_by_class;
  const double expected = 8 * 20.9e-6 + 1e-6 + 1024.0 * kMiB / 16 * 100e-12 + 7 * 512.0 * 1024 * 100e-12;
  EXPECT_NEAR(seconds_from_ps(simulate_collective(ten, kAllReduce, A::kNvlsTree, 1024 * kMiB, config).time_ps),
              expected, 1e-12);
  EXPECT_NEAR(collective_cost(ten, kAllReduce, A::kNvlsTree, 1024 * kMiB, options).time_s(0), expected, 1e-12);
  // NCCL's estimate ranks by its own term and knows no cap.
  options.estimate = true;
  options.library = nccl.ranked_costs(kAllReduce, A::kNvlsTree, Protocol::kSimple);
  ModelOptions free_estimate = options;
  free_estimate.rate_caps_by_class = kNoRateCaps;
  EXPECT_EQ(collective_cost(ten, kAllReduce, A::kNvlsTree, 1024 * kMiB, options).time_s(0),
            collective_cost(ten, kAllReduce, A::kNvlsTree, 1024 * kMiB, free_estimate).time_s(0));
}

TEST(InSwitch, SimulatorEqualsClosedFormAcrossSizesProfilesAndOverheads) {
  const ProtocolCosts nccl_nvls = *library_by_name("nccl", "--library").in_switch;
  const std::vector<std::pair<Topology, A>> cases{
      {nvls_topology(TopologyKind::kSwitch, 1, 2), A::kNvls},
      {nvls_topology(TopologyKind::kSwitch, 1, 5), A::kNvls},
      {nvls_topology(TopologyKind::kHierarchical, 2, 8), A::kNvlsTree},
      {nvls_topology(TopologyKind::kHierarchical, 5, 2), A::kNvlsTree},
  };
  for (const auto& [topology, algorithm] : cases) {
    for (const Bytes size : {Bytes{0}, Bytes{1000}, 3 * kMiB + 7, 1024 * kMiB}) {
      // Whole picoseconds per byte (ideal: 20 and 40 ps/B; kWhole 25) agree to 1e-9; NCCL's
      // 0.85 x 50 GB/s (23.53 ps/B) to the clock's rounding.
      ProtocolCosts filled = kWhole;
      filled.fill_channels = 16;  // the pipeline fill on one switch, or through the tree
      for (const auto& [costs, tolerance] :
           {std::pair{ProtocolCosts{}, 1e-9}, {kWhole, 1e-9}, {filled, 1e-9}, {nccl_nvls, 1e-6}}) {
        SCOPED_TRACE(topology.description() + " " + std::to_string(size) + " B");
        const double sim = sim_s(topology, algorithm, size, costs, ps_from_ns(700));
        const double model = model_s(topology, algorithm, size, costs, ps_from_ns(700));
        EXPECT_NEAR(sim / model, 1.0, tolerance);
        ModelOptions options;
        options.library = costs;
        options.overhead_s = 700e-9;
        EXPECT_LE(collective_lower_bound_s(topology, kAllReduce, size, options), model * (1 + 1e-12));
      }
    }
  }
}

TEST(InSwitch, ReducingInTheSwitchBeatsTheRingsBandwidthBound) {
  // Ring AllReduce moves 2(p-1)/p n per GPU, NVLS (p+1)/p n: on 8 GPUs, 14/8 against 9/8.
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  const ProtocolCosts none;
  EXPECT_NEAR(model_s(node, A::kRing, 1024 * kMiB, none) / model_s(node, A::kNvls, 1024 * kMiB, none), 14.0 / 9.0,
              1e-3);
  // The lower bound with a reducing switch is n each way, after one 250 ns hop to the
  // switch (a + n b), below the ring's 500 ns + 14/8 n b.
  ModelOptions options;
  EXPECT_NEAR(collective_lower_bound_s(node, kAllReduce, 1024 * kMiB, options), 250e-9 + 1024.0 * kMiB / 50e9, 1e-12);
}

TEST(InSwitch, RefusedWithoutAReducingSwitchOrAcrossTheWrongGroups) {
  const Topology plain = nvls_topology(TopologyKind::kSwitch, 1, 8, false);
  const auto reason = inapplicable_reason(kAllReduce, A::kNvls, plain);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("has no switch that reduces"), std::string::npos) << *reason;
  EXPECT_THROW(sim_s(plain, A::kNvls, kMiB, {}), InputError);
  EXPECT_THROW(model_s(plain, A::kNvls, kMiB, {}), InputError);
  const Topology cluster = nvls_topology(TopologyKind::kHierarchical, 2, 4);
  EXPECT_NE(inapplicable_reason(kAllReduce, A::kNvls, cluster)->find("on 2 reducing switches"), std::string::npos);
  const Topology node = nvls_topology(TopologyKind::kSwitch, 1, 8);
  EXPECT_NE(inapplicable_reason(kAllReduce, A::kNvlsTree, node)->find("nvls-tree joins several"), std::string::npos);
  EXPECT_NE(inapplicable_reason(CollectiveKind::kAllGather, A::kNvls, node)->find("does not implement allgather"),
            std::string::npos);
  // NVLS runs as flows to and from the switch (in_switch_run.h), not as a schedule.
  EXPECT_THROW(make_schedule(kAllReduce, A::kNvls, node, 0), InputError);
  // Its protocol is Simple.
  EXPECT_THROW(library_by_name("nccl", "x").costs(A::kNvls, Protocol::kLL), InputError);
}

}  // namespace
}  // namespace commsim
