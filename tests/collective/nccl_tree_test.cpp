// NCCL's tree AllReduce with nodes of G GPUs (collective/tree.h, model/algorithm_plans.cpp
// nccl_tree): a chain through each node, the double binary tree across nodes. Hand-derived
// times on idle networks, NCCL's latency formula, the layout, the data it leaves, and the
// closed form's reach once chunks pipeline.
//
// Links: NVLink 50 GB/s (20 ps per byte) from each GPU to its node's switch, NIC 25 GB/s
// (40 ps per byte) from each GPU to the network switch; latencies as each test says.

#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "collective/tree.h"
#include "model/collective_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;
using A = AlgorithmKind;
constexpr CollectiveKind kAllReduce = CollectiveKind::kAllReduce;

/// `nodes` x `g` GPUs, hierarchical; nodes = 0: one switch of g GPUs.
Topology cluster(std::uint32_t nodes, std::uint32_t g, TimePs latency_ps = ps_from_ns(300)) {
  TopologyConfig c;
  c.kind = nodes == 0 ? TopologyKind::kSwitch : TopologyKind::kHierarchical;
  c.npus = g;
  c.nodes = nodes;
  c.gpus_per_node = g;
  c.link = {50e9, latency_ps, LinkKind::kNvlink, Duplex::kFull};
  c.nic = {25e9, latency_ps, LinkKind::kInfiniband, Duplex::kFull};
  return build_topology(c);
}

CollectiveResult sim(const Topology& t, std::size_t g, Bytes n, std::size_t chunks = 1, ProtocolCosts costs = {},
                     std::size_t channels = 1) {
  CollectiveConfig c;
  c.tree_node_gpus = g;
  c.channels = channels;
  c.chunks = chunks;
  c.library = costs;
  c.verify = true;
  return simulate_collective(t, kAllReduce, A::kTree, n, c);
}

/// The closed form of the tree run; with `estimate`, NCCL's estimate of it.
double model_s(const Topology& t, std::size_t g, Bytes n, std::size_t chunks = 1, ProtocolCosts costs = {},
               std::size_t channels = 1, bool estimate = false) {
  ModelOptions o;
  o.tree_node_gpus = g;
  o.channels = channels;
  o.chunks = chunks;
  o.library = costs;
  o.estimate = estimate;
  return collective_cost(t, kAllReduce, A::kTree, n, o).time_s(0);
}

/// NCCL's estimate of its tree (ModelOptions::estimate) with nodes of g GPUs.
double estimate_s(const Topology& t, std::size_t g, Bytes n, std::size_t chunks, ProtocolCosts costs) {
  return model_s(t, g, n, chunks, costs, 1, true);
}

/// Costs of the hand-derived cases: 0.6 us a step inside a node (NCCL's Tree LL NVLink
/// hwLat), 1 us on PCIe, 5 us across nodes (its network one), efficiency 1.
const ProtocolCosts kStepCosts{0, {ps_from_ns(600), ps_from_us(1), ps_from_us(5)}, 1};

TEST(NcclTree, OneNodeIsAChainEachWay) {
  // 8 GPUs on a switch (a route is two 300 ns links): tree 0 reduces 7 -> 6 -> ... -> 0 and
  // broadcasts back, tree 1 the other way, each with n/2. At every step the two trees'
  // hops leave and enter different GPUs, so each costs alpha + (n/2) beta:
  //   2(G-1) (600 ns + 512 KiB x 20 ps) = 14 x 11,085,760 ps = 155.20064 us.
  const Topology node = cluster(0, 8);
  const CollectiveResult r = sim(node, 8, kMiB);
  EXPECT_EQ(r.time_ps, 14 * (ps_from_ns(600) + TimePs{kMiB / 2} * 20));
  EXPECT_EQ(r.verify_error, "");
  EXPECT_EQ(r.messages, 2u * 2 * 7);  // per tree 7 chain edges, each used up and down
  EXPECT_NEAR(model_s(node, 8, kMiB), seconds_from_ps(r.time_ps), 1e-15);
}

