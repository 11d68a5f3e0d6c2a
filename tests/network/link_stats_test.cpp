// Per-link statistics (network/link_stats.h) against hand-derived values. Links of 100 GB/s
// take 10 ps per byte, so S = 2^20 B takes exactly 10,485,760 ps alone on a link.

#include "network/link_stats.h"

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "network/concurrent_messages.h"
#include "network/network.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

constexpr Bytes kS = 1 << 20;
constexpr BandwidthBps kB = 100e9;
constexpr TimePs kLatency = 1'000'000;  // 1 us per link

// npu0, npu1, npu2 each joined to switch sw by a link of 100 GB/s and 1 us (npu i is link i's
// first end, so channel 2i goes into the switch and 2i + 1 out of it).
Topology star() {
  TopologyBuilder b("star", "test");
  for (const char* name : {"npu0", "npu1", "npu2"}) b.add_npu(name);
  const VertexId sw = b.add_switch("sw");
  for (VertexId npu = 0; npu < 3; ++npu) b.add_link(npu, sw, {kB, kLatency, LinkKind::kNvlink, Duplex::kFull});
  return std::move(b).build();
}

const LinkLoad& load_of(const LinkStats& stats, LinkId link, LinkDirection direction) {
  for (const LinkLoad& load : stats.loads) {
    if (load.link == link && load.direction == direction) return load;
  }
  throw std::logic_error("no such load");
}

TEST(LinkStats, TwoSendersIntoOneReceiverThroughASwitch) {
  // npu0 and npu1 each send S to npu2 at once. Both routes end on sw -> npu2, so max-min
  // gives each flow 50 GB/s (20 ps/B) on its whole route: both flows run from 0 to
  // S x 20 ps = 20,971,520 ps and arrive 2 hops (2 us) later: T = 22,971,520 ps.
  //   sw -> npu2        2S bytes, busy 20,971,520 ps, peak 2, utilisation 2S x 10 ps / T
  //   npu0/1 -> sw      S bytes, busy 20,971,520 ps (at half rate throughout), peak 1,
  //                     utilisation S x 10 ps / T
  //   every other way   nothing
  const Topology t = star();
  LinkStats stats;
  const auto arrivals = simulate_concurrent_messages(t, 0, {{0, 2, kS}, {1, 2, kS}}, {}, std::nullopt, &stats);
  ASSERT_EQ(arrivals, (std::vector<TimePs>{22'971'520, 22'971'520}));
  ASSERT_EQ(stats.loads.size(), 6u);  // 3 full-duplex links, 2 directions each
  EXPECT_EQ(stats.simulated_ps, 22'971'520);

  const LinkLoad& into_npu2 = load_of(stats, 2, LinkDirection::kBackward);
  EXPECT_EQ(into_npu2.bytes, 2.0 * kS);
  EXPECT_EQ(into_npu2.busy_ps, 20'971'520);
  EXPECT_EQ(into_npu2.peak_flows, 2u);
  EXPECT_DOUBLE_EQ(into_npu2.utilisation, 20'971'520.0 / 22'971'520.0);
  EXPECT_EQ(into_npu2.bandwidth_Bps, kB);
  for (const LinkId sender : {0u, 1u}) {
    const LinkLoad& out = load_of(stats, sender, LinkDirection::kForward);
    EXPECT_EQ(out.bytes, 1.0 * kS);
    EXPECT_EQ(out.busy_ps, 20'971'520);
    EXPECT_EQ(out.peak_flows, 1u);
    EXPECT_DOUBLE_EQ(out.utilisation, 10'485'760.0 / 22'971'520.0);
    const LinkLoad& back = load_of(stats, sender, LinkDirection::kBackward);
    EXPECT_EQ(back.bytes, 0.0);
    EXPECT_EQ(back.busy_ps, 0);
    EXPECT_EQ(back.peak_flows, 0u);
  }
  EXPECT_EQ(load_of(stats, 2, LinkDirection::kForward).bytes, 0.0);

  // The hottest: sw -> npu2, then the two senders' links in link order; idle ones left out.
  const std::vector<LinkLoad> hottest = hottest_links(stats);
  ASSERT_EQ(hottest.size(), 3u);
  EXPECT_EQ(hottest[0].link, 2u);
  EXPECT_EQ(hottest[1].link, 0u);
  EXPECT_EQ(hottest[2].link, 1u);
  EXPECT_EQ(hottest_links(stats, 1).size(), 1u);
}

TEST(LinkStats, HalfDuplexLinkIsOneRowForBothDirections) {
  // n0 -- n1, half duplex, 100 GB/s, 1 us, 0.8 of it both ways at once. S each way at once:
  // 80 GB/s in all, 40 GB/s (25 ps/B) each, both flows run from 0 to S x 25 ps =
  // 26,214,400 ps and arrive 1 us later, T = 27,214,400 ps. The link's one row: 2S bytes,
  // busy 26,214,400 ps, peak 2, utilisation 2S x 10 ps / T (against the full 100 GB/s).
  TopologyBuilder b("pair", "test");
  b.add_npu("n0");
  b.add_npu("n1");
  b.add_link(0, 1, {kB, kLatency, LinkKind::kEthernet, Duplex::kHalf, 0.8});
  const Topology t = std::move(b).build();
  LinkStats stats;
  const auto arrivals = simulate_concurrent_messages(t, 0, {{0, 1, kS}, {1, 0, kS}}, {}, std::nullopt, &stats);
  ASSERT_EQ(arrivals, (std::vector<TimePs>{27'214'400, 27'214'400}));
  EXPECT_EQ(stats.simulated_ps, 27'214'400);
  ASSERT_EQ(stats.loads.size(), 1u);
  const LinkLoad& link = stats.loads[0];
  EXPECT_EQ(link.direction, LinkDirection::kBoth);
  EXPECT_EQ(link.bytes, 2.0 * kS);
  EXPECT_EQ(link.busy_ps, 26'214'400);
  EXPECT_EQ(link.peak_flows, 2u);
  EXPECT_DOUBLE_EQ(link.utilisation, 20'971'520.0 / 27'214'400.0);
}

