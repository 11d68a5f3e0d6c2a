// The simulator against the independent closed form: equal (within 1e-6) wherever the
// formula's assumptions hold; slower, by hand-derived amounts, where a mapping or the
// topology creates contention the formula cannot see; never faster than the lower bound.

#include <gtest/gtest.h>

#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;
const LinkParams kLink{50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull};

struct ExactCase {
  TopologyConfig topology;
  std::vector<AlgorithmKind> algorithms;
  std::string label;
};

TopologyConfig config(TopologyKind kind, std::uint32_t npus) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.link = kLink;
  c.nic = {25e9, ps_from_us(1), LinkKind::kInfiniband, Duplex::kFull};
  return c;
}

// Where each algorithm's formula holds exactly: ring on a ring in rank order, direct on a
// fully-connected fabric or a switch, trees and recursive algorithms on a non-blocking
// switch, hierarchical on hierarchical, dimensional on a torus.
std::vector<ExactCase> exact_cases() {
  using A = AlgorithmKind;
  std::vector<ExactCase> cases;
  for (const std::uint32_t p : {2u, 3u, 5u, 8u, 16u}) {
    cases.push_back({config(TopologyKind::kRing, p), {A::kRing, A::kRingBidir}, "ring"});
    cases.push_back({config(TopologyKind::kFullyConnected, p), {A::kDirect}, "fully-connected"});
    cases.push_back({config(TopologyKind::kSwitch, p),
                      {A::kDirect, A::kPairwise, A::kBruck, A::kRecursiveDoubling,
                       A::kRecursiveHalving, A::kRabenseifner, A::kDissemination},
                      "switch"});
  }
  for (const std::uint32_t p : {2u, 4u, 8u, 16u}) {
    ExactCase s{config(TopologyKind::kSwitch, p), {A::kTree}, "switch"};
    cases.push_back(s);
  }
  for (const auto& [nodes, gpus] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 4}, {3, 2}, {4, 8}}) {
    TopologyConfig c = config(TopologyKind::kHierarchical, 0);
    c.nodes = nodes;
    c.gpus_per_node = gpus;
    cases.push_back({c, {A::kHierarchical}, "hierarchical"});
  }
  for (const auto& dims : std::vector<std::vector<std::uint32_t>>{{4, 4}, {3, 5}, {4, 3, 3}}) {
    TopologyConfig c = config(TopologyKind::kTorus, 0);
    c.dims = dims;
    cases.push_back({c, {A::kDimensional}, "torus"});
  }
  return cases;
}

TEST(ModelAgreement, SimulatorEqualsClosedFormWhereItsAssumptionsHold) {
  for (const ExactCase& exact : exact_cases()) {
    const Topology t = build_topology(exact.topology);
    const std::size_t p = t.npu_count();
    for (const AlgorithmKind a : exact.algorithms) {
      for (const CollectiveKind kind : all_collectives()) {
        if (inapplicable_reason(kind, a, t)) continue;
        // The double binary tree has no exact closed form (see its model).
        if (a == AlgorithmKind::kTree && kind == CollectiveKind::kAllReduce) continue;
        for (const Bytes requested : {p * 4096, 64 * kMiB}) {
          const Bytes size = nccl_size(kind, requested / (p * 4) * (p * 4), p);
          SCOPED_TRACE(t.name() + " " + std::string(algorithm_name(a)) + " " +
                       std::string(collective_name(kind)) + " " + std::to_string(size) + " B");
          const double sim = seconds_from_ps(simulate_collective(t, kind, a, size, {}).time_ps);
          const double model = collective_cost(t, kind, a, size, {}).time_s(0);
          EXPECT_NEAR(sim / model, 1.0, 1e-6) << "sim " << sim << " s, model " << model << " s";
        }
      }
    }
  }
}

TEST(ModelAgreement, ChunksPipelineTheRingAndTheChain) {
  // C chunks add C - 1 alpha terms to a ring and turn a chain into a pipeline:
  // (p - 2 + C)(alpha + n/C beta).
  const Topology ring = build_topology(config(TopologyKind::kRing, 8));
  ModelOptions model;
  model.chunks = 4;
  CollectiveConfig sim;
  sim.chunks = 4;
  for (const CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    const double s = seconds_from_ps(simulate_collective(ring, kind, AlgorithmKind::kRing, 32 * kMiB, sim).time_ps);
    EXPECT_NEAR(s / collective_cost(ring, kind, AlgorithmKind::kRing, 32 * kMiB, model).time_s(0), 1.0, 1e-6);
  }
  // Chain broadcast, 8 ranks, 4 chunks of 8 MiB: (8 - 2 + 4) hops of 300 ns + 8 MiB x 20 ps.
  EXPECT_EQ(simulate_collective(ring, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 32 * kMiB, sim).time_ps,
            10 * (ps_from_ns(300) + 8 * kMiB * 20));
}

