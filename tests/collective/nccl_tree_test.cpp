// NCCL's tree AllReduce with nodes of G GPUs (collective/tree.h, model/algorithm_plans.cpp
// nccl_tree): a chain through each node, the double binary tree across nodes. Hand-derived
// times on idle networks, NCCL's latency formula, the layout, the data it leaves, and the
// closed form's exactness once chunks pipeline. Every tree moves at its channel's fixed
// rate (collective/channel_rates.h): an edge's message, up or down, at its share of each link
// it crosses with every edge of every tree busy both ways.
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
                     std::size_t channels = 1, double gamma = 0) {
  CollectiveConfig c;
  c.tree_node_gpus = g;
  c.channels = channels;
  c.chunks = chunks;
  c.library = costs;
  c.gamma_s_per_byte = gamma;
  c.verify = true;
  return simulate_collective(t, kAllReduce, A::kTree, n, c);
}

/// The closed form of the tree run; with `estimate`, NCCL's estimate of it.
double model_s(const Topology& t, std::size_t g, Bytes n, std::size_t chunks = 1, ProtocolCosts costs = {},
               std::size_t channels = 1, bool estimate = false, double gamma = 0) {
  ModelOptions o;
  o.tree_node_gpus = g;
  o.channels = channels;
  o.chunks = chunks;
  o.library = costs;
  o.estimate = estimate;
  o.gamma_s_per_byte = gamma;
  return collective_cost(t, kAllReduce, A::kTree, n, o).time_s(gamma);
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
  // broadcasts back, tree 1 the other way, each with n/2. Each GPU but the chains' ends
  // sends four of the trees' messages through its port (up and down in each tree) and
  // receives four, and every edge has such a GPU at one end: each message moves at a quarter
  // of 50 GB/s, 80 ps a byte, up 7 hops and down 7:
  //   2(G-1) (600 ns + 512 KiB x 80 ps) = 14 x 42,543,040 ps = 595.60256 us.
  const Topology node = cluster(0, 8);
  const CollectiveResult r = sim(node, 8, kMiB);
  EXPECT_EQ(r.time_ps, 14 * (ps_from_ns(600) + TimePs{kMiB / 2} * 80));
  EXPECT_EQ(r.verify_error, "");
  EXPECT_EQ(r.messages, 2u * 2 * 7);  // per tree 7 chain edges, each used up and down
  EXPECT_NEAR(model_s(node, 8, kMiB), seconds_from_ps(r.time_ps), 1e-15);
}

TEST(NcclTree, AcrossNodesAHeadSharesItsNicWithTwoChildNodes) {
  // 4 nodes x 4 GPUs, links without latency; costs: 0.6 us a step inside a node, 5 us across
  // (NCCL's Tree LL hwLat), efficiency 1. Tree 0: node 2 at the top (under the root node 0),
  // nodes 1 and 3 below it, joined at GPU 0; tree 1 the mirror, joined at GPU 3. One chunk,
  // n/2 a tree:
  //   chains  GPUs 1 and 2 of a node are inside both chains: four messages through each
  //           one's NVLink port each way, so every chain hop moves at 50/4 GB/s:
  //           3 hops up, 3 down, 2 x 3 (0.6 us + 512 KiB / 12.5 GB/s)
  //   across  node 2's head talks to node 0 and to nodes 1 and 3 through its NIC, three
  //           messages each way, so every hop of tree 0 across nodes moves at 25/3 GB/s:
  //           from node 1 or 3 up 2 hops and down 2, 4 (5 us + 512 KiB / 8.33 GB/s)
  //   = 255.25824 + 271.65824 = 526.91648 us.
  const Topology four = cluster(4, 4, 0);
  const double expected = 6 * (0.6e-6 + kMiB / 2 / 12.5e9) + 4 * (5e-6 + 3 * kMiB / 2 / 25e9);
  const CollectiveResult r = sim(four, 4, kMiB, 1, kStepCosts);
  EXPECT_NEAR(seconds_from_ps(r.time_ps), expected, 1e-15);
  EXPECT_EQ(r.verify_error, "");
  EXPECT_NEAR(model_s(four, 4, kMiB, 1, kStepCosts), expected, 1e-15);
}

