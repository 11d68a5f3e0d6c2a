// A collective beside its closed form and bound, as one library call: hand-derived points,
// agreement on an idle network, NCCL's choice, the fastest block, and the checks made before
// any simulation.

#include "study/collective_study.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "base/error.h"
#include "collective/algorithms.h"
#include "model/p2p_model.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;

// 50 GB/s is 20 ps per byte exactly, so the integer clock rounds nothing.
Topology built(TopologyKind kind, std::uint32_t npus) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.link = {50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull};
  return build_topology(c);
}

TEST(CollectiveStudy, RingAllReduceOnASwitchAsDerived) {
  // 4 NPUs on a switch: a message crosses 2 hops (600 ns) at 50 GB/s. Ring AllReduce of
  // n = 4 MiB is 2(p-1) = 6 steps of n/p = 1 MiB, each 600 ns + 2^20 x 20 ps = 21.57152 us,
  // with o = 1 us on each: 6 x 22.57152 = 135.42912 us. No two flows share a channel, so the
  // simulator gives the closed form exactly.
  // Bound (Chan et al.): a + 2(p-1)/p n b = (1 + 0.6) us + 1.5 x 4 MiB x 20 ps = 127.42912 us.
  CollectiveStudyOptions options;
  options.run.overhead_ps = ps_from_us(1);
  const CollectivePoint point = run_collective_point(built(TopologyKind::kSwitch, 4), CollectiveKind::kAllReduce,
                                                     AlgorithmKind::kRing, 4 * kMiB, options);
  EXPECT_EQ(point.algorithm, AlgorithmKind::kRing);
  EXPECT_EQ(point.protocol, std::nullopt);
  EXPECT_EQ(point.sim_ps, 135'429'120);
  EXPECT_NEAR(point.model_s, 135.42912e-6, 1e-15);
  EXPECT_NEAR(point.bound_s, 127.42912e-6, 1e-15);
  ASSERT_TRUE(point.sim_over_model);
  EXPECT_NEAR(*point.sim_over_model, 1.0, 1e-9);
  // algbw = 4 MiB / 135.42912 us; busbw = algbw x 2(p-1)/p.
  EXPECT_NEAR(point.algbw_GBps, 4194304 / 135.42912e-6 / 1e9, 1e-9);
  EXPECT_NEAR(point.busbw_GBps, point.algbw_GBps * 1.5, 1e-12);
}

TEST(CollectiveStudy, SimulatorEqualsClosedFormOnAnIdleNetworkUnderAProfile) {
  // A profile of whole picoseconds per byte (0.8 x 50 GB/s = 25 ps/B): the library's costs
  // apply to both sides alike, so they still agree to 1e-9.
  LibraryProfile whole;
  whole.name = "whole";
  whole.protocols = {{Protocol::kSimple, {ps_from_us(7), {ps_from_ns(600), ps_from_ns(1500), ps_from_ns(2700)}, 0.8}}};
  const Topology t = built(TopologyKind::kSwitch, 8);
  for (const LibraryProfile& library : {LibraryProfile{}, whole}) {
    CollectiveStudyOptions options;
    options.library = library;
    for (const AlgorithmKind a : {AlgorithmKind::kDirect, AlgorithmKind::kRecursiveDoubling,
                                  AlgorithmKind::kRabenseifner, AlgorithmKind::kBruck, AlgorithmKind::kPairwise}) {
      for (const CollectiveKind kind : all_collectives()) {
        if (inapplicable_reason(kind, a, t)) continue;
        SCOPED_TRACE(library.name + " " + std::string(algorithm_name(a)) + " " + std::string(collective_name(kind)));
        const CollectivePoint p = run_collective_point(t, kind, a, nccl_size(kind, 16 * kMiB, 8), options);
        ASSERT_TRUE(p.sim_over_model);
        EXPECT_NEAR(*p.sim_over_model, 1.0, 1e-9);
        EXPECT_GE(seconds_from_ps(p.sim_ps), p.bound_s * (1 - 1e-9));
      }
    }
  }
}

