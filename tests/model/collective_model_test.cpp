#include "model/collective_model.h"

#include <gtest/gtest.h>

#include <limits>

#include "base/error.h"
#include "model/p2p_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr double kMiB = 1 << 20;

Topology make(TopologyKind kind, std::uint32_t npus, double bandwidth_Bps,
              std::int64_t latency_ns) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.link = LinkParams{bandwidth_Bps, ps_from_ns(latency_ns), LinkKind::kNvlink, Duplex::kFull};
  return build_topology(c);
}

// NVLink 450 GB/s, 250 ns per hop (500 ns GPU to GPU); NIC 50 GB/s, 1 us per hop.
Topology two_nodes_of_4_gpus() {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  return build_topology(c);
}

double cost_s(const Topology& t, CollectiveKind kind, AlgorithmKind algo, double size,
              const ModelOptions& o = {}) {
  return collective_cost(t, kind, algo, static_cast<Bytes>(size), o).time_s(o.gamma_s_per_byte);
}

TEST(CollectiveModel, RingAllReduceOnRingTopology) {
  // 8 NPUs in a ring, 50 GB/s and 300 ns per link. Each of the 2(p-1) = 14 steps sends
  // n/p to the next rank over one link: 14 x 300 ns + 2 * 7/8 * 1 MiB / 50e9 = 40.9 us.
  const Topology t = make(TopologyKind::kRing, 8, 50e9, 300);
  const CollectiveCost c =
      collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1 << 20, {});
  EXPECT_EQ(c.formula, "2(p-1) a + 2(p-1)/p n b + (p-1)/p n g");
  ASSERT_EQ(c.terms.size(), 2u);
  EXPECT_EQ(c.terms[0].label, "reduce-scatter");
  EXPECT_EQ(c.terms[1].label, "all-gather");
  EXPECT_DOUBLE_EQ(c.terms[0].alpha_count, 7);
  EXPECT_DOUBLE_EQ(c.terms[0].beta_bytes, 917504);  // 7/8 MiB
  EXPECT_DOUBLE_EQ(c.terms[0].gamma_bytes, 917504);
  EXPECT_DOUBLE_EQ(c.terms[1].gamma_bytes, 0);
  EXPECT_DOUBLE_EQ(c.terms[0].alpha_s, 300e-9);
  // Injection is 2 links = 100 GB/s, but one message uses one 50 GB/s link.
  EXPECT_DOUBLE_EQ(c.terms[0].beta_s_per_byte, 1 / 50e9);
  EXPECT_DOUBLE_EQ(c.time_s(0), 14 * 300e-9 + 2 * 7.0 / 8 * kMiB / 50e9);
  // With gamma = 1 ps/B the reduce-scatter reduces 7/8 MiB more.
  EXPECT_DOUBLE_EQ(c.time_s(1e-12), 14 * 300e-9 + 2 * 7.0 / 8 * kMiB / 50e9 + 917504e-12);
  // 7 x 300 ns + 917504 B / 50 GB/s = 2.1 us + 18.35008 us = 20.45008 us per phase.
  EXPECT_EQ(describe_cost(c, {}),
            "# reduce-scatter: 7 x 300 ns + 917504 B / 50 GB/s + 917504 B x 0 s/B = 20.45 us\n"
            "# all-gather: 7 x 300 ns + 917504 B / 50 GB/s + 0 B x 0 s/B = 20.45 us\n");
}

TEST(CollectiveModel, RingBidirHalvesRingTimeOnRingButNotOnSwitch) {
  // On a ring topology each direction has its own link: 14 a + 2 * 7/8 * (n/2) / B; the
  // two rings reduce their halves at once: 7/8 (n/2) g.
  const Topology ring = make(TopologyKind::kRing, 8, 50e9, 300);
  ModelOptions o;
  o.gamma_s_per_byte = 1e-12;
  EXPECT_DOUBLE_EQ(cost_s(ring, CollectiveKind::kAllReduce, AlgorithmKind::kRingBidir, kMiB, o),
                   14 * 300e-9 + 7.0 / 8 * kMiB / 50e9 + 7.0 / 16 * kMiB * 1e-12);
  // On a switch both messages share the NPU's one link: beta = 2/B per byte of n/2, the
  // same bandwidth time as the plain ring (alpha: two hops, 600 ns).
  const Topology sw = make(TopologyKind::kSwitch, 8, 50e9, 300);
  EXPECT_DOUBLE_EQ(cost_s(sw, CollectiveKind::kAllReduce, AlgorithmKind::kRingBidir, kMiB),
                   cost_s(sw, CollectiveKind::kAllReduce, AlgorithmKind::kRing, kMiB));
  EXPECT_DOUBLE_EQ(cost_s(sw, CollectiveKind::kAllReduce, AlgorithmKind::kRing, kMiB),
                   14 * 600e-9 + 2 * 7.0 / 8 * kMiB / 50e9);
}