TEST(NcclTree, AcrossNodesAHeadSharesItsNicWithTwoChildNodes) {
  // 4 nodes x 4 GPUs, links without latency; costs: 0.6 us a step inside a node, 5 us across
  // (NCCL's Tree LL hwLat), efficiency 1. Tree 0: node 2 at the top (under the root node 0),
  // nodes 1 and 3 below it, joined at GPU 0; tree 1 the mirror, joined at GPU 3. One chunk:
  //   chains  2 x 3 (0.6 us + 512 KiB / 50 GB/s)
  //   across  up from nodes 1 and 3 into node 2's NIC at once, 5 us + 1 MiB / 25 GB/s; up
  //           to the root, 5 us + 512 KiB / 25 GB/s; down the same way:
  //           4 x 5 us + 3 x 1 MiB / 25 GB/s
  //   = 66.51456 + 20 + 125.82912 = 212.34368 us.
  const Topology four = cluster(4, 4, 0);
  const double expected = 6 * (0.6e-6 + kMiB / 2 / 50e9) + 4 * 5e-6 + 3 * kMiB / 25e9;
  const CollectiveResult r = sim(four, 4, kMiB, 1, kStepCosts);
  EXPECT_NEAR(seconds_from_ps(r.time_ps), expected, 1e-15);
  EXPECT_EQ(r.verify_error, "");
  EXPECT_NEAR(model_s(four, 4, kMiB, 1, kStepCosts), expected, 1e-15);
}

TEST(NcclTree, ATreePerChannelSpreadsTheNodesTrafficOverItsNics) {
  // 2 nodes x 4 GPUs, 4 channels: trees 0 and 2 in binary tree 0's shape with chains from
  // GPU 0 and GPU 1 going up, trees 1 and 3 in tree 1's with chains from GPU 3 and GPU 2
  // going down, n/4 each; links without latency, 0.6 us a step in a node, 5 us across.
  // Across the nodes each NIC carries one tree's quarter, 5 us + 256 KiB / 25 GB/s each way,
  // where two trees put a half on it. The closed form steps every tree's hops of a level at
  // once, and in every chain step some GPU sends two quarters:
  //   6 (0.6 us + 512 KiB / 50 GB/s) + 2 (5 us + 256 KiB / 25 GB/s) = 97.48608 us,
  // against 118.45760 us with two trees. The trees drift apart in the simulation and share
  // less; no tree can be faster than its own hops alone:
  //   6 (0.6 us + 256 KiB / 50 GB/s) + 2 (5 us + 256 KiB / 25 GB/s) = 66.01728 us.
  const Topology two = cluster(2, 4, 0);
  const double across = 2 * (5e-6 + kMiB / 4 / 25e9);
  const double model = model_s(two, 4, kMiB, 1, kStepCosts, 4);
  EXPECT_NEAR(model, 6 * (0.6e-6 + kMiB / 2 / 50e9) + across, 1e-15);
  EXPECT_NEAR(model_s(two, 4, kMiB, 1, kStepCosts, 2), 6 * (0.6e-6 + kMiB / 2 / 50e9) + 2 * (5e-6 + kMiB / 2 / 25e9),
              1e-15);
  const CollectiveResult r = sim(two, 4, kMiB, 1, kStepCosts, 4);
  EXPECT_EQ(r.verify_error, "");
  EXPECT_EQ(r.messages, 4u * 2 * 7);  // per tree 6 chain edges and 1 across, up and down
  EXPECT_LE(seconds_from_ps(r.time_ps), model);
  EXPECT_GE(seconds_from_ps(r.time_ps), 6 * (0.6e-6 + kMiB / 4 / 50e9) + across);
}

TEST(NcclTree, NcclsEstimateIsTheFillsLatencyAndTheSteadyRate) {
  // NCCL ranks its tree by latency + bytes / its rate (tuning.cc): the fill's latency with
  // none of its bytes, no latency per chunk. 4 nodes x 4 GPUs, 2 trees of n/2, links without
  // latency, 0.6 us a step in a node and 5 us across: 2 x 3 x 0.6 + 2 x 2 x 5 = 23.6 us, and
  // n at the busiest port with every edge busy: in tree 0 node 2's head takes both child
  // nodes' halves and its parent's (and sends as much), 1.5 n through a 25 GB/s NIC:
  //   23.6 us + 1.5 MiB / 25 GB/s = 86.51456 us,
  // where the run's form with one chunk pays every level's bytes (212.34368 us, above).
  const Topology four = cluster(4, 4, 0);
  for (const std::size_t chunks : {1u, 16u}) {  // the estimate has no chunks
    EXPECT_NEAR(estimate_s(four, 4, kMiB, chunks, kStepCosts), 23.6e-6 + 1.5 * kMiB / 25e9, 1e-15);
  }
}