TEST(ModelAgreement, PoorRankOrderOnALineHalvesTheRing) {
  // A line of 4 NPUs (a 1-D mesh), no latency, 50 GB/s. In rank order the ring's three
  // forward messages use the forward channels and the wrap-around message 3 -> 0 the
  // backward ones: no sharing, exactly the formula 2(p-1)/p n beta = 1.5 n beta.
  // Ranks on NPUs [0, 2, 1, 3]: the ring 0->1->2->3->0 becomes NPU 0->2, 2->1, 1->3, 3->0;
  // channel 1->2 carries 0->2 and 1->3, channel 2->1 carries 2->1 and 3->0, so every flow
  // runs at half rate and every step takes twice as long: 3 n beta.
  TopologyConfig c = config(TopologyKind::kMesh, 0);
  c.dims = {4};
  c.link.latency_ps = 0;
  const Topology line = build_topology(c);
  const Bytes n = 16 * kMiB;
  const TimePs in_order = simulate_collective(line, CollectiveKind::kAllReduce, AlgorithmKind::kRing, n, {}).time_ps;
  EXPECT_EQ(in_order, 3 * n / 2 * 20);
  CollectiveConfig shuffled;
  shuffled.npu_of_rank = {0, 2, 1, 3};
  EXPECT_EQ(simulate_collective(line, CollectiveKind::kAllReduce, AlgorithmKind::kRing, n, shuffled).time_ps,
            3 * n * 20);
  EXPECT_NEAR(collective_cost(line, CollectiveKind::kAllReduce, AlgorithmKind::kRing, n, {}).time_s(0),
              seconds_from_ps(in_order), 1e-12);
}

TEST(ModelAgreement, RandomRankOrderOnAMeshIsSlowerThanTheFormula) {
  TopologyConfig c = config(TopologyKind::kMesh, 0);
  c.dims = {4, 4};
  const Topology mesh = build_topology(c);
  CollectiveConfig random;
  random.npu_of_rank = {9, 2, 14, 5, 0, 11, 7, 12, 3, 15, 6, 1, 13, 8, 4, 10};
  const double sim = seconds_from_ps(
      simulate_collective(mesh, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 64 * kMiB, random).time_ps);
  const double model = collective_cost(mesh, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 64 * kMiB, {}).time_s(0);
  EXPECT_GT(sim, 1.5 * model);
}

TEST(ModelAgreement, AllToAllOverAnOversubscribedTreeIsLimitedByTheUplinks) {
  // 16 NPUs under 4 leaf switches (arity 4), 50 GB/s, no latency, oversubscription 4: each
  // leaf's uplink carries 4 x 50 / 4 = 50 GB/s. Direct AllToAll of n = 16 MiB: 1 MiB to
  // each of 15 peers. Each leaf sends 4 NPUs x 12 remote peers = 48 flows up one 50 GB/s
  // uplink (and 48 come down each root-to-leaf link): B/48 each. Each NPU's own link then
  // has 50 - 12 B/48 = 3B/4 left for its 3 local flows, B/4 each. The local flows finish at
  // 1 MiB / (B/4); the remote ones stay at B/48 (the uplink is still full): 1 MiB / (B/48)
  // = 48 MiB x 20 ps. The closed form sees only each NPU's link: 15 MiB x 20 ps.
  TopologyConfig c = config(TopologyKind::kTree, 16);
  c.arity = 4;
  c.oversubscription = {4};
  c.link.latency_ps = 0;
  const Topology tree = build_topology(c);
  const Bytes n = 16 * kMiB;
  EXPECT_EQ(simulate_collective(tree, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, n, {}).time_ps,
            48 * kMiB * 20);
  EXPECT_NEAR(collective_cost(tree, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, n, {}).time_s(0),
              seconds_from_ps(15 * kMiB * 20), 1e-12);
}

TEST(ModelAgreement, AllToAllOnAClusterIsBoundByItsNics) {
  // 2 nodes x 2 GPUs, NVLink 50 GB/s and 300 ns, NICs 25 GB/s and 1 us. Direct AllToAll of
  // n = 64 MiB: 16 MiB to each of 3 peers, two of them in the other node. Their 32 MiB leave
  // through one NIC, the GPU's own (one network switch) or, rail-optimised, the node's GPU on
  // the peer's rail (NCCL's PXN: the peer of the other rail is reached over NVLink and its
  // GPU's NIC, which carries its own 16 MiB beside it): 32 MiB / 25 GB/s = 1342.17728 us,
  // after the longest route's latency, 2 NIC hops (2 us) or with PXN 2 NVLink hops more
  // (2.6 us). The closed form sees the NIC as the simulation does; by the per-peer and
  // per-rank bounds alone it said 16 MiB / 25 GB/s.
  for (const bool rails : {false, true}) {
    SCOPED_TRACE(rails ? "rails" : "one network switch");
    TopologyConfig c = config(TopologyKind::kHierarchical, 0);
    c.nodes = 2;
    c.gpus_per_node = 2;
    c.rails = rails;
    const Topology t = build_topology(c);
    const Bytes n = 64 * kMiB;
    const double expected_us = (rails ? 2.6 : 2.0) + 32.0 * kMiB / 25e9 * 1e6;
    EXPECT_NEAR(us_from_ps(simulate_collective(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, n, {}).time_ps),
                expected_us, 1e-6);
    EXPECT_NEAR(collective_cost(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, n, {}).time_s(0) * 1e6,
                expected_us, 1e-6);
  }
}