TEST(NcclTree, ATreePerChannelSpreadsTheNodesTrafficOverItsNics) {
  // 2 nodes x 4 GPUs, 4 channels: trees 0 and 2 in binary tree 0's shape with chains 0-1-2-3
  // and 1-2-3-0 (head first), trees 1 and 3 in tree 1's with chains 3-2-1-0 and 2-1-0-3, n/4
  // each; links without latency, 0.6 us a step in a node, 5 us across. Across the nodes each
  // NIC carries one tree's quarter each way, 5 us + 256 KiB / 25 GB/s. GPUs 1 and 2 are inside
  // three chains and the head of the fourth: seven messages through their NVLink ports each
  // way, and tree 0's chain hops all touch one, 0.6 us + 256 KiB / (50/7 GB/s). Tree 0 (or 1)
  // climbs 3 chain hops and one across, and descends as many:
  //   6 (0.6 us + 7 x 256 KiB / 50 GB/s) + 2 (5 us + 256 KiB / 25 GB/s) = 254.77248 us,
  // against 307.20128 us with two trees, whose heads use two NICs of the four, each with a
  // half: 6 (0.6 us + 4 x 512 KiB / 50 GB/s) + 2 (5 us + 512 KiB / 25 GB/s).
  const Topology two = cluster(2, 4, 0);
  const double four_trees = 6 * (0.6e-6 + 7 * kMiB / 4 / 50e9) + 2 * (5e-6 + kMiB / 4 / 25e9);
  EXPECT_NEAR(model_s(two, 4, kMiB, 1, kStepCosts, 4), four_trees, 1e-15);
  EXPECT_NEAR(model_s(two, 4, kMiB, 1, kStepCosts, 2),
              6 * (0.6e-6 + 4 * kMiB / 2 / 50e9) + 2 * (5e-6 + kMiB / 2 / 25e9), 1e-15);
  const CollectiveResult r = sim(two, 4, kMiB, 1, kStepCosts, 4);
  EXPECT_EQ(r.verify_error, "");
  EXPECT_EQ(r.messages, 4u * 2 * 7);  // per tree 6 chain edges and 1 across, up and down
  EXPECT_NEAR(seconds_from_ps(r.time_ps), four_trees, 1e-12);
}