TEST(NcclTree, ReproducesNcclsLatencyFormula) {
  // tuning.cc, Tree AllReduce: base + 2((G-1) intraLat + log2(N) interLat). Under the
  // built-in nccl's Tree LL row (6.8 us; 0.6 us NVLink, 5 us network), 0 bytes, links
  // without latency: one node of 8, 6.8 + 2 x 7 x 0.6 = 15.2 us; 2 nodes of 4,
  // 6.8 + 2 (3 x 0.6 + 5) = 20.4 us; 4 nodes of 4, 6.8 + 2 (3 x 0.6 + 2 x 5) = 30.4 us.
  const ProtocolCosts tree_ll =
      library_by_name("nccl", "--library").costs(kAllReduce, A::kTree, Protocol::kLL);
  const struct {
    std::uint32_t nodes, g;
    double us;
  } cases[] = {{0, 8, 15.2}, {2, 4, 20.4}, {4, 4, 30.4}};
  for (const auto& c : cases) {
    const Topology t = cluster(c.nodes, c.g, 0);
    EXPECT_NEAR(model_s(t, c.g, 0, 1, tree_ll), c.us * 1e-6, 1e-15) << c.nodes << " x " << c.g;
    EXPECT_NEAR(seconds_from_ps(sim(t, c.g, 0, 1, tree_ll).time_ps), c.us * 1e-6, 1e-15) << c.nodes << " x " << c.g;
  }
}

TEST(NcclTree, HeadsJoinTheNodesDifferentlyInEachTree) {
  // 2 nodes x 4: tree 0's root is rank 0 (node 0's GPU 0), receiving from rank 1 (its chain)
  // and rank 4 (node 1's GPU 0); tree 1's root is node 1's GPU 3, rank 7, receiving from
  // rank 6 and node 0's GPU 3, rank 3. A chain's last GPU only sends up and receives down.
  const auto schedule = make_tree_schedule(kAllReduce, 8, 0, 4);
  const auto first_receives = [&](Rank r, std::size_t tree) {
    StepSpec spec;
    schedule->step(r, tree, 0, spec);
    return spec.recvs();
  };
  EXPECT_EQ(first_receives(0, 0), (std::vector<Rank>{1, 4}));
  EXPECT_EQ(schedule->steps(0, 0), 2u);
  EXPECT_EQ(first_receives(7, 1), (std::vector<Rank>{6, 3}));
  EXPECT_EQ(schedule->steps(7, 1), 2u);
  EXPECT_EQ(schedule->steps(3, 0), 2u);  // node 0's chain ends at GPU 3 in tree 0
  EXPECT_EQ(first_receives(3, 0), (std::vector<Rank>{}));
}

TEST(NcclTree, EveryLayoutLeavesEveryRankTheSum) {
  for (const auto& [nodes, g] : {std::pair{0u, 2u}, {0u, 5u}, {2u, 3u}, {3u, 4u}, {5u, 2u}, {7u, 3u}, {16u, 1u}}) {
    const Topology t = cluster(nodes, g);
    for (const std::size_t chunks : {1u, 3u}) {
      for (const std::size_t channels : {1u, 3u, 8u}) {
        EXPECT_EQ(sim(t, g, 3 * kMiB + 7, chunks, {}, channels).verify_error, "")
            << nodes << " x " << g << ", " << chunks << " chunks, " << channels << " channels";
      }
    }
  }
}

