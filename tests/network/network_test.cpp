// The flow model against hand-derived times. Bandwidths are chosen so that a byte takes a
// whole number of picoseconds (50 GB/s = 20 ps/B), so idle-network times are exact.

#include "network/network.h"

#include <gtest/gtest.h>

#include <cmath>

#include "model/p2p_model.h"
#include "network/concurrent_messages.h"
#include "topology/builders.h"
#include "topology/spec_file.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;
constexpr Bytes kGiB = 1 << 30;

TimePs one_message(const Topology& t, Rank src, Rank dst, Bytes bytes, TimePs overhead = 0) {
  return simulate_concurrent_messages(t, overhead, {{src, dst, bytes}})[0];
}

std::vector<TopologyConfig> every_kind() {
  LinkParams link{50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull};
  LinkParams nic{25e9, ps_from_ns(700), LinkKind::kInfiniband, Duplex::kFull};
  std::vector<TopologyConfig> configs;
  const auto add = [&](TopologyKind kind, auto&& set) {
    TopologyConfig c;
    c.kind = kind;
    c.link = link;
    c.nic = nic;
    set(c);
    configs.push_back(c);
  };
  add(TopologyKind::kRing, [](TopologyConfig& c) { c.npus = 8; });
  add(TopologyKind::kSwitch, [](TopologyConfig& c) { c.npus = 8; });
  add(TopologyKind::kFullyConnected, [](TopologyConfig& c) { c.npus = 8; });
  add(TopologyKind::kTree, [](TopologyConfig& c) {
    c.npus = 16;
    c.oversubscription = {8};  // leaf uplinks: 2 * 50 / 8 = 12.5 GB/s (80 ps/B), the bottleneck
  });
  add(TopologyKind::kHierarchical, [](TopologyConfig& c) {
    c.nodes = 4;
    c.gpus_per_node = 4;
    c.leaf_size = 2;
  });
  add(TopologyKind::kMesh, [](TopologyConfig& c) { c.dims = {4, 4}; });
  add(TopologyKind::kTorus, [](TopologyConfig& c) { c.dims = {4, 4, 4}; });
  add(TopologyKind::kTorus, [](TopologyConfig& c) { c.link.duplex = Duplex::kHalf; c.dims = {3, 5}; });
  return configs;
}

TEST(Network, IdleRouteTakesExactlyTheClosedFormOnEveryKind) {
  const TimePs overhead = ps_from_us(2);
  for (const TopologyConfig& config : every_kind()) {
    const Topology t = build_topology(config);
    const Rank last = static_cast<Rank>(t.npu_count() - 1);
    for (const auto& [src, dst] : std::vector<std::pair<Rank, Rank>>{{0, 1}, {0, last}, {last, 2}}) {
      for (const Bytes bytes : {Bytes{1}, kMiB, kGiB}) {
        SCOPED_TRACE(t.name() + " " + std::to_string(src) + "->" + std::to_string(dst) + " " +
                     std::to_string(bytes) + " B");
        const double sim = seconds_from_ps(one_message(t, src, dst, bytes, overhead));
        const double model = p2p_time_s(path_params(t, src, dst), seconds_from_ps(overhead), bytes);
        EXPECT_LT(std::abs(sim - model) / model, 1e-9) << sim << " vs " << model;
      }
    }
  }
}

TEST(Network, IdleRouteHandDerived) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.link = {50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull};
  const Topology t = build_topology(c);
  // o + 2 hops * 300 ns + 2^20 B * 20 ps/B = 2,000,000 + 600,000 + 20,971,520 ps.
  EXPECT_EQ(one_message(t, 3, 7, kMiB, ps_from_us(2)), 23'571'520);
  // A zero-byte message pays o and the latency only.
  EXPECT_EQ(one_message(t, 3, 7, 0, ps_from_us(2)), 2'600'000);
}