TEST(CollectiveModel, DirectAllToAllSharesTheSwitchLinkButNotFullyConnectedLinks) {
  // p = 4, each rank sends n/4 to each of 3 peers in one step.
  // Switch: all 3 messages leave over one 100 GB/s link: a = 2 x 500 ns, 3 (n/4) / B.
  const Topology sw = make(TopologyKind::kSwitch, 4, 100e9, 500);
  const CollectiveCost s =
      collective_cost(sw, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 1 << 20, {});
  EXPECT_DOUBLE_EQ(s.terms.at(0).beta_bytes, kMiB / 4);
  EXPECT_DOUBLE_EQ(s.terms.at(0).beta_s_per_byte, 3 / 100e9);
  EXPECT_DOUBLE_EQ(s.time_s(0), 1e-6 + 3 * kMiB / 4 / 100e9);
  // Fully connected: each message has its own link: a = 500 ns, (n/4) / B.
  const Topology fc = make(TopologyKind::kFullyConnected, 4, 100e9, 500);
  EXPECT_DOUBLE_EQ(cost_s(fc, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, kMiB),
                   500e-9 + kMiB / 4 / 100e9);
}

TEST(CollectiveModel, RecursiveDoublingAllReduceFoldsFiveRanks) {
  // p = 5, p' = 4, rem = 1: fold (0 -> 1, n, reduced), 2 doubling steps among 1,2,3,4
  // (n each, reduced), unfold (1 -> 0, n): (log2 4 + 2) a + 4 n b + 3 n g, a = 1 us
  // through the switch, b = 1 / 100 GB/s.
  const Topology t = make(TopologyKind::kSwitch, 5, 100e9, 500);
  ModelOptions o;
  o.gamma_s_per_byte = 1e-12;
  const CollectiveCost c =
      collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kRecursiveDoubling, 1 << 20, o);
  EXPECT_EQ(c.formula, "(log2(p')+2) a + (log2(p')+2) n b + (log2(p')+1) n g");
  ASSERT_EQ(c.terms.size(), 3u);
  EXPECT_EQ(c.terms[0].label, "fold");
  EXPECT_EQ(c.terms[2].label, "unfold");
  EXPECT_DOUBLE_EQ(c.terms[1].alpha_count, 2);
  EXPECT_DOUBLE_EQ(c.time_s(o.gamma_s_per_byte), 4e-6 + 4 * kMiB / 100e9 + 3 * kMiB * 1e-12);
}

TEST(CollectiveModel, RecursiveHalvingReduceScatterSixRanks) {
  // p = 6, p' = 4, rem = 2: fold n; halving h = 2 sends virtual ranks {0,1} = 4 real
  // blocks, h = 1 sends virtual rank 0 = 2 blocks: 6 n/6 = n; unfold n/6.
  // 4 a + (2 + 1/6) n b + 2 n g.
  const Topology t = make(TopologyKind::kSwitch, 6, 100e9, 500);
  const CollectiveCost c = collective_cost(t, CollectiveKind::kReduceScatter,
                                           AlgorithmKind::kRecursiveHalving, 6 << 20, {});
  EXPECT_DOUBLE_EQ(c.terms.at(1).beta_bytes, 6 * kMiB);
  EXPECT_DOUBLE_EQ(c.time_s(1e-12), 4e-6 + (2 + 1.0 / 6) * 6 * kMiB / 100e9 + 2 * 6 * kMiB * 1e-12);
}

