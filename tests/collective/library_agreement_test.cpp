// A library profile applies to the simulator and the closed form alike: on an idle network
// they still agree, so sim/model keeps meaning contention alone; and the model reproduces
// NCCL's own latency formula where the wire adds nothing.

#include <gtest/gtest.h>

#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;

Topology built(TopologyKind kind, std::uint32_t npus, TimePs latency_ps = ps_from_ns(300)) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.nodes = 2;
  c.gpus_per_node = 4;
  c.link = {50e9, latency_ps, LinkKind::kNvlink, Duplex::kFull};
  c.nic = {25e9, ps_from_us(1), LinkKind::kInfiniband, Duplex::kFull};
  return build_topology(c);
}

double sim_s(const Topology& t, CollectiveKind kind, AlgorithmKind a, Bytes size, const ProtocolCosts& library) {
  CollectiveConfig config;
  config.library = library;
  return seconds_from_ps(simulate_collective(t, kind, a, size, config).time_ps);
}

double model_s(const Topology& t, CollectiveKind kind, AlgorithmKind a, Bytes size, const ProtocolCosts& library) {
  ModelOptions options;
  options.library = library;
  return collective_cost(t, kind, a, size, options).time_s(0);
}

TEST(LibraryAgreement, SimulatorEqualsClosedFormUnderEveryProfile) {
  // A profile whose rates are whole picoseconds per byte (0.8 x 50 GB/s = 40 GB/s: 25 ps/B;
  // LL's 0.5 x 50 = 25 GB/s: 40 ps/B), so the clock rounds nothing: agreement to 1e-9.
  // And every built-in profile's every protocol (1e-6: the clock's picoseconds).
  const ProtocolCosts whole{ps_from_us(7), {ps_from_ns(600), ps_from_ns(1500), ps_from_ns(2700)}, 0.8};
  std::vector<LibraryProfile> profiles;
  const std::string names = library_names();
  for (std::size_t at = 0; at < names.size();) {
    const std::size_t end = std::min(names.find(", ", at), names.size());
    profiles.push_back(library_by_name(names.substr(at, end - at), "--library"));
    at = end + 2;
  }
  ASSERT_EQ(profiles.size(), 9u);
  using A = AlgorithmKind;
  struct Case {
    Topology topology;
    std::vector<AlgorithmKind> algorithms;
  };
  const std::vector<Case> cases{
      {built(TopologyKind::kRing, 8), {A::kRing, A::kRingBidir}},
      // (NCCL's tree, a profile's: nccl_tree_test.cpp, ClosedFormIsTheRunExactly.)
      {built(TopologyKind::kSwitch, 8), {A::kRingBidir, A::kDirect, A::kRecursiveDoubling, A::kRabenseifner, A::kBruck}},
      // Steps, rounds and hops that cross NVLink or a NIC each pay their own alpha (a
      // chain of 3 NVLink hops, a NIC and 3 more; recursive doubling's third step across).
      {built(TopologyKind::kHierarchical, 0), {A::kHierarchical, A::kRing, A::kRecursiveDoubling, A::kRabenseifner}},
  };
  for (const Case& c : cases) {
    for (const AlgorithmKind a : c.algorithms) {
      for (const CollectiveKind kind : all_collectives()) {
        if (inapplicable_reason(kind, a, c.topology)) continue;
        const Bytes size = nccl_size(kind, 64 * kMiB, c.topology.npu_count());
        SCOPED_TRACE(c.topology.name() + " " + std::string(algorithm_name(a)) + " " +
                     std::string(collective_name(kind)));
        EXPECT_NEAR(sim_s(c.topology, kind, a, size, whole) / model_s(c.topology, kind, a, size, whole), 1.0, 1e-9);
        for (const LibraryProfile& profile : profiles) {
          for (const auto& [protocol, costs] : profile.protocols) {
            SCOPED_TRACE(profile.name + " " + std::string(protocol_name(protocol)));
            EXPECT_NEAR(sim_s(c.topology, kind, a, size, costs) / model_s(c.topology, kind, a, size, costs), 1.0, 1e-6);
          }
        }
      }
    }
  }
}