TEST(NcclTree, ClosedFormFollowsThePipeline) {
  // With C chunks the closed form charges the fill at each hop's own rate and C - 1 cycles
  // with every edge busy; the simulator overlaps fill and drain more. With the layouts a
  // library runs (two trees on one node, a tree per GPU on a cluster) and the nccl
  // choice's range of chunks it stays within 20% of the simulation.
  for (const auto& [nodes, g] : {std::pair{0u, 8u}, {2u, 4u}, {4u, 4u}, {16u, 8u}, {4u, 8u}, {3u, 6u}}) {
    const Topology t = cluster(nodes, g);
    for (const std::size_t chunks : {1u, 4u, 16u, 64u}) {
      for (const std::size_t channels : {std::size_t{1}, std::size_t{nodes == 0 ? 1 : g}}) {
        const double s = seconds_from_ps(sim(t, g, 64 * kMiB, chunks, {}, channels).time_ps);
        EXPECT_NEAR(s / model_s(t, g, 64 * kMiB, chunks, {}, channels), 1.0, 0.2)
            << nodes << " x " << g << ", " << chunks << " chunks, " << channels << " channels";
      }
    }
  }
}

TEST(NcclTree, ItsProtocolIsRankedByNcclsEstimateAsTheAlgorithmsAre) {
  // 4 nodes x 1 GPU (NodesOfOneGpuRunNcclsTreesOfNodes), links without latency, no step
  // latency; LL free at half the wire, Simple 200 us a call at all of it; NCCL's Tree
  // correction is 0.5 for both at 1 MiB (nccl_tree_correction). NCCL's estimate moves 2n at
  // the busiest NIC, over the correction:
  //   LL 2 MiB / (0.5 x 25 GB/s) / 0.5 = 335.54 us; Simple 200 + 2 MiB / 25 GB/s / 0.5 = 367.77 us
  // so NCCL runs LL. The run's form with one chunk moves 3n (the fill): ranked by it, with the
  // same correction, LL would be 503.32 us and Simple 451.66, and Simple would run.
  ASSERT_EQ(nccl_tree_correction(Protocol::kLL, kMiB), 0.5);
  ASSERT_EQ(nccl_tree_correction(Protocol::kSimple, kMiB), 0.5);
  LibraryProfile profile;
  profile.name = "two";
  profile.protocols = {{Protocol::kLL, {0, {0, 0, 0}, 0.5}}, {Protocol::kSimple, {ps_from_us(200), {0, 0, 0}, 1.0}}};
  ModelOptions o;
  o.tree_node_gpus = 1;
  o.channels = 2;
  const Topology four = cluster(4, 1, 0);
  EXPECT_NEAR(estimate_s(four, 1, kMiB, 1, profile.costs(Protocol::kLL)), 2.0 * kMiB / 12.5e9, 1e-15);
  EXPECT_NEAR(estimate_s(four, 1, kMiB, 1, profile.costs(Protocol::kSimple)), 200e-6 + 2.0 * kMiB / 25e9, 1e-15);
  EXPECT_NEAR(model_s(four, 1, kMiB, 1, profile.costs(Protocol::kLL)), 3.0 * kMiB / 12.5e9, 1e-15);
  EXPECT_EQ(fastest_protocol(four, kAllReduce, A::kTree, kMiB, o, profile), Protocol::kLL);
  EXPECT_EQ(nccl_choice(four, kAllReduce, kMiB, o, profile).protocol, Protocol::kLL);
}

TEST(NcclTree, APipelineCycleIsItsSlowestMessageOnItsOwnRoute) {
  // 2 nodes x 4 GPUs, 4 trees, links without latency, 0.6 us a step on NVLink and 5 us across
  // (kStepCosts); 64 MiB in 256 chunks a tree: 64 KiB a hop. A cycle moves a chunk over every
  // edge of every tree both ways at once. GPU 1 of a node sends 7 of them through its NVLink
  // port (to GPU 0 and GPU 2 in its four chains) and one through its NIC (tree 2's head,
  // down across), and each message ends at its own latency and its own route's busiest link:
  //   NVLink: 0.6 us + 7 x 64 KiB / 50 GB/s = 9.77504 us;  network: 5 us + 64 KiB / 25 GB/s = 7.62144 us
  // so a cycle is 9.77504 us. Bounding the network message by all GPU 1 injects (8 chunks
  // over its 75 GB/s of NVLink and NIC) would make it 5 + 6.99 = 11.99 us, though its NIC
  // carries it alone.
  const Topology two = cluster(2, 4, 0);
  ModelOptions o;
  o.tree_node_gpus = 4;
  o.channels = 4;
  o.chunks = 256;
  o.library = kStepCosts;
  const CollectiveCost cost = collective_cost(two, kAllReduce, A::kTree, 64 * kMiB, o);
  const auto pipeline =
      std::find_if(cost.terms.begin(), cost.terms.end(), [](const CostTerm& t) { return t.label == "pipeline"; });
  ASSERT_NE(pipeline, cost.terms.end());
  EXPECT_EQ(pipeline->alpha_count, 255);
  EXPECT_NEAR(pipeline->alpha_s, 0.6e-6, 1e-15);
  EXPECT_NEAR(pipeline->time_s(0), 255 * (0.6e-6 + 7 * 65536 / 50e9), 1e-12);
}

