// Direct, pairwise and Bruck schedules: hand-derived times on idle networks and the shape
// of the steps. Correctness on many rank counts is in schedule_correctness_test.cpp
// (--gtest_filter='*ScheduleCorrectness*direct*:*ScheduleCorrectness*pairwise*:*ScheduleCorrectness*bruck*').
//
// Links are 50 GB/s (20 ps per byte) with 300 ns latency; a route through a switch is two
// links (600 ns), a fully-connected route one (300 ns). Times are exact picoseconds.

#include <gtest/gtest.h>

#include "collective/direct.h"
#include "collective/simulate.h"
#include "collective_test_topologies.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;
constexpr TimePs kPsPerByte = 20;                 // 50 GB/s
constexpr TimePs kSwitchRoutePs = ps_from_ns(600);  // NPU -> switch -> NPU
constexpr TimePs kDirectRoutePs = ps_from_ns(300);  // one link

Topology topology(TopologyKind kind, std::uint32_t npus) { return testing::idle_topology(kind, npus); }

CollectiveResult run(TopologyKind shape, std::uint32_t npus, CollectiveKind kind,
                     AlgorithmKind algorithm, Bytes size) {
  return simulate_collective(topology(shape, npus), kind, algorithm, size, CollectiveConfig{});
}

TEST(DirectSchedule, AllToAllOnASwitchSharesEachLinkAmongPMinusOneFlows) {
  // n = 4 MiB is what each rank sends in all, 1 MiB to each rank (itself included). Each
  // NPU's uplink carries its 3 flows of 1 MiB and its downlink the 3 flows to it, so
  // max-min gives every flow 50/3 GB/s; all finish together after 3 MiB x 20 ps.
  const CollectiveResult r =
      run(TopologyKind::kSwitch, 4, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 4 * kMiB);
  EXPECT_EQ(r.time_ps, kSwitchRoutePs + 3 * kMiB * kPsPerByte);
  EXPECT_EQ(r.messages, 12u);  // p (p-1)
}

TEST(DirectSchedule, AllToAllOnAFullyConnectedTopologyUsesEveryPairsOwnLink) {
  // Every flow has its own 300 ns link: all 12 run at full rate, 1 MiB x 20 ps each.
  const CollectiveResult r = run(TopologyKind::kFullyConnected, 4, CollectiveKind::kAllToAll,
                                 AlgorithmKind::kDirect, 4 * kMiB);
  EXPECT_EQ(r.time_ps, kDirectRoutePs + kMiB * kPsPerByte);
}

TEST(DirectSchedule, AllReduceIsAReduceScatterThenAnAllGatherOfTheReducedBlocks) {
  // Block space p = 4, blocks of n/4 = 1 MiB. Step 1 (ReduceScatter): each rank sends 3
  // blocks, one to each owner, so as in the AllToAll each link carries 3 flows of n/4:
  // 600 ns + 3 x n/4 x 20 ps. Step 2 (AllGather of the reduced block) has the same shape.
  const Bytes n = 4 * kMiB;
  const CollectiveResult r =
      run(TopologyKind::kSwitch, 4, CollectiveKind::kAllReduce, AlgorithmKind::kDirect, n);
  EXPECT_EQ(r.time_ps, 2 * (kSwitchRoutePs + 3 * static_cast<TimePs>(n / 4) * kPsPerByte));
  EXPECT_EQ(r.messages, 24u);
}

TEST(PairwiseSchedule, AllToAllSendsOneBlockPerStepOverUncontendedLinks) {
  // p - 1 = 3 steps; in each every NPU sends one 1 MiB block and receives one, so each
  // uplink and downlink carries one flow: 3 x (600 ns + 1 MiB x 20 ps).
  const CollectiveResult r = run(TopologyKind::kSwitch, 4, CollectiveKind::kAllToAll,
                                 AlgorithmKind::kPairwise, 4 * kMiB);
  EXPECT_EQ(r.time_ps, 3 * (kSwitchRoutePs + kMiB * kPsPerByte));
  EXPECT_EQ(r.messages, 12u);
}