TEST(CollectiveModel, HierarchicalAllReduceSumsFourTerms) {
  // 2 nodes x 4 GPUs:
  //   intra-node reduce-scatter  3 x 500 ns + 3/4 n / 450 GB/s, gamma 3/4 n
  //   inter-node reduce-scatter  1 x 2 us   + n/8  / 50 GB/s,   gamma n/8
  //   inter-node all-gather      1 x 2 us   + n/8  / 50 GB/s
  //   intra-node all-gather      3 x 500 ns + 3/4 n / 450 GB/s
  const CollectiveCost c = collective_cost(two_nodes_of_4_gpus(), CollectiveKind::kAllReduce,
                                           AlgorithmKind::kHierarchical, 1 << 20, {});
  ASSERT_EQ(c.terms.size(), 4u);
  EXPECT_EQ(c.terms[0].label, "intra-node reduce-scatter");
  EXPECT_EQ(c.terms[1].label, "inter-node reduce-scatter");
  EXPECT_EQ(c.terms[2].label, "inter-node all-gather");
  EXPECT_EQ(c.terms[3].label, "intra-node all-gather");
  EXPECT_DOUBLE_EQ(c.terms[1].beta_bytes, kMiB / 8);
  EXPECT_DOUBLE_EQ(c.terms[1].alpha_s, 2e-6);
  const double g = 1e-12;
  EXPECT_DOUBLE_EQ(c.time_s(g), 6 * 500e-9 + 2 * 2e-6 + 1.5 * kMiB / 450e9 + kMiB / 4 / 50e9 +
                                    7.0 / 8 * kMiB * g);
}

TEST(CollectiveModel, TorusDimensionalRingsAreBidirectional) {
  // 4x4 torus, 100 GB/s, 100 ns. Dim 0: 3 steps of n/4, half each way: 3 (n/8) b;
  // dim 1: n_1 = n/4, 3 (n/32) b. AllReduce: 12 a + 2 (3/8 + 3/32) n b = 12 a + 15/16 n b.
  TopologyConfig cfg;
  cfg.kind = TopologyKind::kTorus;
  cfg.dims = {4, 4};
  cfg.link = LinkParams{100e9, ps_from_ns(100), LinkKind::kNvlink, Duplex::kFull};
  const Topology t = build_topology(cfg);
  EXPECT_DOUBLE_EQ(cost_s(t, CollectiveKind::kAllReduce, AlgorithmKind::kDimensional, kMiB),
                   12 * 100e-9 + 15.0 / 16 * kMiB / 100e9);
}

TEST(CollectiveModel, BinomialAndBruck) {
  // p = 5 on a switch (a = 1 us, b = 1/100 GB/s), L = 3.
  const Topology t = make(TopologyKind::kSwitch, 5, 100e9, 500);
  // Binomial broadcast: 3 rounds of n: 3 a + 3 n b.
  ModelOptions o;
  o.root = 2;
  EXPECT_DOUBLE_EQ(cost_s(t, CollectiveKind::kBroadcast, AlgorithmKind::kTree, kMiB, o),
                   3e-6 + 3 * kMiB / 100e9);
  // Bruck all-to-all: offsets 0..4 with bit 0 set {1,3}, bit 1 {2,3}, bit 2 {4}: 5 blocks
  // of n/5 = n in all: 3 a + n b.
  EXPECT_DOUBLE_EQ(cost_s(t, CollectiveKind::kAllToAll, AlgorithmKind::kBruck, 5 << 20),
                   3e-6 + 5 * kMiB / 100e9);
  // Bruck all-gather: 1 + 2 + min(4, 1) = 4 blocks: 3 a + 4/5 n b.
  EXPECT_DOUBLE_EQ(cost_s(t, CollectiveKind::kAllGather, AlgorithmKind::kBruck, 5 << 20),
                   3e-6 + 4 * kMiB / 100e9);
}