TEST(Network, ShippedSystemsAgreeWithTheClosedFormToThePicosecond) {
  // 450 GB/s is 2.22 ps per byte: the simulator rounds each transfer to the clock's
  // resolution, so it may differ from the real-valued closed form by half a picosecond.
  for (const char* file : {"h100-nvswitch-node", "h200-nvswitch-node", "a100-nvswitch-node", "b200-nvswitch-node",
                           "h100-2node-ib", "h100-ib-cluster", "b200-ib-cluster", "a100-ib-cluster", "pcie-4gpu-box",
                           "pcie-2080ti-pair-no-p2p", "torus-4x4x4"}) {
    const Topology t =
        load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/" + file + ".textproto");
    const Rank last = static_cast<Rank>(t.npu_count() - 1);
    for (const Bytes bytes : {Bytes{1}, kMiB, kGiB}) {
      SCOPED_TRACE(std::string(file) + " " + std::to_string(bytes));
      const double sim_ps = static_cast<double>(one_message(t, 0, last, bytes));
      const double model_ps = p2p_time_s(path_params(t, 0, last), 0, bytes) * 1e12;
      EXPECT_LE(std::abs(sim_ps - model_ps), 0.5 + 1e-3);  // + double rounding of the model
    }
  }
}

// Two NPUs joined by one link of 100 GB/s (10 ps per byte) and 1 us.
Topology pair(Duplex duplex) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 2;
  c.link = {100e9, ps_from_us(1), LinkKind::kOther, duplex};
  return build_topology(c);
}

TEST(Network, TwoFlowsOnOneChannelEachGetHalf) {
  // Alone: 1 us + 2^20 * 10 ps = 11,485,760 ps. Sharing: each at 50 GB/s, so the transfer
  // takes twice as long: 1 us + 20,971,520 ps.
  const Topology t = pair(Duplex::kFull);
  EXPECT_EQ(one_message(t, 0, 1, kMiB), 11'485'760);
  const auto arrivals = simulate_concurrent_messages(t, 0, {{0, 1, kMiB}, {0, 1, kMiB}});
  EXPECT_EQ(arrivals, (std::vector<TimePs>{21'971'520, 21'971'520}));
}

TEST(Network, OppositeDirectionsOfAFullDuplexLinkDoNotSlowEachOther) {
  const auto arrivals = simulate_concurrent_messages(pair(Duplex::kFull), 0, {{0, 1, kMiB}, {1, 0, kMiB}});
  EXPECT_EQ(arrivals, (std::vector<TimePs>{11'485'760, 11'485'760}));
}

TEST(Network, OppositeDirectionsOfAHalfDuplexLinkShareIt) {
  const auto arrivals = simulate_concurrent_messages(pair(Duplex::kHalf), 0, {{0, 1, kMiB}, {1, 0, kMiB}});
  EXPECT_EQ(arrivals, (std::vector<TimePs>{21'971'520, 21'971'520}));
}

TEST(Network, AHalfDuplexLinkUsedBothWaysLosesItsBothWaysEfficiency) {
  // At 0.8 both ways the link carries 80 GB/s in all, 40 GB/s (25 ps per byte) each way:
  // 1 us + 2^20 * 25 ps = 27,214,400 ps. Two flows the same way still share the full 100
  // GB/s (21,971,520 ps, as above); once the flow going the other way ends, the survivor
  // speeds up: with 2^20 and 2^21 B, the first ends at 1 us + 2^20 * 25 ps, the second has
  // 2^20 B left, moved at 10 ps per byte: 1 us + 2^20 * 35 ps = 37,700,160 ps.
  Topology t = pair(Duplex::kHalf);
  t.set_both_ways_efficiency(0.8);
  EXPECT_EQ(simulate_concurrent_messages(t, 0, {{0, 1, kMiB}, {1, 0, kMiB}}),
            (std::vector<TimePs>{27'214'400, 27'214'400}));
  EXPECT_EQ(simulate_concurrent_messages(t, 0, {{0, 1, kMiB}, {0, 1, kMiB}}),
            (std::vector<TimePs>{21'971'520, 21'971'520}));
  EXPECT_EQ(simulate_concurrent_messages(t, 0, {{0, 1, kMiB}, {1, 0, 2 * kMiB}}),
            (std::vector<TimePs>{27'214'400, 37'700'160}));
  EXPECT_EQ(one_message(t, 1, 0, kMiB), 11'485'760);  // alone: the full link
}

// n0 --(10 GB/s)-- n1 --(20 GB/s)-- n2, no latency.
Topology line() {
  TopologyBuilder b("line", "test");
  b.add_npu("n0");
  b.add_npu("n1");
  b.add_npu("n2");
  b.add_link(0, 1, {10e9, 0, LinkKind::kOther, Duplex::kFull});
  b.add_link(1, 2, {20e9, 0, LinkKind::kOther, Duplex::kFull});
  return std::move(b).build();
}

