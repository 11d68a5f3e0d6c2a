// NCCL's channels: C rings at once, each with n/C, ring c running up from GPU c inside even
// nodes and back down inside odd ones, so that on a hierarchical topology each ring leaves a
// node through its own GPU and NIC, G rings use every NIC of a node, and every hop between
// nodes stays on one rail (GPUs of one index).

#include <gtest/gtest.h>

#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

// `nodes` nodes x 4 GPUs; NVLink `nvlink_Bps`, NIC 25 GB/s (40 ps/B), `latency_ps` on each.
Topology nodes_of_four(std::uint32_t nodes, double nvlink_Bps, TimePs latency_ps = 0) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = nodes;
  c.gpus_per_node = 4;
  c.link = {nvlink_Bps, latency_ps, LinkKind::kNvlink, Duplex::kFull};
  c.nic = {25e9, latency_ps, LinkKind::kInfiniband, Duplex::kFull};
  return build_topology(c);
}

// 2 nodes x 4 GPUs; NVLink 100 GB/s (10 ps/B), NIC 25 GB/s (40 ps/B).
Topology two_nodes(TimePs latency_ps = 0) { return nodes_of_four(2, 100e9, latency_ps); }

TEST(ChannelRings, RingCRunsUpFromGpuCAndBackDownOnOddNodes) {
  const Topology t = two_nodes();
  EXPECT_EQ(t.ring_order(0, 4), (std::vector<Rank>{0, 1, 2, 3, 7, 6, 5, 4}));
  EXPECT_EQ(t.ring_order(1, 4), (std::vector<Rank>{1, 2, 3, 0, 4, 7, 6, 5}));
  EXPECT_EQ(t.ring_order(3, 4), (std::vector<Rank>{3, 0, 1, 2, 6, 5, 4, 7}));
  // One channel, or a topology without nodes: ranks in order.
  EXPECT_EQ(t.ring_order(2, 1), (std::vector<Rank>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Every hop between nodes joins two GPUs of one index, but the last node's back to node 0
  // when the nodes are odd in number (3 x 4: node 2 leaves by GPU c-1, node 0 takes GPU c).
  for (const std::uint32_t nodes : {2u, 3u, 4u}) {
    TopologyConfig c;
    c.kind = TopologyKind::kHierarchical;
    c.nodes = nodes;
    c.gpus_per_node = 4;
    const Topology h = build_topology(c);
    for (std::size_t ring = 0; ring < 4; ++ring) {
      const std::vector<Rank> order = h.ring_order(ring, 4);
      std::size_t crossing_rails = 0;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const Rank from = order[i], to = order[(i + 1) % order.size()];
        if (from / 4 != to / 4 && from % 4 != to % 4) ++crossing_rails;
      }
      EXPECT_EQ(crossing_rails, nodes % 2) << nodes << " nodes, ring " << ring;
    }
  }
}

TEST(ChannelRings, EveryRankEndsWithWhatTheCollectiveDefines) {
  const Topology t = two_nodes(ps_from_ns(100));
  for (const CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kAllGather, CollectiveKind::kReduceScatter,
                                    CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
    for (const std::size_t channels : {2u, 4u, 8u}) {
      SCOPED_TRACE(std::string(collective_name(kind)) + ", " + std::to_string(channels) + " channels");
      CollectiveConfig config;
      config.channels = channels;
      config.verify = true;
      config.chunks = 2;
      const CollectiveResult r = simulate_collective(t, kind, AlgorithmKind::kRing, 1 << 20, config);
      EXPECT_EQ(r.verify_error, "");
    }
  }
}

TEST(ChannelRings, FourRailsAreFourTimesOneNic) {
  // AllGather of n on 8 ranks. One ring crosses each node boundary through one NIC: each of
  // its 7 steps moves n/8 over a 25 GB/s NIC, 7 n/8 x 40 ps. Four rings of n/4 each leave
  // every node through a different NIC: a NIC carries n/32 a step (40 ps/B), an NVLink port
  // the 3 rings that stay inside (3 n/32 at 10 ps/B): 7 n/32 x 40 ps, a quarter.
  const Topology t = two_nodes();
  const Bytes n = 1 << 25;
  CollectiveConfig one;
  CollectiveConfig four;
  four.channels = 4;
  const TimePs t1 = simulate_collective(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, one).time_ps;
  const TimePs t4 = simulate_collective(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, four).time_ps;
  EXPECT_EQ(t1, 7 * (n / 8) * 40);
  EXPECT_EQ(t4, 7 * (n / 32) * 40);
  // The closed form sees the same: per step the busiest link.
  ModelOptions model;
  model.channels = 4;
  EXPECT_NEAR(collective_cost(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, model).time_s(0),
              seconds_from_ps(t4), 1e-15);
}

TEST(ChannelRings, BroadcastAndReduceSplitTheDataOverTheChainsOfEveryRing) {
  // NCCL's ring Broadcast and Reduce run a chain per channel, each with n/C. With NVLink
  // so fast that only the NICs count (1e15 B/s against 25 GB/s, 40 ps/B): one chain from
  // GPU 0 crosses the NICs once with all of n, 40 n ps; four chains of n/4, rail-aligned
  // (ring 1 is 1 2 3 0 | 5 6 7 4: from 0 it goes 0 -> 5 across, ..., 4 -> 1 back), cross
  // them at most twice: 2 x 40 n/4 = 20 n ps, half. The closed form sees the same.
  const Topology t = nodes_of_four(2, 1e15);
  const Bytes n = 1 << 24;
  for (const CollectiveKind kind : {CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    CollectiveConfig one, four;
    four.channels = 4;
    const double t1 = static_cast<double>(simulate_collective(t, kind, AlgorithmKind::kRing, n, one).time_ps);
    const double t4 = static_cast<double>(simulate_collective(t, kind, AlgorithmKind::kRing, n, four).time_ps);
    EXPECT_NEAR(t1 / (40.0 * n), 1.0, 1e-3);
    EXPECT_NEAR(t4 / (20.0 * n), 1.0, 1e-3);
    ModelOptions model;
    model.channels = 4;
    EXPECT_NEAR(collective_cost(t, kind, AlgorithmKind::kRing, n, model).time_s(0) / seconds_from_ps(t4), 1.0, 1e-3);
  }
}

TEST(ChannelRings, ChainsAlongOneOrderShareEveryHop) {
  // In one node every ring takes the same order, so C chains of n/C from GPU 0 move in step:
  // each hop's C messages leave one GPU's link together, as one message of n would. 8 GPUs on
  // a switch, links 100 GB/s (10 ps/B), no latency: 7 hops of n at 10 ps/B, whatever C (a
  // closed form that let the chains pass each other would say 7 x 10 n / C).
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 8;
  c.link = {100e9, 0, LinkKind::kNvlink, Duplex::kFull};
  const Topology t = build_topology(c);
  const Bytes n = 1 << 24;
  for (const CollectiveKind kind : {CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    CollectiveConfig config;
    config.channels = 4;
    ModelOptions model;
    model.channels = 4;
    EXPECT_EQ(simulate_collective(t, kind, AlgorithmKind::kRing, n, config).time_ps, 7 * 10 * n);
    EXPECT_NEAR(collective_cost(t, kind, AlgorithmKind::kRing, n, model).time_s(0), seconds_from_ps(7 * 10 * n), 1e-15);
    // Pipelined in 4 chunks under a library's latencies: still the same.
    config.chunks = model.chunks = 4;
    config.library = model.library = ProtocolCosts{ps_from_us(8), {ps_from_us(3), ps_from_us(5), ps_from_us(14)}, 0.8};
    const double sim = seconds_from_ps(simulate_collective(t, kind, AlgorithmKind::kRing, n, config).time_ps);
    EXPECT_NEAR(sim / collective_cost(t, kind, AlgorithmKind::kRing, n, model).time_s(0), 1.0, 1e-9);
  }
}

TEST(ChannelRings, ChainsRoundOneCycleFromDifferentGpusShareEveryHop) {
  // A cluster of one node: ring c runs c, c+1, .., c-1, a rotation of one cycle 0 -> 1 -> ..
  // -> 3 -> 0, so every chain from the root takes the same hops and they move in step, as
  // on a switch. 1 node x 4 GPUs (NVLink 10 ps/B, no latency), root 2, 4 chains of n/4: 3
  // hops of n at 10 ps/B (were the chains to pass each other, 3 x 10 n / 4).
  const Topology t = nodes_of_four(1, 100e9);
  ASSERT_NE(t.ring_order(1, 4), t.ring_order(0, 4));  // rotations: each ring starts elsewhere
  const Bytes n = 1 << 24;
  for (const CollectiveKind kind : {CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    CollectiveConfig config;
    config.channels = 4;
    config.root = 2;
    ModelOptions model;
    model.channels = 4;
    model.root = 2;
    EXPECT_EQ(simulate_collective(t, kind, AlgorithmKind::kRing, n, config).time_ps, 3 * 10 * n);
    EXPECT_NEAR(collective_cost(t, kind, AlgorithmKind::kRing, n, model).time_s(0), seconds_from_ps(3 * 10 * n), 1e-15);
  }
}

TEST(ChannelRings, SimulatorEqualsClosedFormUnderALibrary) {
  const Topology t = two_nodes(ps_from_ns(250));
  // Whole picoseconds per byte under efficiency 0.8: 12.5 and 50 ps/B.
  const ProtocolCosts library{ps_from_us(8), {ps_from_us(3), ps_from_us(5), ps_from_us(14)}, 0.8};
  for (const CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kAllGather, CollectiveKind::kReduceScatter}) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    CollectiveConfig config;
    config.channels = 4;
    config.library = library;
    ModelOptions model;
    model.channels = 4;
    model.library = library;
    const Bytes n = nccl_size(kind, 64 << 20, 8);
    const double sim = seconds_from_ps(simulate_collective(t, kind, AlgorithmKind::kRing, n, config).time_ps);
    EXPECT_NEAR(sim / collective_cost(t, kind, AlgorithmKind::kRing, n, model).time_s(0), 1.0, 1e-9);
  }
}

TEST(ChannelRings, TheCallsRateCapIsSharedByItsRings) {
  // A protocol capped at 5 GB/s a call (NCCL's llMaxBw caps a call's bus bandwidth, all
  // its channels together), below its share of any link (0.5 x 25 GB/s on a NIC): each of
  // the 4 rings' messages is a flow of its own at 5/4 GB/s (800 ps/B), also where several
  // rings send to the same next GPU. AllGather of n = 32 MiB: 7 steps of n/32 at 800 ps/B.
  const Topology t = two_nodes();
  const ProtocolCosts capped{0, {0, 0, 0}, 0.5, 5e9};
  const Bytes n = 1 << 25;
  CollectiveConfig config;
  config.channels = 4;
  config.library = capped;
  const TimePs sim = simulate_collective(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, config).time_ps;
  EXPECT_EQ(sim, 7 * (n / 32) * 800);
  ModelOptions model;
  model.channels = 4;
  model.library = capped;
  EXPECT_NEAR(collective_cost(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, model).time_s(0),
              seconds_from_ps(sim), 1e-15);
  // One ring has the whole cap: 7 steps of n/8 at 200 ps/B, the same time.
  config.channels = model.channels = 1;
  EXPECT_EQ(simulate_collective(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, n, config).time_ps, sim);
}

}  // namespace
}  // namespace commsim