TEST(CollectiveModel, LowerBoundsForEightRanks) {
  // Switch, 100 GB/s, 500 ns: a = o + 1 us = 3 us, b = 1/100 GB/s, (p-1)/p = 7/8; one
  // latency term (ranks may reach every peer at once) and half the reduction work (two
  // channels may reduce at once).
  const Topology t = make(TopologyKind::kSwitch, 8, 100e9, 500);
  ModelOptions o;
  o.overhead_s = 2e-6;
  o.gamma_s_per_byte = 1e-12;
  const double n = kMiB, a = 3e-6, b = 1 / 100e9, g = 0.5e-12, s = 7.0 / 8 * n;
  const auto lb = [&](CollectiveKind k) { return collective_lower_bound_s(t, k, 1 << 20, o); };
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kBroadcast), a + n * b);
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kReduce), a + n * b + s * g);
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kAllGather), a + s * b);
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kReduceScatter), a + s * (b + g));
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kAllReduce), a + 2 * s * b + s * g);
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kAllToAll), a + s * b);
  EXPECT_DOUBLE_EQ(lb(CollectiveKind::kBarrier), a);
  EXPECT_DOUBLE_EQ(collective_lower_bound_s(make(TopologyKind::kSwitch, 1, 100e9, 500),
                                            CollectiveKind::kAllReduce, 1 << 20, o),
                   0);
  // 2 nodes x 4 GPUs: the closest GPUs share an NVSwitch (2 x 250 ns); the smallest
  // injection is NVLink + NIC = 500 GB/s.
  EXPECT_DOUBLE_EQ(
      collective_lower_bound_s(two_nodes_of_4_gpus(), CollectiveKind::kAllGather, 1 << 20, {}),
      500e-9 + s / 500e9);
}

TEST(CollectiveModel, ChunksAddAlphasToTheFirstTerm) {
  // Ring AllReduce with C = 4: (14 + 3) a, beta unchanged.
  const Topology t = make(TopologyKind::kRing, 8, 50e9, 300);
  ModelOptions o;
  o.chunks = 4;
  const CollectiveCost c =
      collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1 << 20, o);
  EXPECT_DOUBLE_EQ(c.terms.at(0).alpha_count, 10);
  EXPECT_DOUBLE_EQ(c.terms.at(1).alpha_count, 7);
  EXPECT_DOUBLE_EQ(c.time_s(0), 17 * 300e-9 + 2 * 7.0 / 8 * kMiB / 50e9);
  EXPECT_EQ(c.formula, "2(p-1) a + 2(p-1)/p n b + (p-1)/p n g + (C-1) a");
}

TEST(CollectiveModel, RingBroadcastPipelinesChunksAlongTheChain) {
  // Chain of p - 1 = 7 hops, C = 4: (p - 2 + C) (a + n/C b) = 10 (300 ns + (n/4) / 50 GB/s).
  const Topology t = make(TopologyKind::kRing, 8, 50e9, 300);
  ModelOptions o;
  o.chunks = 4;
  o.root = 5;
  const CollectiveCost c =
      collective_cost(t, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 1 << 20, o);
  EXPECT_EQ(c.formula, "(p-2+C) a + (p-2+C) n/C b");
  EXPECT_DOUBLE_EQ(c.terms.at(0).alpha_count, 10);
  EXPECT_DOUBLE_EQ(c.terms.at(0).beta_bytes, 10 * kMiB / 4);
  EXPECT_DOUBLE_EQ(c.time_s(0), 10 * (300e-9 + kMiB / 4 / 50e9));
  // Reduce: the same chain toward the root, reducing n/C per stage.
  EXPECT_DOUBLE_EQ(
      collective_cost(t, CollectiveKind::kReduce, AlgorithmKind::kRing, 1 << 20, o).time_s(1e-12),
      10 * (300e-9 + kMiB / 4 / 50e9 + kMiB / 4 * 1e-12));
}

TEST(CollectiveModel, HierarchicalBroadcastPipelinesChunksThroughBothLevels) {
  // 2 nodes x 4 GPUs, root 0, n = 4 MiB, C = 4: one pipeline through the inter-node hop
  // (2 us + 1 MiB / 50 GB/s = 22.97 us a stage) then 3 intra-node hops (0.5 us + 1 MiB /
  // 450 GB/s = 2.83 us). Flow shop: sum of the 4 stages + (C-1) x the slowest (inter).
  ModelOptions o;
  o.chunks = 4;
  const CollectiveCost c = collective_cost(two_nodes_of_4_gpus(), CollectiveKind::kBroadcast,
                                           AlgorithmKind::kHierarchical, 4 << 20, o);
  ASSERT_EQ(c.terms.size(), 2u);
  EXPECT_EQ(c.terms[0].label, "inter-node broadcast");
  EXPECT_DOUBLE_EQ(c.terms[0].alpha_count, 4);  // its hop + the C - 1 extra stages
  EXPECT_DOUBLE_EQ(c.terms[1].alpha_count, 3);
  const double inter = 2e-6 + kMiB / 50e9, intra = 500e-9 + kMiB / 450e9;
  EXPECT_DOUBLE_EQ(c.time_s(0), 4 * inter + 3 * intra);
}