TEST(BruckSchedule, AllGatherDoublesWhatEachRankHoldsPerStep) {
  // n = 8 MiB gathered on 8 ranks: blocks of 1 MiB. Steps send 1, 2 and 4 blocks, one
  // flow per link each: 3 x 600 ns + (1 + 2 + 4) MiB x 20 ps.
  const CollectiveResult r = run(TopologyKind::kSwitch, 8, CollectiveKind::kAllGather,
                                 AlgorithmKind::kBruck, 8 * kMiB);
  EXPECT_EQ(r.time_ps, 3 * kSwitchRoutePs + 7 * kMiB * kPsPerByte);
  EXPECT_EQ(r.messages, 24u);
}

TEST(BruckSchedule, AllGatherOnANonPowerOfTwoSendsOnlyTheMissingBlocksLast) {
  // p = 5, blocks of 1 MiB: ceil(log2 5) = 3 steps sending min(2^k, 5 - 2^k) = 1, 2, 1
  // blocks: 3 x 600 ns + 4 MiB x 20 ps (p - 1 blocks in all, as in a ring).
  const CollectiveResult r = run(TopologyKind::kSwitch, 5, CollectiveKind::kAllGather,
                                 AlgorithmKind::kBruck, 5 * kMiB);
  EXPECT_EQ(r.time_ps, 3 * kSwitchRoutePs + 4 * kMiB * kPsPerByte);
}

TEST(BruckSchedule, AllToAllTradesBandwidthForFewerSteps) {
  // p = 4, blocks of 1 MiB. Offsets 1..3 in binary: step 0 moves the blocks with bit 0 set
  // (offsets 1, 3), step 1 those with bit 1 set (2, 3): 2 blocks per step, one flow per
  // link: 2 x (600 ns + 2 MiB x 20 ps), against pairwise's 3 x (600 ns + 1 MiB x 20 ps).
  const CollectiveResult r = run(TopologyKind::kSwitch, 4, CollectiveKind::kAllToAll,
                                 AlgorithmKind::kBruck, 4 * kMiB);
  EXPECT_EQ(r.time_ps, 2 * (kSwitchRoutePs + 2 * kMiB * kPsPerByte));
  EXPECT_EQ(r.messages, 8u);
}

std::uint64_t blocks_sent(const StepSpec& step) {
  std::uint64_t blocks = 0;
  for (std::size_t i = 0; i < step.send_count(); ++i) {
    for (const BlockRange& range : step.sends(i).blocks) blocks += range.count;
  }
  return blocks;
}

TEST(BruckSchedule, AllToAllStepKSendsEveryOffsetWithBitKSet) {
  // Rank r holds, before step k, one block of each offset o in 1..p-1 that is still to
  // move, and sends those with bit k set: #{o < p : o & 2^k} blocks, all of them distinct
  // and none to itself. Independent of the tracker: counts the enumeration directly.
  for (std::size_t p = 2; p <= 40; ++p) {
    const auto schedule = make_direct_schedule(CollectiveKind::kAllToAll, AlgorithmKind::kBruck, p);
    StepSpec step;
    for (Rank r = 0; r < p; ++r) {
      for (std::size_t k = 0; k < schedule->steps(r, 0); ++k) {
        step.clear();
        schedule->step(r, 0, k, step);
        std::uint64_t expected = 0;
        for (std::size_t o = 1; o < p; ++o) expected += (o >> k) & 1;
        SCOPED_TRACE("p = " + std::to_string(p) + ", r = " + std::to_string(r) + ", k = " +
                     std::to_string(k));
        ASSERT_EQ(step.send_count(), 1u);
        EXPECT_NE(step.sends(0).peer, r);
        EXPECT_EQ(blocks_sent(step), expected);
      }
    }
  }
}

TEST(DirectSchedule, NothingToDoOnOneRank) {
  for (const AlgorithmKind a : {AlgorithmKind::kDirect, AlgorithmKind::kPairwise, AlgorithmKind::kBruck}) {
    EXPECT_EQ(make_direct_schedule(CollectiveKind::kAllToAll, a, 1)->steps(0, 0), 0u);
  }
}

}  // namespace
}  // namespace commsim