TEST(LibraryAgreement, ChainsMoveAtTheirChannelsFixedRates) {
  // NCCL's Broadcast over 2 channels on 2 nodes of 4: chain 0 round ring 0 1 2 3 7 6 5 4,
  // chain 1 round ring 1 2 3 0 4 7 6 5 (Topology::ring_order), each from the root 0 with
  // n/2. Both cross NVLink 1->2, 2->3, 7->6 and 6->5, chain 0 early (hops 1-2, 4-5), chain 1
  // late (hops 5-6, 2-3), so they never meet there in time, yet each channel moves at its
  // fixed share, 0.8 x 50 / 2 = 20 GB/s (collective/channel_rates.h); alone on NVLink at 40,
  // on a NIC 0.8 x 25 = 20. A hop costs its route's latency and the protocol's step: NVLink
  // 0.6 + 0.6 us, network 2 + 2.7 us. With one chunk a chain is its hops in turn:
  //   chain 0: 6 x 1.2 + 4.7 = 11.9 us + n/2 (2/40 + 5/20) ns/B = 11.9 us + 0.15 n ns
  //   chain 1: 5 x 1.2 + 2 x 4.7 = 15.4 us + n/2 (1/40 + 6/20) ns/B = 15.4 us + 0.1625 n ns,
  // and the call 7 us first: 64 MiB in 7 + 15.4 + 10905.1904 us, in both.
  const Topology t = built(TopologyKind::kHierarchical, 0);
  const ProtocolCosts whole{ps_from_us(7), {ps_from_ns(600), ps_from_ns(1500), ps_from_ns(2700)}, 0.8};
  CollectiveConfig config;
  config.library = whole;
  config.channels = 2;
  ModelOptions options;
  options.library = whole;
  options.channels = 2;
  const double expected_s = 7e-6 + 15.4e-6 + 0.1625e-9 * 64 * kMiB;
  EXPECT_NEAR(seconds_from_ps(
                  simulate_collective(t, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 64 * kMiB, config).time_ps),
              expected_s, 1e-11);
  EXPECT_NEAR(collective_cost(t, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 64 * kMiB, options).time_s(0),
              expected_s, 1e-11);
}

TEST(LibraryAgreement, NcclsRingLatencyFormula) {
  // NCCL (tuning.cc): Ring AllReduce, LL, one node of 8 GPUs on NVLink:
  //   base + 2(p-1) x hwLatency = 6.6 + 14 x 0.6 = 15.0 us.
  // On a switch whose links add no latency, a 0-byte AllReduce is exactly that, in the
  // model and the simulator.
  const Topology node = built(TopologyKind::kSwitch, 8, 0);
  const ProtocolCosts ll = library_by_name("nccl", "--library").costs(Protocol::kLL);
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 0, ll), 15.0e-6, 1e-15);
  EXPECT_NEAR(sim_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 0, ll), 15.0e-6, 1e-15);
  // AllGather has p-1 steps: 6.6 + 7 x 0.6 = 10.8 us; with Simple 8.4 + 7 x 3.4 = 32.2 us.
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllGather, AlgorithmKind::kRing, 0, ll), 10.8e-6, 1e-15);
  const ProtocolCosts simple = library_by_name("nccl", "--library").costs(Protocol::kSimple);
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllGather, AlgorithmKind::kRing, 0, simple), 32.2e-6, 1e-15);
  // With data: 8 MiB AllReduce under LL moves 14 steps of 1 MiB at min(0.5 x 50, 141) =
  // 25 GB/s, 40 ps/B: 15 us + 14 x 2^20 x 40 ps.
  EXPECT_NEAR(sim_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 8 * kMiB, ll),
              15.0e-6 + 14.0 * kMiB * 40e-12, 1e-15);
}