TEST(CollectiveModel, BadInputThrows) {
  const Topology t = make(TopologyKind::kSwitch, 8, 100e9, 500);
  try {
    collective_cost(t, CollectiveKind::kAllToAll, AlgorithmKind::kTree, 1024, {});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no closed form for alltoall with tree");
  }
  EXPECT_THROW(
      collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kHierarchical, 1024, {}),
      InputError);
  ModelOptions o;
  o.chunks = 0;
  EXPECT_THROW(collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1024, o),
               InputError);
  o.chunks = 1;
  o.root = 8;
  EXPECT_THROW(collective_cost(t, CollectiveKind::kBroadcast, AlgorithmKind::kTree, 1024, o),
               InputError);
}

// 4 GPUs on a switch of 100 GB/s links without latency.
Topology four_gpus_on_a_switch() {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 4;
  c.link = {100e9, 0, LinkKind::kNvlink, Duplex::kFull};
  return build_topology(c);
}

TEST(CollectiveModel, NcclsAllToAllTakesItsProtocolFromTheP2pThreshold) {
  // 4 GPUs on a switch; LL costs nothing extra and Simple 20 us more, so by least time LL
  // would run at every size. NCCL's AllToAll is a send of size / 4 to each peer, LL only
  // while each of the send's channels carries at most 16 KiB: with 1 channel up to 32 MiB,
  // LL up to size 64 KiB, Simple from 64 KiB + 4 B.
  const Topology t = four_gpus_on_a_switch();
  LibraryProfile profile;
  profile.name = "threshold";
  profile.protocols = {{Protocol::kLL, {0, {0, 0, 0}, 1.0}}, {Protocol::kSimple, {ps_from_us(20), {0, 0, 0}, 1.0}}};
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllToAll, 1 << 20, {}, profile).protocol, Protocol::kLL);
  const double unlimited = std::numeric_limits<double>::infinity();
  profile.p2p = P2pChannels{1, 2, Bytes{32} << 20, 1, {unlimited, unlimited, unlimited}, Bytes{16} << 10};
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllToAll, 64 << 10, {}, profile).protocol, Protocol::kLL);
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllToAll, (64 << 10) + 4, {}, profile).protocol, Protocol::kSimple);
  // A forced protocol stands; other collectives still pick by least time.
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllToAll, 1 << 20, {}, profile, Protocol::kLL).protocol, Protocol::kLL);
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllGather, 1 << 20, {}, profile).protocol, Protocol::kLL);
}

TEST(CollectiveModel, NcclChoosesByItsEstimateNotByWhatTheSystemCosts) {
  // NCCL's estimate: LL free, Simple 20 us per call, so at 1 MiB it runs LL. This system's
  // LL really costs 100 us per call: by its own costs Simple is faster, but a profile that
  // keeps NCCL's estimate still runs LL, as NCCL would.
  const Topology t = four_gpus_on_a_switch();
  LibraryProfile estimate;
  estimate.name = "estimate";
  estimate.protocols = {{Protocol::kLL, {0, {0, 0, 0}, 1.0}}, {Protocol::kSimple, {ps_from_us(20), {0, 0, 0}, 1.0}}};
  LibraryProfile system = estimate;
  system.protocols.front().second.call_latency_ps = ps_from_us(100);
  const auto kind = CollectiveKind::kAllGather;
  EXPECT_EQ(nccl_choice(t, kind, 1 << 20, {}, system).protocol, Protocol::kSimple);
  system.estimate_as(estimate);
  EXPECT_EQ(nccl_choice(t, kind, 1 << 20, {}, system).protocol, Protocol::kLL);
  EXPECT_EQ(fastest_protocol(t, kind, AlgorithmKind::kRing, 1 << 20, {}, system), Protocol::kLL);
  // A profile fitted from one that has an estimate keeps that first estimate.
  LibraryProfile refitted = system;
  refitted.estimate_as(system);
  EXPECT_EQ(refitted.estimate, system.estimate);
}