TEST(Network, FlowFinishingMidwaySpeedsUpTheOthers) {
  // A: n0->n2 3 MB over both links; B: n0->n1 1 MB; C: n1->n2 6 MB.
  // 0-200 us: max-min gives A = B = 5 GB/s (link 1 shared), C = 15 GB/s (rest of link 2).
  //   B has moved 1 MB and finishes at 200 us; A has moved 1 MB, C 3 MB.
  // 200-400 us: A alone on link 1 could have 10; link 2 shares 20 between A and C: 10 each.
  //   A moves its last 2 MB and finishes at 400 us; C has 1 MB left.
  // 400 us on: C alone on link 2 at 20 GB/s: 1 MB in 50 us, finishing at 450 us.
  const auto arrivals = simulate_concurrent_messages(
      line(), 0, {{0, 2, 3'000'000}, {0, 1, 1'000'000}, {1, 2, 6'000'000}});
  EXPECT_EQ(arrivals, (std::vector<TimePs>{ps_from_us(400), ps_from_us(200), ps_from_us(450)}));
}

TEST(Network, ARunEndsAtItsLastArrivalNotAtACompletionTimeARateChangeMoved) {
  // On the 100 GB/s pair, 2^20 B and 2^19 B at once: 50 GB/s each, so the first is due at
  // 2^20 x 20 ps = 20,971,520 ps. The second ends at 2^19 x 20 = 10,485,760 ps; the first,
  // then alone with 2^19 B left at 10 ps/B, ends at 15,728,640 and arrives 1 us later. The
  // engine's clock stops there (pipeline and replay read it as the run's time), not at the
  // first rate's due time.
  const Topology t = pair(Duplex::kFull);
  Engine engine;
  Network network(engine, t);
  std::vector<TimePs> arrivals;
  for (const Bytes bytes : {kMiB, kMiB / 2}) {
    network.send(0, 1, bytes, [&] { arrivals.push_back(engine.now()); }, SendOptions{});
  }
  engine.run();
  EXPECT_EQ(arrivals, (std::vector<TimePs>{11'485'760, 16'728'640}));
  EXPECT_EQ(engine.now(), 16'728'640);
  EXPECT_EQ(engine.pending_events(), 0u);
}

TEST(Network, FlowsLeavingASharedLinkInAnyOrderLeaveTheOthersTheirShare) {
  // 4, 1, 3 and 2 MB on one 100 GB/s channel (1 us latency): 25 GB/s each until the 1 MB
  // flow ends at 40 us (each has moved 1 MB); then 100/3 GB/s each, so the 2 MB flow's last
  // MB takes 30 us (70 us); then 50 GB/s each, the 3 MB flow's last MB in 20 us (90 us);
  // then the 4 MB flow alone, its last MB in 10 us (100 us). Arrivals 1 us later. The flows
  // leave the link's list out of order, so each departure moves another flow in the list.
  const auto arrivals = simulate_concurrent_messages(
      pair(Duplex::kFull), 0, {{0, 1, 4'000'000}, {0, 1, 1'000'000}, {0, 1, 3'000'000}, {0, 1, 2'000'000}});
  EXPECT_EQ(arrivals, (std::vector<TimePs>{ps_from_us(101), ps_from_us(41), ps_from_us(91), ps_from_us(71)}));
}

TEST(Network, RateCapBoundsAFlow) {
  Engine engine;
  const Topology t = pair(Duplex::kFull);
  Network network(engine, t);
  TimePs capped = 0;
  TimePs free = 0;
  network.send(0, 1, kMiB, [&] { capped = engine.now(); }, SendOptions{25e9});
  network.send(0, 1, kMiB, [&] { free = engine.now(); });
  engine.run();
  // The capped flow runs at 25 GB/s (40 ps/B) throughout; the other takes the remaining
  // 75 GB/s: 2^20 B / 75e9 B/s = 13,981,013.3 ps, rounded to the picosecond.
  EXPECT_EQ(capped, ps_from_us(1) + 41'943'040);
  EXPECT_EQ(free, ps_from_us(1) + 13'981'013);
}