TEST(ModelAgreement, AStepOfSeveralLatenciesEndsWithItsSlowestMessage) {
  // Ring AllGather over 2 nodes x 4 GPUs (NVLink 50 GB/s, 2 x 300 ns a route through the
  // node's switch; NICs 25 GB/s, 2 x 1 us), under a library whose NVLink step of 2 us waits
  // once per loop of 4 loops (8 us) and whose network step of 1 us does not: each of the 7
  // steps moves n/8, and ends when its slowest message arrives,
  //   max(0.6 + 8 us + n/8 / 50 GB/s, 2 + 1 us + n/8 / 25 GB/s).
  // 64 KiB: the NVLink hops, 7 x (8.6 + 0.16384) us; 64 MiB: the network hops, 7 x (3 +
  // 335.54432) us. (The largest latency with the slowest bytes would give 7 x (8.6 + 0.32768)
  // and 7 x (8.6 + 335.54432) us, 1.9% and 1.7% above what runs.)
  TopologyConfig c = config(TopologyKind::kHierarchical, 0);
  c.nodes = 2;
  c.gpus_per_node = 4;
  const Topology t = build_topology(c);
  ProtocolCosts library;
  library.step_latency_ps = {ps_from_us(2), 0, ps_from_us(1)};
  library.loops = 4;
  CollectiveConfig run;
  run.library = library;
  ModelOptions model;
  model.library = library;
  for (const auto& [n, expected_us] :
       {std::pair{64 * Bytes{1024}, 7 * (8.6 + 0.16384)}, {64 * kMiB, 7 * (3 + 335.54432)}}) {
    SCOPED_TRACE(n);
    EXPECT_NEAR(us_from_ps(simulate_collective(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, run).time_ps),
                expected_us, 1e-6);
    EXPECT_NEAR(collective_cost(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, model).time_s(0) * 1e6,
                expected_us, 1e-6);
  }
}

TEST(ModelAgreement, AHalfDuplexLinkCarriesBothWaysOnOneCapacity) {
  // Two GPUs on a switch by half-duplex links of 100 GB/s that keep half their bandwidth
  // while both directions move (as through host memory). Ring AllGather of n: each GPU sends
  // n/2 to the other at once, so each link carries n/2 each way on 50 GB/s: n x 20 ps. A
  // Broadcast moves n one way: n x 10 ps. The closed form sees the link as the simulator does.
  TopologyConfig c = config(TopologyKind::kSwitch, 2);
  c.link = {100e9, 0, LinkKind::kPcie, Duplex::kHalf, 0.5};
  const Topology t = build_topology(c);
  const Bytes n = 32 * kMiB;
  for (const auto& [kind, ps_per_byte] : {std::pair{CollectiveKind::kAllGather, 20},
                                          {CollectiveKind::kAllReduce, 40},
                                          {CollectiveKind::kBroadcast, 10}}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    EXPECT_EQ(simulate_collective(t, kind, AlgorithmKind::kRing, n, {}).time_ps, n * ps_per_byte);
    EXPECT_NEAR(collective_cost(t, kind, AlgorithmKind::kRing, n, {}).time_s(0), seconds_from_ps(n * ps_per_byte),
                1e-15);
  }
}

TEST(ModelAgreement, NothingBeatsTheLowerBound) {
  std::vector<TopologyConfig> topologies{config(TopologyKind::kSwitch, 8), config(TopologyKind::kRing, 6),
                                         config(TopologyKind::kFullyConnected, 5)};
  TopologyConfig hier = config(TopologyKind::kHierarchical, 0);
  hier.gpus_per_node = 4;
  topologies.push_back(hier);
  TopologyConfig torus = config(TopologyKind::kTorus, 0);
  torus.dims = {3, 4};
  topologies.push_back(torus);
  for (const TopologyConfig& tc : topologies) {
    const Topology t = build_topology(tc);
    for (const double gamma : {0.0, 2e-12}) {
      ModelOptions model;
      model.gamma_s_per_byte = gamma;
      CollectiveConfig sim;
      sim.gamma_s_per_byte = gamma;
      for (const CollectiveKind kind : all_collectives()) {
        const Bytes size = nccl_size(kind, 8 * kMiB, t.npu_count());
        const double bound = collective_lower_bound_s(t, kind, size, model);
        for (const AlgorithmKind a : applicable_algorithms(kind, t)) {
          SCOPED_TRACE(t.name() + " " + std::string(algorithm_name(a)) + " " +
                       std::string(collective_name(kind)) + " gamma " + std::to_string(gamma));
          EXPECT_GE(seconds_from_ps(simulate_collective(t, kind, a, size, sim).time_ps), bound * (1 - 1e-9));
        }
      }
    }
  }
}

}  // namespace
}  // namespace commsim