TEST(CollectiveModel, GlooRunsItsOwnAlgorithmWhereItHasOne) {
  // Gloo's 177 us steps on 4 GPUs: by least time NCCL's choice would take the tree's
  // 2 log2(4) = 4 steps at 1 KiB over the ring's 2(p-1) = 6; Gloo runs its ring AllReduce
  // (gloo/allreduce.cc) whatever the size, its binomial-tree Broadcast, and for Reduce, which
  // it has no algorithm of commsim's for, the choice by its costs.
  const Topology t = four_gpus_on_a_switch();
  const LibraryProfile gloo = library_by_name("gloo", "--library");
  LibraryProfile ranked = gloo;
  ranked.own_algorithms.clear();
  const auto all_reduce = CollectiveKind::kAllReduce;
  EXPECT_EQ(nccl_choice(t, all_reduce, 1024, {}, ranked).algorithm, AlgorithmKind::kTree);
  const NcclChoice own = nccl_choice(t, all_reduce, 1024, {}, gloo);
  EXPECT_EQ(own.algorithm, AlgorithmKind::kRing);
  EXPECT_EQ(own.protocol, Protocol::kSimple);
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kBroadcast, 1024, {}, gloo).algorithm, AlgorithmKind::kTree);
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kAllToAll, 1024, {}, gloo).algorithm, AlgorithmKind::kDirect);
  EXPECT_EQ(gloo.own_algorithm(CollectiveKind::kReduce), std::nullopt);
  EXPECT_EQ(nccl_choice(t, CollectiveKind::kReduce, 1024, {}, gloo).algorithm, AlgorithmKind::kRing);
}

TEST(CollectiveModel, NcclsRingPlateauRanksRingSimpleAllReduceAcrossNodesOnly) {
  // NCCL's estimate multiplies a Ring/Simple AllReduce's latency across nodes (tuning.cc,
  // "Plateau effect of ring"). Made 1000 times, it sends a 1 GiB AllReduce of 2 nodes x 4
  // GPUs off Simple; not an AllGather there, nor an AllReduce on one node of 8.
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  const Topology two_nodes = build_topology(c);
  c.kind = TopologyKind::kSwitch;
  c.npus = 8;
  const Topology one_node = build_topology(c);
  LibraryProfile nccl = library_by_name("nccl", "--library");
  EXPECT_EQ(nccl.ring_plateau, 1.4);
  const Bytes n = Bytes{1} << 30;
  const auto ring = [&](const Topology& t, CollectiveKind kind) {
    return fastest_protocol(t, kind, AlgorithmKind::kRing, n, {}, nccl);
  };
  EXPECT_EQ(ring(two_nodes, CollectiveKind::kAllReduce), Protocol::kSimple);
  nccl.ring_plateau = 1000;
  EXPECT_NE(ring(two_nodes, CollectiveKind::kAllReduce), Protocol::kSimple);
  EXPECT_EQ(ring(two_nodes, CollectiveKind::kAllGather), Protocol::kSimple);
  EXPECT_EQ(ring(one_node, CollectiveKind::kAllReduce), Protocol::kSimple);
}