TEST(Network, AProtocolsFlagsTakeTheirShareOfASharedLink) {
  // LL: efficiency 1/2 (8 data bytes in 16 on the wire), 60 GB/s cap on data.
  // Alone on the 100 GB/s channel: min(0.5 x 100, 60) = 50 GB/s of data, 20 ps/B.
  // Two at once: 2 MiB of wire each share 100 GB/s: 50 GB/s of wire, 25 GB/s of data each,
  // 40 ps/B; a cap on data alone would have let both run at 50.
  const ProtocolCosts ll{0, {}, 0.5, 60e9};
  const auto run = [&](std::size_t flows) {
    Engine engine;
    const Topology t = pair(Duplex::kFull);
    Network network(engine, t);
    std::vector<TimePs> arrivals;
    for (std::size_t i = 0; i < flows; ++i) {
      network.send(0, 1, kMiB, [&] { arrivals.push_back(engine.now()); }, SendOptions{MaxMinProblem::kNoCap, &ll});
    }
    engine.run();
    return arrivals;
  };
  EXPECT_EQ(run(1), (std::vector<TimePs>{ps_from_us(1) + 20'971'520}));
  EXPECT_EQ(run(2), (std::vector<TimePs>{ps_from_us(1) + 41'943'040, ps_from_us(1) + 41'943'040}));
}

TEST(Network, RatesAreRecomputedOncePerInstantAndOnlyWhereFlowsShareChannels) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 8;
  const Topology t = build_topology(c);
  Engine engine;
  Network network(engine, t);
  int arrived = 0;
  for (Rank r = 0; r < 8; ++r) network.send(r, (r + 1) % 8, kMiB, [&] { ++arrived; });
  engine.run();
  EXPECT_EQ(arrived, 8);
  // All start together: one recomputation. They finish together, each leaving its link
  // empty, which changes no rate: none.
  EXPECT_EQ(network.rate_recomputations(), 1u);
  EXPECT_EQ(network.flow_rate_evaluations(), 8u);

  // A long flow 0->1 and a short flow 4->5 share nothing: the short one's start and end
  // do not re-evaluate the long one.
  Engine engine2;
  Network network2(engine2, t);
  network2.send(0, 1, kGiB, [] {});
  engine2.schedule_at(ps_from_us(1), [&] { network2.send(4, 5, kMiB, [] {}); });
  engine2.run();
  EXPECT_EQ(network2.rate_recomputations(), 2u);    // at the two starts only
  EXPECT_EQ(network2.flow_rate_evaluations(), 2u);  // each flow once, when it started

  // Two flows 0->1 of 1 MiB and 2 MiB share the link: when the short one finishes, the
  // long one is re-evaluated (and speeds up).
  Engine engine3;
  Network network3(engine3, t);
  network3.send(0, 1, kMiB, [] {});
  network3.send(0, 1, 2 * kMiB, [] {});
  engine3.run();
  EXPECT_EQ(network3.rate_recomputations(), 2u);
  EXPECT_EQ(network3.flow_rate_evaluations(), 3u);
}

TEST(Network, AFlowRatedAsItStartsIsPostedInTheOrderOfAnInstantsOtherChanges) {
  // Ring of 8 at 50 GB/s (20 ps/B), 300 ns a link. A (1 MiB) and B (2 MiB) share link 0->1
  // at 25 GB/s each: A's last byte leaves at 2^21 x 20 = 41,943,040 ps (tA), B has 1 MiB
  // left. D, alone on 4->5 with 2,082,152 B, arrives at 2,082,152 x 20 + 300,000 = tA and
  // sends C (1 MiB, alone on 2->3). At tA, A's end (posted first) changes link 0->1 before
  // C starts, so B is rated before C: both are due at tA + 2^20 x 20 = 62,914,560 ps, and
  // arrive 300 ns later, B first.
  const Topology t = build_topology(every_kind()[0]);
  Engine engine;
  Network network(engine, t);
  std::vector<std::pair<char, TimePs>> arrivals;
  const auto arrive = [&](char name) { return [&, name] { arrivals.emplace_back(name, engine.now()); }; };
  network.send(0, 1, kMiB, arrive('A'));
  network.send(0, 1, 2 * kMiB, arrive('B'));
  network.send(4, 5, 2'082'152, [&] {
    arrive('D')();
    network.send(2, 3, kMiB, arrive('C'));
  });
  engine.run();
  EXPECT_EQ(arrivals, (std::vector<std::pair<char, TimePs>>{
                          {'D', 41'943'040}, {'A', 42'243'040}, {'B', 63'214'560}, {'C', 63'214'560}}));
}

TEST(Network, MessageToItselfArrivesAfterTheOverhead) {
  EXPECT_EQ(one_message(pair(Duplex::kFull), 1, 1, kMiB, ps_from_us(3)), ps_from_us(3));
}

}  // namespace
}  // namespace commsim