TEST(LinkStats, BytesAreOnTheWireUnderAProtocolsEfficiency) {
  // Efficiency 0.5 (LL): S of data is 2S on the wire, which the link moves in 2S x 10 ps.
  const Topology t = star();
  LinkStats stats;
  ProtocolCosts ll;
  ll.efficiency = 0.5;
  const auto arrivals = simulate_concurrent_messages(t, 0, {{0, 1, kS}}, ll, std::nullopt, &stats);
  ASSERT_EQ(arrivals[0], 20'971'520 + 2 * kLatency);
  EXPECT_EQ(load_of(stats, 0, LinkDirection::kForward).bytes, 2.0 * kS);
  EXPECT_EQ(load_of(stats, 1, LinkDirection::kBackward).busy_ps, 20'971'520);
}

TEST(LinkStats, BusyTimeIsTheUnionOfIntervalsWithAFlow) {
  // On one resource: flows over [0, 10] and [5, 20] overlap (busy 20); [30, 40] after a gap
  // adds 10: busy 30, not the 35 the intervals sum to. A flow still on at T = 50 that started
  // at 45 counts up to T: 35; one still on that started after T adds nothing.
  LinkUse use;
  use.flow_started(1, 1, 0);
  use.flow_started(1, 2, 5);
  use.flow_finished(1, 10);
  use.flow_finished(0, 20);
  use.flow_started(1, 1, 30);
  use.flow_finished(0, 40);
  EXPECT_EQ(use.busy_until(40, 0), 30);
  EXPECT_EQ(use.wire_bytes, 3.0);
  use.flow_started(1, 1, 45);
  EXPECT_EQ(use.busy_until(50, 1), 35);
  EXPECT_EQ(use.busy_until(44, 1), 30);
}

TEST(LinkStats, NetworkRecordsOverlappingAndLaterFlows) {
  // npu0 -> npu1 through the switch, S each: A at 0; B at 5,242,880 ps, when A has sent S/2.
  // Then both get 50 GB/s: A's last S/2 takes 10,485,760 ps (A ends at 15,728,640), B has
  // sent S/2 by then and sends the rest alone in 5,242,880 ps (ends at 20,971,520). C at
  // 30,000,000 ps runs alone to 40,485,760. Channel 0 (npu0 -> sw): busy 20,971,520 +
  // 10,485,760 = 31,457,280 ps, 3S bytes, peak 2.
  const Topology t = star();
  Engine engine;
  Network network(engine, t);
  for (const TimePs at : {TimePs{0}, TimePs{5'242'880}, TimePs{30'000'000}}) {
    engine.schedule_at(at, [&network] { network.send(0, 1, kS, [] {}, SendOptions{}); });
  }
  engine.run();
  ASSERT_EQ(engine.now(), 40'485'760 + 2 * kLatency);
  const LinkStats stats = network.link_stats(engine.now());
  const LinkLoad& out = load_of(stats, 0, LinkDirection::kForward);
  EXPECT_EQ(out.busy_ps, 31'457'280);
  EXPECT_EQ(out.bytes, 3.0 * kS);
  EXPECT_EQ(out.peak_flows, 2u);
  EXPECT_EQ(load_of(stats, 1, LinkDirection::kBackward).busy_ps, 31'457'280);
  EXPECT_EQ(load_of(stats, 1, LinkDirection::kForward).busy_ps, 0);
}

TEST(LinkStats, RunsOneAfterAnotherAddUp) {
  // Two runs of T = 100 ps and 300 ps: link 0 forward carried 1 B (utilisation 1 / (1e11 x
  // 1e-10) = 0.1) then 6 B (0.2) at 100 GB/s; together 7 B over 400 ps: 7 / 40 = 0.175 (not
  // the mean of 0.1 and 0.2); busy 10 + 30, peak max(1, 2).
  LinkStats first{100, {{0, LinkDirection::kForward, kB, 1, 10, 1, 0.1}}};
  const LinkStats second{300, {{0, LinkDirection::kForward, kB, 6, 30, 2, 0.2}}};
  append_run(first, second);
  EXPECT_EQ(first.simulated_ps, 400);
  EXPECT_EQ(first.loads[0].bytes, 7.0);
  EXPECT_EQ(first.loads[0].busy_ps, 40);
  EXPECT_EQ(first.loads[0].peak_flows, 2u);
  EXPECT_DOUBLE_EQ(first.loads[0].utilisation, 0.175);
  LinkStats empty;
  append_run(empty, second);
  EXPECT_EQ(empty.simulated_ps, 300);
}

}  // namespace
}  // namespace commsim