TEST(LibraryAgreement, ARingPaysItsStepsOncePerLoop) {
  // NCCL's 8-rank ring AllReduce of 1 GiB on 24 channels under Simple makes 3 loops of
  // 24 x 8 x 2 MiB (Library.NcclLoopsARingThroughItsBuffers), each all 14 steps: on a switch
  // whose links add no latency, 8.4 + 14 x 3 x 3.4 us + 1.75 x 1 GiB / 50 GB/s, in the model
  // and the simulator; AllGather 8.4 + 7 x 3 x 3.4 us + 7/8 GiB / 50 GB/s.
  const Topology node = built(TopologyKind::kSwitch, 8, 0);
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  const Bytes gib = Bytes{1} << 30;
  for (const CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kAllGather}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    const ProtocolCosts simple = nccl.costs(kind, AlgorithmKind::kRing, Protocol::kSimple, gib, 8);
    ASSERT_EQ(simple.loops, 3u);
    const double steps = kind == CollectiveKind::kAllReduce ? 14 : 7;
    const double expected = 8.4e-6 + steps * 3 * 3.4e-6 + steps / 8 * static_cast<double>(gib) / 50e9;
    EXPECT_NEAR(model_s(node, kind, AlgorithmKind::kRing, gib, simple), expected, 1e-12);
    EXPECT_NEAR(sim_s(node, kind, AlgorithmKind::kRing, gib, simple), expected, 1e-12);
  }
  // Across nodes a network step waits its 14 us once whatever the loops: on 2 nodes of 4
  // a ring step crosses the network (14 + 1 us) beside NVLink hops (3 x 3.4 us), so the
  // step waits the network's 15 us as with one loop; the simulator agrees.
  const Topology cluster = built(TopologyKind::kHierarchical, 0);
  const ProtocolCosts looped =
      nccl.costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, Protocol::kSimple, gib, 8);
  ProtocolCosts once = looped;
  once.loops = 1;
  EXPECT_NEAR(model_s(cluster, CollectiveKind::kAllReduce, AlgorithmKind::kRing, gib, looped),
              model_s(cluster, CollectiveKind::kAllReduce, AlgorithmKind::kRing, gib, once), 1e-12);
  EXPECT_NEAR(sim_s(cluster, CollectiveKind::kAllReduce, AlgorithmKind::kRing, gib, looped) /
                  model_s(cluster, CollectiveKind::kAllReduce, AlgorithmKind::kRing, gib, looped),
              1.0, 1e-9);
}

TEST(LibraryAgreement, TheSystemsLaunchAddsToEveryCallInBoth) {
  // A system that pays 20 us more a call: the 0-byte Ring/LL AllReduce above takes
  // 20 + 15 us, the in-switch reduction 20 + 25 us (NVLS: no base, one NVLink step), in the
  // model and the simulator; with data they still agree.
  const Topology node = built(TopologyKind::kSwitch, 8, 0);
  LibraryProfile nccl = library_by_name("nccl", "--library");
  nccl.launch_ps = ps_from_us(20);
  const ProtocolCosts ll = nccl.costs(Protocol::kLL);
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 0, ll), 35.0e-6, 1e-15);
  EXPECT_NEAR(sim_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 0, ll), 35.0e-6, 1e-15);
  EXPECT_EQ(nccl.costs(AlgorithmKind::kNvls, std::nullopt).call_latency_ps + ps_from_us(25), ps_from_us(45));
  const ProtocolCosts simple = nccl.costs(Protocol::kSimple);
  for (const AlgorithmKind a : {AlgorithmKind::kRing, AlgorithmKind::kDirect}) {
    EXPECT_NEAR(sim_s(node, CollectiveKind::kAllReduce, a, 64 * kMiB, simple) /
                    model_s(node, CollectiveKind::kAllReduce, a, 64 * kMiB, simple),
                1.0, 1e-9);
  }
}

