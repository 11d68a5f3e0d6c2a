// Replay of collectives among groups under a library, as NCCL runs them on the GPUs the
// group spans: AllReduces the switch reduces (NVLS; collective/in_switch_run.h) of every
// rank, of a group on one switch, of groups on several; and rail-aligned rings for a group
// of equal blocks of GPUs on several nodes. Checked against the closed form, the
// whole-collective simulator and hand-derived values.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../expect_contains.h"
#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "model/one_node_ramp.h"
#include "topology/group_topology.h"
#include "topology/library.h"
#include "topology/spec_file.h"
#include "workload/generators.h"
#include "workload/replay.h"

namespace commsim {
namespace {

const std::string kNode = std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto";
const std::string kCluster = std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-ib-cluster.textproto";
constexpr Bytes k64MiB = Bytes{64} << 20;

// One AllReduce of `bytes` in each group, all at once, by `algorithm` (empty: replay's choice).
Workload group_allreduces(std::size_t ranks, const std::vector<std::vector<Rank>>& groups, Bytes bytes,
                          std::optional<AlgorithmKind> algorithm = std::nullopt) {
  Workload w;
  w.name = "groups";
  w.ranks.resize(ranks);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    w.groups.push_back({std::string("g").append(std::to_string(g)), groups[g]});
    for (const Rank r : groups[g]) {
      WorkloadNode n;
      n.id = 1;
      n.kind = NodeKind::kCollective;
      n.collective = CollectiveKind::kAllReduce;
      n.bytes = bytes;
      n.group = g;
      n.algorithm = algorithm;
      w.ranks[r].nodes.push_back(n);
    }
  }
  return w;
}

std::vector<Rank> ranks_from(Rank first, std::size_t count) {
  std::vector<Rank> ranks(count);
  for (std::size_t i = 0; i < count; ++i) ranks[i] = first + static_cast<Rank>(i);
  return ranks;
}

ReplayOptions under(const Topology& topology) {
  ReplayOptions options;
  options.library = topology.library();
  return options;
}

// NVLS on G GPUs of one H100 switch (370.8 GB/s, 250 ns a hop, NVLS efficiency 0.85, 25 us a
// reduction round, no call latency): each GPU sends and receives n (G+1)/G bytes, and the
// pipeline fills with two rounds of 16 G chunks (64 MiB: 64 KiB chunks, 8 MiB a round on 8
// GPUs, 4 MiB on 4; from 32 x 16 G chunks of 64 KiB up, 128 KiB chunks, topology/in_switch.h
// nvls_chunk_bytes); nvls-tree's switch flows (fill false) have no fill.
double h100_nvls_us(Bytes n, std::uint64_t g, bool fill = true) {
  const double rate = 370.8e9 * 0.85, share = static_cast<double>(g + 1) / static_cast<double>(g);
  const double bytes = static_cast<double>((n * (g + 1) + g - 1) / g);
  const Bytes chunk = n < 32 * 16 * g * (Bytes{64} << 10) ? Bytes{64} << 10 : Bytes{128} << 10;
  const double round = static_cast<double>(16 * g * chunk);
  return 25.0 + 0.25 + bytes / rate * 1e6 + (fill ? 2 * round * share / rate * 1e6 : 0);
}

// The costs an NVLS AllReduce runs at under the topology's library.
ProtocolCosts nvls_costs(const Topology& t) {
  return t.library().costs(CollectiveKind::kAllReduce, AlgorithmKind::kNvls, std::nullopt);
}

double closed_form_us(const Topology& spanned, AlgorithmKind algorithm, Bytes n) {
  const LibraryProfile& library = spanned.library();
  ModelOptions model;
  model.library = library.costs(CollectiveKind::kAllReduce, algorithm, std::nullopt);
  model.rate_caps_by_class =
      collective_rate_caps(spanned, CollectiveKind::kAllReduce, algorithm, n, Protocol::kSimple, library, model);
  return collective_cost(spanned, CollectiveKind::kAllReduce, algorithm, n, model).time_s(0) * 1e6;
}

// NVLS of 64 MiB among g GPUs of an H100 switch under the one-node ramp (model/one_node_ramp.h):
// at least its time at 16 GiB x 64M / 16G over ramp(64M) = 0.65 / 0.81 (SimAI's ratios).
double h100_nvls_ramped_us(std::uint64_t g) {
  return std::max(h100_nvls_us(k64MiB, g), h100_nvls_us(Bytes{16} << 30, g) / 256 / (0.65 / 0.81));
}

// Two collectives of 64 MiB, each NVLS (Simple) among g GPUs of a switch, as if alone.
void expect_two_nvls_of(const ReplayResult& r, std::uint64_t g) {
  ASSERT_EQ(r.collectives.size(), 2u);
  for (const ReplayedCollective& c : r.collectives) {
    EXPECT_EQ(c.call.algorithm, AlgorithmKind::kNvls);
    EXPECT_EQ(c.call.protocol, Protocol::kSimple);
    EXPECT_NEAR(us_from_ps(c.time_ps()), h100_nvls_ramped_us(g), 1e-3);
  }
}

TEST(ReplayInSwitch, AnAllReduceOfEveryRankRunsNvlsAsCommsimCollectiveDoes) {
  // 64 MiB on the H100 node under NCCL: NCCL's choice is NVLS, and the replay takes the same
  // time as the whole-collective simulator, the closed form and the hand-derived
  // 25 us + 0.25 us + 75497472 B / 315.18 GB/s + 2 x 9437184 B / 315.18 GB/s = 324.672 us.
  const Topology node = load_topology_file(kNode);
  const ReplayResult r = replay_workload(generate_collective({CollectiveKind::kAllReduce, 8, k64MiB, std::nullopt}),
                                         node, under(node));
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_EQ(r.collectives[0].call.algorithm, AlgorithmKind::kNvls);
  CollectiveConfig config;
  config.library = nvls_costs(node);
  EXPECT_EQ(r.total_ps, simulate_collective(node, CollectiveKind::kAllReduce, AlgorithmKind::kNvls, k64MiB, config).time_ps);
  EXPECT_NEAR(us_from_ps(r.total_ps), closed_form_us(node, AlgorithmKind::kNvls, k64MiB), 1e-3);
  EXPECT_NEAR(us_from_ps(r.total_ps), h100_nvls_us(k64MiB, 8), 1e-3);
}

TEST(ReplayInSwitch, TwoGroupsOfFourOnOneSwitchEachRunNvlsOnTheirOwnLinks) {
  // Groups {0..3} and {4..7} at once: NCCL's choice for each is NVLS among 4 GPUs, 5/4 n each
  // way per GPU; the groups share the switch but no link, so each takes what it takes alone.
  // Inside the node the one-node ramp binds: 332.114 us, not the flows' 324.672 us.
  const Topology node = load_topology_file(kNode);
  const ReplayResult r =
      replay_workload(group_allreduces(8, {ranks_from(0, 4), ranks_from(4, 4)}, k64MiB), node, under(node));
  expect_two_nvls_of(r, 4);
  EXPECT_NEAR(us_from_ps(r.total_ps), 332.114, 1e-3);
  EXPECT_NEAR(h100_nvls_us(k64MiB, 4), 324.672, 1e-3);
  const Topology group = group_topology(node, ranks_from(0, 4));
  EXPECT_NEAR(us_from_ps(r.total_ps), closed_form_us(group, AlgorithmKind::kNvls, Bytes{16} << 30) / 256 / (0.65 / 0.81),
              1e-3);
  // The ramp off: the flows' time, the closed form's.
  ReplayOptions no_ramp = under(node);
  no_ramp.library.one_node_ramp.resize(1);
  const ReplayResult flows =
      replay_workload(group_allreduces(8, {ranks_from(0, 4), ranks_from(4, 4)}, k64MiB), node, no_ramp);
  EXPECT_NEAR(us_from_ps(flows.total_ps), closed_form_us(group, AlgorithmKind::kNvls, k64MiB), 1e-3);
}

TEST(ReplayInSwitch, ANodesGroupInAClusterRunsNvlsOnItsSwitch) {
  // A tensor-parallel group (node 0's 8 GPUs) of a 2-node H100 cluster: NVLS on node 0's
  // switch, as on the lone node, while node 1's group does the same on its own.
  const Topology cluster = load_topology_file(kCluster);
  const ReplayResult r =
      replay_workload(group_allreduces(16, {ranks_from(0, 8), ranks_from(8, 8)}, k64MiB), cluster, under(cluster));
  expect_two_nvls_of(r, 8);
}

TEST(ReplayInSwitch, TheOneNodeRampBoundsAGroupInsideANodeNotOneAcrossNodes) {
  // Four GPUs of node 0 of a 2-node cluster span NVLink alone: their 64 MiB NVLS takes what
  // it takes on the lone node, ramp included. Two GPUs on two nodes span the NICs: no ramp.
  const Topology cluster = load_topology_file(kCluster);
  const ReplayResult r = replay_workload(group_allreduces(16, {ranks_from(0, 4)}, k64MiB), cluster, under(cluster));
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_NEAR(us_from_ps(r.total_ps), h100_nvls_ramped_us(4), 1e-3);
  const LibraryProfile& nccl = cluster.library();
  EXPECT_TRUE(one_node_ramp_scale(group_topology(cluster, ranks_from(0, 4)), CollectiveKind::kAllReduce, k64MiB, nccl));
  EXPECT_FALSE(one_node_ramp_scale(group_topology(cluster, {0, 8}), CollectiveKind::kAllReduce, k64MiB, nccl));
  EXPECT_FALSE(one_node_ramp_scale(cluster, CollectiveKind::kAllReduce, k64MiB, nccl));
  // The cluster spec scaled to one node: its GPUs talk over NVLink alone, its NICs idle.
  SpecScale one;
  one.nodes = 1;
  EXPECT_TRUE(one_node_ramp_scale(load_topology_file(kCluster, one), CollectiveKind::kAllReduce, k64MiB, nccl));
}

TEST(ReplayInSwitch, AGroupOfTwoWholeNodesRunsNvlsTreeAsItsClosedForm) {
  // Nodes 0 and 1 of a 3-node cluster by nvls-tree: 2 ceil(log2 2) x 20.9 us across the nodes,
  // then the switch flows of each node (longer than the 8 MiB each GPU sends over its NIC),
  // and the tree's fill: one round of 8 channels' 128 KiB chunks per flow at the flows' 20 GB/s
  // cap, 52.4288 us (topology/in_switch.h).
  SpecScale three;
  three.nodes = 3;
  const Topology cluster = load_topology_file(kCluster, three);
  const std::vector<Rank> members = ranks_from(0, 16);
  const ReplayResult r = replay_workload(group_allreduces(24, {members}, k64MiB, AlgorithmKind::kNvlsTree), cluster,
                                         under(cluster));
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_NEAR(us_from_ps(r.total_ps), 41.8 + h100_nvls_us(k64MiB, 8, false) + 52.4288, 1e-3);
  EXPECT_NEAR(us_from_ps(r.total_ps), closed_form_us(group_topology(cluster, members), AlgorithmKind::kNvlsTree, k64MiB),
              1e-3);
}

TEST(ReplayInSwitch, NvlsForAGroupItsSwitchesCannotReduceIsAnErrorNamingTheNode) {
  const Topology cluster = load_topology_file(kCluster);
  // One GPU on each node's switch: their routes cross no switch that reduces.
  try {
    replay_workload(group_allreduces(16, {{0, 8}}, k64MiB, AlgorithmKind::kNvls), cluster, under(cluster));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_CONTAINS(what, "rank 8: node 1: algorithm 'nvls'");  // the last to arrive
    EXPECT_CONTAINS(what, "has no switch that reduces");
  }
  // 8 GPUs on one switch and 4 on the other: nvls-tree needs as many on each.
  EXPECT_THROW(replay_workload(group_allreduces(16, {ranks_from(0, 12)}, k64MiB, AlgorithmKind::kNvlsTree), cluster,
                               under(cluster)),
               InputError);
}

TEST(ReplayGroups, BlocksOfGpusOnSeveralNodesRingByRailAsTheWholeClusterDoes) {
  // A data-parallel group of a tp-2 split of two H100 nodes: GPUs 0, 2, 4, 6 of each node. The
  // library runs 4 rings, each leaving a node through a different GPU's NIC, as the closed
  // form on the group's topology says (4 channels), where one ring would queue all its
  // cross-node traffic on one NIC: under a third of that time.
  const Topology cluster = load_topology_file(kCluster);
  const std::vector<Rank> members{0, 2, 4, 6, 8, 10, 12, 14};
  const ReplayResult r =
      replay_workload(group_allreduces(16, {members}, k64MiB, AlgorithmKind::kRing), cluster, under(cluster));
  ASSERT_EQ(r.collectives.size(), 1u);
  const Topology group = group_topology(cluster, members);
  const LibraryProfile& nccl = cluster.library();
  ModelOptions model;
  model.channels = default_channels(group, nccl);
  ASSERT_EQ(model.channels, 4u);
  const std::optional<Protocol> protocol =
      fastest_protocol(group, CollectiveKind::kAllReduce, AlgorithmKind::kRing, k64MiB, model, nccl);
  EXPECT_EQ(r.collectives[0].call.protocol, protocol);
  model.library = nccl.costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, protocol);
  model.chunks = least_time_chunks(group, CollectiveKind::kAllReduce, AlgorithmKind::kRing, k64MiB, model);
  const double model_s = collective_cost(group, CollectiveKind::kAllReduce, AlgorithmKind::kRing, k64MiB, model).time_s(0);
  EXPECT_NEAR(seconds_from_ps(r.total_ps) / model_s, 1, 1e-6);  // NCCL's rates: ps rounding
  CollectiveConfig alone;  // the collective alone on the group's topology: the same to the ps
  alone.library = model.library;
  alone.channels = model.channels;
  alone.chunks = model.chunks;
  EXPECT_EQ(r.total_ps, simulate_collective(group, CollectiveKind::kAllReduce, AlgorithmKind::kRing, k64MiB, alone).time_ps);
  model.channels = 1;
  model.chunks = 1;
  const double one_ring_s = collective_cost(group, CollectiveKind::kAllReduce, AlgorithmKind::kRing, k64MiB, model).time_s(0);
  EXPECT_LT(seconds_from_ps(r.total_ps), one_ring_s / 3);
}

}  // namespace
}  // namespace commsim