TEST(NcclTree, NodesMustDivideTheRanks) {
  EXPECT_THROW(make_tree_schedule(kAllReduce, 10, 0, 4), InputError);
  EXPECT_THROW(model_s(cluster(0, 10), 4, kMiB), InputError);
}

TEST(NcclTree, ALibraryChainsEachNodeAndIdealKeepsTheTreeOfAllRanks) {
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  const LibraryProfile ideal = library_by_name("ideal", "--library");
  EXPECT_EQ(default_tree_node_gpus(cluster(2, 4), nccl), 4u);
  EXPECT_EQ(default_tree_node_gpus(cluster(0, 8), nccl), 8u);
  EXPECT_EQ(default_tree_node_gpus(cluster(4, 1), nccl), 1u);  // NCCL's trees of nodes
  EXPECT_EQ(default_tree_node_gpus(cluster(2, 4), ideal), 0u);
}

TEST(NcclTree, GloosOneThreadRunsOneRingOrTreeOfAllRanks) {
  // Gloo drives each collective from one host thread a process (topology/library.cpp): no
  // rings at once through a node's GPUs, no trees chained through nodes, as under ideal.
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  const LibraryProfile gloo = library_by_name("gloo", "--library");
  EXPECT_EQ(default_channels(cluster(2, 4), nccl), 4u);
  EXPECT_EQ(default_channels(cluster(2, 4), gloo), 1u);
  EXPECT_EQ(default_tree_node_gpus(cluster(2, 4), gloo), 0u);
}

TEST(NcclTree, NodesOfOneGpuRunNcclsTreesOfNodes) {
  // 4 nodes x 1 GPU, links without latency, 5 us a step across nodes, efficiency 1, 2 trees
  // of n/2. Tree 0: node 0 at the top, node 2 under it, nodes 1 and 3 under node 2; tree 1
  // its mirror (node 1 under node 3, nodes 0 and 2 under node 1).
  //   NCCL's estimate: 2 x 2 levels x 5 us, and n at the busiest NIC with every edge busy
  //     (node 2 takes n/2 from each child and from its parent in tree 0, n/2 from its parent
  //     in tree 1): 20 us + 2 MiB / 25 GB/s = 103.88608 us at 1 MiB.
  //   C chunks of n/(2C) a tree: the fill climbs into node 2 (both children at once: n/C
  //     through its NIC) and node 1 of tree 1 at once, then one n/(2C) hop up and the same
  //     down, 4 x 5 us + 3 n / (C x 25 GB/s); then C - 1 cycles of 5 us + 2 n / (C x 25 GB/s).
  //     One chunk: 20 us + 3 x 64 MiB / 25 GB/s = 8073.06 us; 16: 5631.48 us. The simulator
  //     runs the same.
  const Topology four = cluster(4, 1, 0);
  EXPECT_NEAR(estimate_s(four, 1, kMiB, 1, kStepCosts), 20e-6 + 2.0 * kMiB / 25e9, 1e-15);
  const double n = 64.0 * kMiB;
  for (const double chunks : {1.0, 16.0}) {
    const double expected = 20e-6 + 3 * n / (chunks * 25e9) + (chunks - 1) * (5e-6 + 2 * n / (chunks * 25e9));
    const auto c = static_cast<std::size_t>(chunks);
    EXPECT_NEAR(model_s(four, 1, 64 * kMiB, c, kStepCosts, 2), expected, 1e-12) << chunks << " chunks";
    const CollectiveResult r = sim(four, 1, 64 * kMiB, c, kStepCosts, 2);
    EXPECT_EQ(r.verify_error, "");
    EXPECT_NEAR(seconds_from_ps(r.time_ps), expected, 1e-11) << chunks << " chunks";
  }
}

}  // namespace
}  // namespace commsim