TEST(LibraryAgreement, TreeRunsAtNcclsTreeRow) {
  // The double binary tree of 8 ranks (D = floor(log2 8) = 3) reduces up and broadcasts
  // down in 2D = 6 steps; under NCCL's Tree LL row a 0-byte AllReduce on a switch whose links
  // add no latency is 6.8 + 6 x 0.6 = 10.4 us, where the ring's row would give 6.6 + 6 x 0.6.
  // With data, each step moves n at the Tree LL share of the link, 0.92 / 3.8 x 50 GB/s.
  // (NCCL's own layout, a chain through the node, 6.8 + 2 x 7 x 0.6 = 15.2 us, runs with
  // tree_node_gpus: nccl_tree_test.cpp.)
  const Topology node = built(TopologyKind::kSwitch, 8, 0);
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  const ProtocolCosts tree_ll = nccl.costs(CollectiveKind::kAllReduce, AlgorithmKind::kTree, Protocol::kLL);
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kTree, 0, tree_ll), 10.4e-6, 1e-15);
  EXPECT_NEAR(sim_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kTree, 0, tree_ll), 10.4e-6, 1e-15);
  const double rate = 0.92 / 3.8 * 50e9;
  EXPECT_NEAR(model_s(node, CollectiveKind::kAllReduce, AlgorithmKind::kTree, kMiB, tree_ll),
              10.4e-6 + 6.0 * kMiB / rate, 1e-12);
}

TEST(LibraryAgreement, AutoPicksLowLatencyProtocolsForSmallSizesAndSimpleForLarge) {
  // NCCL's choice by estimate: LL for tiny messages (least latency), Simple for large ones
  // (full bandwidth). On 8 GPUs at 450 GB/s: LL costs 15.0 us + n 14/8 / 141 GB/s,
  // Simple 8.4 + 14 x 3.4 = 56 us + n 14/8 / 450 GB/s.
  TopologyConfig c;  // the default: 8 GPUs on an NVSwitch
  c.kind = TopologyKind::kSwitch;
  c.link.latency_ps = 0;
  const Topology node = build_topology(c);
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  const auto pick = [&](Bytes n) {
    return fastest_protocol(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, n, {}, nccl);
  };
  EXPECT_EQ(pick(1024), Protocol::kLL);
  EXPECT_EQ(pick(1024 * kMiB), Protocol::kSimple);
  EXPECT_FALSE(fastest_protocol(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1024, {}, LibraryProfile{}));
}

TEST(LibraryAgreement, GlooReproducesItsPublishedRingAllReduce) {
  // Gloo over TCP (topology/library.cpp): 2 processes on 40 GbE, 5 GB/s, no link latency.
  // A ring AllReduce of 20 MB is 2 steps; each flow moves 10 MB at the 1.159 GB/s cap after
  // a 177 us step: 2 x (177 us + 1e7 / 1.159e9 s) = 17.610 ms. Published (pytorch/gloo
  // issue #248): 17.25 ms p50, 2% less.
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 2;
  c.link = {5e9, 0, LinkKind::kEthernet, Duplex::kFull};
  const Topology pair = build_topology(c);
  const LibraryProfile gloo = library_by_name("gloo", "--library");
  ASSERT_EQ(gloo.protocols.size(), 1u);
  const ProtocolCosts costs = gloo.costs(std::nullopt);
  const double expected = 2 * (177e-6 + 1e7 / 1.159e9);
  EXPECT_NEAR(model_s(pair, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 20'000'000, costs), expected, 1e-12);
  EXPECT_NEAR(sim_s(pair, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 20'000'000, costs), expected, 1e-9);
  EXPECT_NEAR(expected, 17.25e-3, 0.025 * 17.25e-3);
}

}  // namespace
}  // namespace commsim
