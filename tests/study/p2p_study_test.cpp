// P2P patterns beside the closed form: the protocol a library's P2P runs a pattern with,
// hand-derived arrivals, contention, and the patterns' messages.

#include "study/p2p_study.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

TEST(P2pProtocol, NcclRunsLLUnderItsThresholdPerChannelElseSimple) {
  // nccl: a send of at most 64 KiB runs on 1 channel inside a node, LL while it carries at
  // most 16 KiB (NCCL_P2P_LL_THRESHOLD): a 16 KiB send is LL, 16 KiB + 1 is Simple, though LL
  // would be faster by the closed form there (its lower latency); so is 64 MiB (4 channels).
  const Topology node = build_topology(default_topology_config());
  const LibraryProfile nccl = library_by_name("nccl", "test");
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 16 << 10), 0, nccl), Protocol::kLL);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, (16 << 10) + 1), 0, nccl), Protocol::kSimple);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, nccl), Protocol::kSimple);
  // Without a threshold, the least closed-form time: LL at 64 MiB (both capped at 80 GB/s).
  LibraryProfile by_time = nccl;
  by_time.p2p->ll_max_bytes_per_channel = 0;
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, by_time), Protocol::kLL);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, LibraryProfile{}), std::nullopt);
}

// A ring of 4 NPUs, 100 GB/s (10 ps per byte) and 1 us per link.
Topology ring4() {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 4;
  c.link = {100e9, ps_from_us(1), LinkKind::kNvlink, Duplex::kFull};
  return build_topology(c);
}

P2pPattern pattern(const std::string& name, Rank src = 0, Rank dst = 1) {
  P2pPattern p = parse_p2p_pattern(name, "test");
  p.src = src;
  p.dst = dst;
  return p;
}

TEST(P2pStudy, OneWayIsTheClosedFormExactly) {
  // 0 -> 1, one hop: 1 us + 2^20 B x 10 ps = 11.48576 us, simulated and closed form alike.
  int reported = 0;  // the progress callback: once per size
  P2pStudyOptions options;
  options.on_point = [&] { ++reported; };
  const P2pStudy study = study_p2p(ring4(), pattern("one-way"), {1 << 20}, options);
  EXPECT_EQ(reported, 1);
  ASSERT_TRUE(study.route);
  EXPECT_EQ(study.route->hops, 1u);
  ASSERT_EQ(study.points.size(), 1u);
  const P2pPoint& p = study.points[0];
  EXPECT_EQ(p.sim_ps, 11'485'760);
  EXPECT_NEAR(p.model_s, 11.48576e-6, 1e-15);
  EXPECT_NEAR(*p.sim_over_model, 1.0, 1e-9);
  EXPECT_NEAR(p.algbw_GBps, 1048576 / 11.48576e-6 / 1e9, 1e-9);
  EXPECT_EQ(p.channels, std::nullopt);  // the ideal library has no P2P channels
}

TEST(P2pStudy, ShiftOfTwoSharesEveryChannel) {
  // shift:2 on a 4-ring: every message goes two hops the positive way, so each directed
  // channel carries two flows at 50 GB/s: 2 us + 2^20 x 20 ps = 22.97152 us, against the
  // closed form alone 2 us + 2^20 x 10 ps = 12.48576 us.
  const P2pStudy study = study_p2p(ring4(), pattern("shift:2"), {1 << 20}, {});
  EXPECT_FALSE(study.route);
  const P2pPoint& p = study.points[0];
  ASSERT_EQ(p.messages.size(), 4u);
  for (const P2pMessageResult& m : p.messages) {
    EXPECT_EQ(m.sim_ps, 22'971'520);
    EXPECT_NEAR(m.model_s, 12.48576e-6, 1e-15);
  }
  EXPECT_EQ(p.sim_ps, 22'971'520);
  EXPECT_NEAR(*p.sim_over_model, 22.97152 / 12.48576, 1e-9);
}

TEST(P2pStudy, AllPairsRunEachAlone) {
  // Each directed pair alone: nothing shares, every arrival is its closed form (1 or 2 hops).
  const P2pStudy study = study_p2p(ring4(), pattern("all-pairs"), {1 << 20}, {});
  const P2pPoint& p = study.points[0];
  ASSERT_EQ(p.messages.size(), 12u);
  for (const P2pMessageResult& m : p.messages) EXPECT_NEAR(*m.sim_over_model, 1.0, 1e-9);
  EXPECT_EQ(p.sim_ps, 12'485'760);  // the two-hop pairs
}