TEST(NcclTree, NcclsEstimateIsTheFillsLatencyAndTheSteadyRate) {
  // NCCL ranks its tree by latency + bytes / its rate (tuning.cc): the fill's latency with
  // none of its bytes, no latency per chunk. 4 nodes x 4 GPUs, 2 trees of n/2, links without
  // latency, 0.6 us a step in a node and 5 us across: 2 x 3 x 0.6 + 2 x 2 x 5 = 23.6 us, and
  // n at the busiest port with every edge busy: in tree 0 node 2's head takes both child
  // nodes' halves and its parent's (and sends as much), 1.5 n through a 25 GB/s NIC:
  //   23.6 us + 1.5 MiB / 25 GB/s = 86.51456 us,
  // where the run with one chunk pays every hop's bytes (526.91648 us, above).
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

TEST(NcclTree, ClosedFormIsTheRunExactly) {
  // Every tree at its channel's fixed rate, each edge's message takes a fixed time, and the
  // closed form is the run's max-plus recursion solved (collective_model.cpp,
  // evaluate_trees): exact for every layout, chunk count and tree count, with the nodes'
  // latencies, NCCL's step costs and a reduction time. Efficiency 0.8 makes every share of a
  // link whole picoseconds a byte (k x 25 ps on NVLink, k x 50 ps on a NIC), and 48 MiB is
  // whole chunks of every tree count here, so the clock rounds nothing: 1e-9.
  const ProtocolCosts costs{ps_from_us(3), {ps_from_ns(600), ps_from_us(1), ps_from_us(5)}, 0.8};
  for (const auto& [nodes, g] : {std::pair{0u, 8u}, {2u, 4u}, {4u, 4u}, {16u, 8u}, {4u, 8u}, {3u, 6u}, {5u, 1u}}) {
    const Topology t = cluster(nodes, g);
    for (const std::size_t chunks : {1u, 4u, 16u, 64u}) {
      for (const std::size_t channels : {std::size_t{1}, std::size_t{nodes == 0 ? 1 : g}}) {
        for (const double gamma : {0.0, 1e-11}) {
          const CollectiveResult r = sim(t, g, 48 * kMiB, chunks, costs, channels, gamma);
          EXPECT_EQ(r.verify_error, "");
          const double m = model_s(t, g, 48 * kMiB, chunks, costs, channels, false, gamma);
          EXPECT_NEAR(seconds_from_ps(r.time_ps) / m, 1.0, 1e-9)
              << nodes << " x " << g << ", " << chunks << " chunks, " << channels << " channels, gamma " << gamma;
        }
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
  // so NCCL runs LL. The run with one chunk climbs 2 hops and descends 2, each n/2 at a
  // quarter of a NIC (NodesOfOneGpuRunNcclsTreesOfNodes), 8n at the NIC's rate: ranked by it,
  // with the same correction, LL would be 1342.18 us and Simple 871.09, and Simple would run.
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
  EXPECT_NEAR(model_s(four, 1, kMiB, 1, profile.costs(Protocol::kLL)), 8.0 * kMiB / 12.5e9, 1e-15);
  EXPECT_EQ(fastest_protocol(four, kAllReduce, A::kTree, kMiB, o, profile), Protocol::kLL);
  EXPECT_EQ(nccl_choice(four, kAllReduce, kMiB, o, profile).protocol, Protocol::kLL);
}

TEST(NcclTree, APipelineCycleIsItsSlowestMessageOnItsOwnRoute) {
  // 2 nodes x 4 GPUs, 4 trees, links without latency, 0.6 us a step on NVLink and 5 us across
  // (kStepCosts); 64 MiB in 256 chunks a tree: 64 KiB a hop. The chunks before the last pass
  // the slowest stage beside its path once each. GPU 1 of a node sends 7 of the trees'
  // messages through its NVLink port (to GPU 0 and GPU 2 in its four chains) and one through
  // its NIC (tree 2's head, down across), each at its share of its own route's links:
  //   NVLink: 0.6 us + 7 x 64 KiB / 50 GB/s = 9.77504 us;  network: 5 us + 64 KiB / 25 GB/s = 7.62144 us
  // so a stage is 9.77504 us. Bounding the network message by all GPU 1 injects (8 chunks
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
  //   C chunks of n/(2C) a tree: nodes 1 and 2 send four messages each way through their
  //     NICs (three in one tree, one in the other) and every edge touches one, so every hop
  //     moves at 25/4 GB/s, tau = 5 us + 4 n / (2C x 25 GB/s). The last chunk climbs 2 hops and
  //     descends 2, and the C - 1 before it pass a hop once each: (C + 3) tau.
  //     One chunk: 4 x (5 us + 2 x 64 MiB / 25 GB/s) = 21494.85 us; 16: 6470.36 us. The
  //     simulator runs the same.
  const Topology four = cluster(4, 1, 0);
  EXPECT_NEAR(estimate_s(four, 1, kMiB, 1, kStepCosts), 20e-6 + 2.0 * kMiB / 25e9, 1e-15);
  const double n = 64.0 * kMiB;
  for (const double chunks : {1.0, 16.0}) {
    const double expected = (chunks + 3) * (5e-6 + 4 * n / (2 * chunks * 25e9));
    const auto c = static_cast<std::size_t>(chunks);
    EXPECT_NEAR(model_s(four, 1, 64 * kMiB, c, kStepCosts, 2), expected, 1e-12) << chunks << " chunks";
    const CollectiveResult r = sim(four, 1, 64 * kMiB, c, kStepCosts, 2);
    EXPECT_EQ(r.verify_error, "");
    EXPECT_NEAR(seconds_from_ps(r.time_ps), expected, 1e-11) << chunks << " chunks";
  }
}

}  // namespace
}  // namespace commsim