TEST(CollectiveStudy, ACollectivesBandwidthFactorAsDerived) {
  // AllToAll of 4 MiB on 4 NPUs, direct, under a Simple profile (call 7 us, 600 ns a step)
  // with AllToAll at 0.5 of the link: each NPU sends 3 blocks of 1 MiB at once through its
  // 50 GB/s link, now 25 GB/s of data: 3 x 2^20 B x 40 ps = 125.82912 us, after the call,
  // the step and two 300 ns hops: 7 + 0.6 + 0.6 + 125.82912 = 134.02912 us, in the
  // simulator and the closed form. AllGather, with no factor, keeps the link's 50 GB/s.
  LibraryProfile library;
  library.name = "halved";
  library.protocols = {{Protocol::kSimple, {ps_from_us(7), {ps_from_ns(600), 0, 0}, 1.0}}};
  library.collective_bandwidth = {{CollectiveKind::kAllToAll, 0.5}};
  CollectiveStudyOptions options;
  options.library = library;
  const Topology t = built(TopologyKind::kSwitch, 4);
  const CollectivePoint a2a = run_collective_point(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 4 * kMiB, options);
  EXPECT_EQ(a2a.sim_ps, 134'029'120);
  EXPECT_NEAR(a2a.model_s, 134.02912e-6, 1e-15);
  // AllGather of 4 MiB, direct: the same 3 blocks of 1 MiB at 20 ps a byte.
  const CollectivePoint ag = run_collective_point(t, CollectiveKind::kAllGather, AlgorithmKind::kDirect, 4 * kMiB, options);
  EXPECT_EQ(ag.sim_ps, 7'000'000 + 1'200'000 + 62'914'560);
}

TEST(CollectiveStudy, AllToAllSendsAreCappedByTheP2pChannelsOfTheirRoute) {
  // Two nodes of one GPU on 50 GB/s NICs; a library whose sends to another node run on 2
  // channels of 10 GB/s (NCCL's P2P, as send/recv). NCCL's AllToAll is such sends: of 2 MiB,
  // 1 MiB to the other rank at 20 GB/s (50 ps a byte), not the NIC's 50 GB/s:
  //   7 us call + 2 us network step + the path's latency + 2^20 x 50 ps,
  // in the simulator and the closed form. A ring AllGather runs on NCCL's rings, not P2P:
  // 1 MiB at the NIC's 20 ps a byte.
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 1;
  c.link = {100e9, 0, LinkKind::kNvlink, Duplex::kFull};
  c.nic = {50e9, ps_from_us(1), LinkKind::kInfiniband, Duplex::kFull};
  const Topology t = build_topology(c);
  LibraryProfile library;
  library.name = "p2p-capped";
  library.protocols = {{Protocol::kSimple, {ps_from_us(7), {0, 0, ps_from_us(2)}, 1.0}}};
  const double inf = std::numeric_limits<double>::infinity();
  library.p2p = P2pChannels{1, 1, Bytes{1} << 30, 2, {inf, inf, 10e9}, 0};
  CollectiveStudyOptions options;
  options.library = library;
  const TimePs path_ps = path_params(t, 0, 1).latency_ps;
  const CollectivePoint a2a = run_collective_point(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 2 * kMiB, options);
  EXPECT_EQ(a2a.sim_ps, ps_from_us(9) + path_ps + 52'428'800);
  ASSERT_TRUE(a2a.sim_over_model);
  EXPECT_NEAR(*a2a.sim_over_model, 1.0, 1e-9);
  const CollectivePoint ag = run_collective_point(t, CollectiveKind::kAllGather, AlgorithmKind::kRing, 2 * kMiB, options);
  EXPECT_EQ(ag.sim_ps, ps_from_us(9) + path_ps + 20'971'520);
  // AllToAll at a bandwidth factor of 0.8 moves 0.8 of the channels' 20 GB/s: 62.5 ps a byte.
  options.library.collective_bandwidth = {{CollectiveKind::kAllToAll, 0.8}};
  const CollectivePoint slower = run_collective_point(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 2 * kMiB, options);
  EXPECT_EQ(slower.sim_ps, ps_from_us(9) + path_ps + 65'536'000);
  EXPECT_NEAR(*slower.sim_over_model, 1.0, 1e-9);
  options.library.collective_bandwidth.clear();
  // Without P2P channels the AllToAll send takes the NIC's rate too.
  options.library.p2p.reset();
  EXPECT_EQ(run_collective_point(t, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 2 * kMiB, options).sim_ps,
            ps_from_us(9) + path_ps + 20'971'520);
}