TEST(CollectiveModel, BlackwellsRingPlateauAlsoRanksAllGatherAndReduceScatterInsideOneNvlinkNode) {
  // From compute capability 10.0 NCCL's estimate puts the ring plateau on a Ring/Simple
  // AllGather or ReduceScatter inside one NVLink node too (ncclTuningRingModelSim). Made 1000
  // times, it sends a 1 GiB AllGather and ReduceScatter of 8 NVLink GPUs off Simple under
  // Blackwell's profile; not an AllReduce there, nor on PCIe, nor under Hopper's.
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 8;
  const Topology nvlink = build_topology(c);
  c.link = {50e9, 0, LinkKind::kPcie, Duplex::kFull};
  const Topology pcie = build_topology(c);
  LibraryProfile blackwell = library_by_name("nccl-blackwell", "--library");
  EXPECT_TRUE(blackwell.ring_plateau_in_one_nvlink_node);
  EXPECT_FALSE(library_by_name("nccl", "--library").ring_plateau_in_one_nvlink_node);
  const Bytes n = Bytes{1} << 30;
  const auto ring = [&](const Topology& t, CollectiveKind kind) {
    return fastest_protocol(t, kind, AlgorithmKind::kRing, n, {}, blackwell);
  };
  EXPECT_EQ(ring(nvlink, CollectiveKind::kAllGather), Protocol::kSimple);
  blackwell.ring_plateau = 1000;
  EXPECT_NE(ring(nvlink, CollectiveKind::kAllGather), Protocol::kSimple);
  EXPECT_NE(ring(nvlink, CollectiveKind::kReduceScatter), Protocol::kSimple);
  EXPECT_EQ(ring(nvlink, CollectiveKind::kAllReduce), Protocol::kSimple);
  EXPECT_EQ(ring(pcie, CollectiveKind::kAllGather), Protocol::kSimple);
  blackwell.ring_plateau_in_one_nvlink_node = false;
  EXPECT_EQ(ring(nvlink, CollectiveKind::kAllGather), Protocol::kSimple);
}

TEST(CollectiveModel, NcclRunsLl128OnlyBetweenGpusOnNvlink) {
  // LL128 free, LL and Simple 20 us per call: by least time LL128 runs at 1 MiB on NVLink.
  // On PCIe NCCL leaves LL128 out (tuning.cc: LL128 only where the ring's GPUs talk over
  // NVLink) and the next of least time runs, unless LL128 is all the profile has.
  LibraryProfile profile;
  profile.name = "three";
  profile.protocols = {{Protocol::kLL, {ps_from_us(20), {0, 0, 0}, 0.5}},
                       {Protocol::kLL128, {0, {0, 0, 0}, 0.92}},
                       {Protocol::kSimple, {ps_from_us(20), {0, 0, 0}, 1.0}}};
  const auto kind = CollectiveKind::kAllReduce;
  EXPECT_EQ(fastest_protocol(four_gpus_on_a_switch(), kind, AlgorithmKind::kRing, 1 << 20, {}, profile),
            Protocol::kLL128);
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 4;
  c.link = {100e9, 0, LinkKind::kPcie, Duplex::kFull};
  const Topology pcie = build_topology(c);
  EXPECT_FALSE(nccl_leaves_ll128_out(four_gpus_on_a_switch()));
  EXPECT_TRUE(nccl_leaves_ll128_out(pcie));
  EXPECT_EQ(fastest_protocol(pcie, kind, AlgorithmKind::kRing, 1 << 20, {}, profile), Protocol::kSimple);
  EXPECT_EQ(nccl_choice(pcie, kind, 1 << 20, {}, profile).protocol, Protocol::kSimple);
  profile.protocols = {profile.protocols[1]};
  EXPECT_EQ(fastest_protocol(pcie, kind, AlgorithmKind::kRing, 1 << 20, {}, profile), Protocol::kLL128);
}

}  // namespace
}  // namespace commsim

namespace commsim {
namespace {

TEST(CollectiveModel, DoubleBinaryTreeStepsAtTheSlowestEdge) {
  // Two nodes of 4 GPUs: the trees of 8 ranks have edges across the nodes (tree 0: 4 -> 0;
  // tree 1, mirrored: 3 -> 7), which carry n/2 through one 50 GB/s NIC. Every one of the
  // 2D = 6 steps is charged that edge: n/2 / 50 GB/s = n / 100 GB/s, and the latency of a
  // route across the nodes: T = 6 (alpha_net + n / 100e9).
  const Topology t = two_nodes_of_4_gpus();
  const double n = 64.0 * (1 << 20);
  const double alpha = seconds_from_ps(path_params(t, 0, 4).latency_ps);
  const CollectiveCost cost = collective_cost(t, CollectiveKind::kAllReduce, AlgorithmKind::kTree, 64 << 20, {});
  EXPECT_NEAR(cost.time_s(0), 6 * (alpha + n / 100e9), 1e-12);
}

}  // namespace
}  // namespace commsim