TEST(P2pStudy, AllPairsLinkStatsAreTheRunsOneAfterAnother) {
  // The 8 one-hop pairs arrive at 11.48576 us, the 4 two-hop ones (0->2, 1->3, and on a tie
  // the positive way 2->3->0, 3->0->1) at 12.48576 us: T = 8 x 11.48576 + 4 x 12.48576 =
  // 141.82912 us. npu0 -> npu1 carries 0->1, 0->2 and 3->1, each alone: 3 MiB, busy
  // 3 x 10.48576 us, peak 1; npu1 -> npu0 only 1->0. Only the largest size is recorded.
  P2pStudyOptions options;
  options.record_link_stats = true;
  const P2pStudy study = study_p2p(ring4(), pattern("all-pairs"), {1024, 1 << 20}, options);
  EXPECT_FALSE(study.points[0].link_stats);
  ASSERT_NE(study.link_stats(), nullptr);
  const LinkStats& stats = *study.link_stats();
  EXPECT_EQ(stats.simulated_ps, 141'829'120);
  const LinkLoad& forward = stats.loads[0];   // link 0, npu0 -> npu1
  const LinkLoad& backward = stats.loads[1];  // npu1 -> npu0
  EXPECT_EQ(forward.bytes, 3.0 * (1 << 20));
  EXPECT_EQ(forward.busy_ps, 31'457'280);
  EXPECT_EQ(forward.peak_flows, 1u);
  EXPECT_DOUBLE_EQ(forward.utilisation, 31.45728 / 141.82912);
  EXPECT_EQ(backward.bytes, 1.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(backward.utilisation, 10.48576 / 141.82912);
}

TEST(P2pStudy, NcclSendsSpreadOverChannels) {
  // Inside a node of 8 NCCL starts a send on 4 channels and doubles them while one would
  // carry more than 16 MiB: 64 MiB on 4, 128 MiB on 8.
  P2pStudyOptions options;
  options.library = library_by_name("nccl", "test");
  const P2pStudy study =
      study_p2p(build_topology(default_topology_config()), pattern("one-way"), {64 << 20, 128 << 20}, options);
  EXPECT_EQ(study.points[0].channels, 4u);
  EXPECT_EQ(study.points[1].channels, 8u);
  EXPECT_EQ(study.points[1].protocol, Protocol::kSimple);
}

TEST(P2pStudy, PatternsAndTheirMisfits) {
  EXPECT_EQ(pattern("shift:3").shift, 3u);
  EXPECT_EQ(pattern("bidirectional").kind, P2pPattern::Kind::kBidirectional);
  EXPECT_THROW(parse_p2p_pattern("zigzag", "test"), InputError);
  EXPECT_THROW(parse_p2p_pattern("shift:0", "test"), InputError);
  EXPECT_EQ(p2p_pattern_misfit(pattern("shift:4"), 4), "every rank would send to itself on 4 NPUs");
  EXPECT_TRUE(p2p_pattern_misfit(pattern("all-pairs"), 1));
  EXPECT_FALSE(p2p_pattern_misfit(pattern("all-pairs"), 4096));
  EXPECT_EQ(p2p_pattern_misfit(pattern("all-pairs"), 4097),
            "runs each of the 16781312 pairs of 4097 NPUs alone; the limit is 4096 NPUs");
  EXPECT_TRUE(p2p_pattern_misfit(pattern("one-way", 2, 2), 4));
  EXPECT_FALSE(p2p_pattern_misfit(pattern("bidirectional", 3, 0), 4));
  EXPECT_THROW(study_p2p(ring4(), pattern("one-way", 0, 4), {1}, {}), InputError);
  // Bidirectional: both directions, in that order.
  const std::vector<Message> both = p2p_pattern_messages(pattern("bidirectional", 3, 0), 4, 8);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].src, 0u);
  EXPECT_EQ(both[1].dst, 3u);
  EXPECT_EQ(both[1].bytes, 8u);
}

}  // namespace
}  // namespace commsim