TEST(CollectiveStudy, ALibraryPipelinesAChainAsDeepAsItPays) {
  // Broadcast as NCCL runs it, a chain through 8 NPUs on a switch (50 GB/s, 300 ns a hop,
  // 600 ns a route) under NCCL's Simple row: C chunks take (p - 2 + C) stages of
  // alpha + n/C beta, alpha = 3.4 us + 0.6 us = 4 us, n beta = 64 MiB x 20 ps = 1342.17728 us,
  // after the 8.4 us call. Over powers of two: C = 16 gives 22 x 87.886 = 1933.5 us, C = 32
  // 38 x 45.943 = 1745.8 us, C = 64 70 x 24.971 = 1748.0 us: 32 chunks, 2 MiB each.
  const Topology t = built(TopologyKind::kSwitch, 8);
  CollectiveStudyOptions options;
  options.library = library_by_name("nccl", "test");
  options.library.one_node_ramp.clear();  // NCCL's formula alone (the ramp would bound it from below)
  options.protocol = Protocol::kSimple;
  options.pipeline_as_library = true;
  const CollectivePoint point = run_collective_point(t, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 64 * kMiB, options);
  EXPECT_EQ(point.chunks, 32u);
  const TimePs stage_ps = ps_from_us(4) + 2 * kMiB * 20;
  EXPECT_EQ(point.sim_ps, ps_from_ns(8400) + 38 * stage_ps);
  EXPECT_NEAR(*point.sim_over_model, 1.0, 1e-9);
  // A ring AllReduce already pipelines its blocks: a chunk only adds latency.
  const CollectivePoint ring = run_collective_point(t, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 64 * kMiB, options);
  EXPECT_EQ(ring.chunks, 1u);
  // Without the library's pipelining, the chain moves the whole 64 MiB at each of 7 hops.
  options.pipeline_as_library = false;
  const CollectivePoint whole = run_collective_point(t, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 64 * kMiB, options);
  EXPECT_EQ(whole.chunks, 1u);
  EXPECT_EQ(whole.sim_ps, ps_from_ns(8400) + 7 * (ps_from_us(4) + 64 * kMiB * 20));
}

TEST(CollectiveStudy, NcclPicksLowLatencyWhenSmallAndFullBandwidthWhenLarge) {
  // NCCL's choice per size: at 1 KiB LL (6.6 us per call, the least latency), at 1 GiB
  // Simple (all of the link's 50 GB/s, where LL moves half), in 3 loops of 24 channels x 8
  // ranks x 2 MiB.
  CollectiveStudyOptions options;
  options.library = library_by_name("nccl", "test");
  const Topology t = built(TopologyKind::kSwitch, 8);
  const CollectiveStudy study =
      study_collective(t, CollectiveKind::kAllReduce, {std::nullopt}, {1024, 1u << 30}, options);
  ASSERT_EQ(study.blocks.size(), 1u);
  EXPECT_EQ(study.blocks[0].formula, "");
  const auto& points = study.blocks[0].points;
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].protocol, Protocol::kLL);
  EXPECT_EQ(points[1].protocol, Protocol::kSimple);
  for (const CollectivePoint& p : points) {
    const std::vector<AlgorithmKind> candidates = nccl_algorithms(CollectiveKind::kAllReduce);
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), p.algorithm), candidates.end());
    EXPECT_EQ(p.costs, options.library.costs(CollectiveKind::kAllReduce, p.algorithm, p.protocol, p.size, 8));
  }
  EXPECT_EQ(points[0].costs.loops, 1u);
  EXPECT_EQ(points[1].costs.loops, 3u);
  EXPECT_TRUE(study.fastest.empty());  // one block: nothing to compare
}

TEST(CollectiveStudy, FastestIsTheLeastSimulatedTimeAtEachSize) {
  const Topology t = built(TopologyKind::kSwitch, 8);
  std::vector<AlgorithmChoice> all;
  for (const AlgorithmKind a : applicable_algorithms(CollectiveKind::kAllReduce, t)) all.push_back(a);
  const CollectiveStudy study = study_collective(t, CollectiveKind::kAllReduce, all, {1024, 64 * kMiB}, {});
  ASSERT_EQ(study.blocks.size(), all.size());
  ASSERT_EQ(study.fastest.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    for (const CollectiveBlock& block : study.blocks) EXPECT_LE(study.fastest[i].sim_ps, block.points[i].sim_ps);
  }
  // Each block's formula is its algorithm's closed form.
  EXPECT_EQ(study.blocks[0].formula,
            collective_cost(t, CollectiveKind::kAllReduce, *study.blocks[0].algorithm, 1024, {}).formula);
  EXPECT_TRUE(study.all_verified());  // nothing was checked
}

TEST(CollectiveStudy, LinkStatsOfTheLargestSize) {
  // Ring AllReduce of 4 MiB on 4 NPUs of a switch, as derived above: T = 135.42912 us. Rank r
  // sends its 6 steps of 1 MiB through npu r -> switch -> npu r+1, one at a time: each
  // direction of each link carries 6 MiB, busy 6 x 2^20 x 20 ps = 125.82912 us (o and the
  // latency of each step are not busy), utilisation 6 MiB / (50 GB/s x T).
  CollectiveStudyOptions options;
  options.run.overhead_ps = ps_from_us(1);
  options.run.record_link_stats = true;
  const CollectiveStudy study = study_collective(built(TopologyKind::kSwitch, 4), CollectiveKind::kAllReduce,
                                                 {AlgorithmKind::kRing}, {kMiB, 4 * kMiB}, options);
  const std::vector<CollectivePoint>& points = study.blocks[0].points;
  EXPECT_FALSE(points[0].link_stats);  // only the largest size is recorded
  ASSERT_EQ(study.link_stats_point(), &points[1]);
  const LinkStats& stats = *points[1].link_stats;
  EXPECT_EQ(stats.simulated_ps, 135'429'120);
  ASSERT_EQ(stats.loads.size(), 8u);
  for (const LinkLoad& load : stats.loads) {
    EXPECT_EQ(load.bytes, 6.0 * kMiB);
    EXPECT_EQ(load.busy_ps, 125'829'120);
    EXPECT_EQ(load.peak_flows, 1u);
    EXPECT_DOUBLE_EQ(load.utilisation, 6.0 * kMiB / (50e9 * 135.42912e-6));
  }
}

TEST(CollectiveStudy, LinkStatsOfTheFastestChoice) {
  // Several algorithms: the links shown are those of the fastest at the largest size.
  const Topology t = built(TopologyKind::kSwitch, 8);
  CollectiveStudyOptions options;
  options.run.record_link_stats = true;
  const CollectiveStudy study = study_collective(
      t, CollectiveKind::kAllReduce, {AlgorithmKind::kRing, AlgorithmKind::kDirect}, {1024, 64 * kMiB}, options);
  const CollectivePoint* point = study.link_stats_point();
  ASSERT_NE(point, nullptr);
  EXPECT_EQ(point->algorithm, study.fastest.back().algorithm);
  EXPECT_EQ(point->size, 64 * kMiB);
  EXPECT_EQ(point->link_stats->simulated_ps, point->sim_ps);
  EXPECT_EQ(study_collective(t, CollectiveKind::kAllReduce, {AlgorithmKind::kRing}, {1024}, {}).link_stats_point(),
            nullptr);  // not recorded
}

TEST(CollectiveStudy, TimelineAndLinkStatsOfTheSameRun) {
  // Both asked for: the largest size's run records its messages and its links. Ring AllReduce
  // of 4 MiB on 4 NPUs of a switch, as derived above: 6 steps x 4 ranks = 24 messages of
  // 1 MiB, each over 2 links (npu -> switch -> npu), so the 8 channels carry 48 MiB in all,
  // and the last message arrives at T = 135.42912 us. The 1 MiB size records neither.
  CollectiveStudyOptions options;
  options.run.overhead_ps = ps_from_us(1);
  options.run.record_link_stats = true;
  options.record_timeline = true;
  const CollectiveStudy study = study_collective(built(TopologyKind::kSwitch, 4), CollectiveKind::kAllReduce,
                                                 {AlgorithmKind::kRing}, {kMiB, 4 * kMiB}, options);
  const CollectiveBlock& block = study.blocks[0];
  EXPECT_EQ(block.timeline_point, 1u);
  EXPECT_FALSE(block.points[0].link_stats);
  ASSERT_EQ(study.link_stats_point(), &block.points[1]);
  ASSERT_EQ(block.timeline.size(), 24u);
  Bytes message_bytes = 0;
  TimePs last = 0;
  for (const CollectiveMessage& m : block.timeline) {
    message_bytes += m.bytes;
    last = std::max(last, m.arrived_ps);
  }
  EXPECT_EQ(message_bytes, 24 * kMiB);
  EXPECT_EQ(last, 135'429'120);
  const LinkStats& stats = *block.points[1].link_stats;
  EXPECT_EQ(stats.simulated_ps, last);
  double link_bytes = 0;
  for (const LinkLoad& load : stats.loads) link_bytes += load.bytes;
  EXPECT_EQ(link_bytes, 2.0 * message_bytes);
}

TEST(CollectiveStudy, VerifiedDataOfEveryRank) {
  CollectiveStudyOptions options;
  options.run.verify = true;
  options.run.chunks = 3;
  const CollectiveStudy study =
      study_collective(built(TopologyKind::kRing, 5), CollectiveKind::kReduceScatter,
                       {AlgorithmKind::kRing, AlgorithmKind::kRingBidir}, {1000, 4000}, options);
  EXPECT_TRUE(study.all_verified());
  for (const CollectiveBlock& block : study.blocks) EXPECT_EQ(block.first_verify_failure(), nullptr);
}

TEST(CollectiveStudy, SizesFollowNcclTests) {
  // AllGather on 8 ranks: a multiple of 8 floats (32 B), rounded down; repeats dropped.
  EXPECT_EQ(collective_sizes(CollectiveKind::kAllGather, {1000, 1010, 2048}, 8), (std::vector<Bytes>{992, 2048}));
  EXPECT_EQ(collective_sizes(CollectiveKind::kAllReduce, {1001, 1024}, 8), (std::vector<Bytes>{1000, 1024}));
  EXPECT_EQ(collective_sizes(CollectiveKind::kBarrier, {}, 8), (std::vector<Bytes>{0}));
}

TEST(CollectiveStudy, RefusesBeforeAnySimulation) {
  CollectiveStudyOptions options;
  options.run.chunks = 2048;
  const Topology t = built(TopologyKind::kRing, 4);
  EXPECT_THROW(study_collective(t, CollectiveKind::kAllReduce, {AlgorithmKind::kRing}, {1024}, options), InputError);
  // An algorithm that does not apply to the topology.
  EXPECT_THROW(study_collective(t, CollectiveKind::kAllReduce, {AlgorithmKind::kHierarchical}, {1024}, {}), InputError);
}

}  // namespace
}  // namespace commsim
