// Binomial trees, the double binary tree and the dissemination barrier: hand-derived times
// on idle networks and the shape of the trees. Correctness on many rank counts is in
// schedule_correctness_test.cpp
// (--gtest_filter='*ScheduleCorrectness*tree*:*ScheduleCorrectness*dissemination*').
//
// Every NPU hangs off one switch by a 50 GB/s (20 ps per byte), 300 ns link, so a route is
// two links (600 ns) and each NPU has an uplink and a downlink that only its own messages
// use. Times are exact picoseconds.

#include <gtest/gtest.h>

#include "collective/barrier.h"
#include "collective/simulate.h"
#include "collective/tree.h"
#include "collective_test_topologies.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;
constexpr TimePs kPsPerByte = 20;                   // beta: 50 GB/s
constexpr TimePs kAlphaPs = ps_from_ns(600);        // NPU -> switch -> NPU
constexpr TimePs kMiBPs = TimePs{kMiB} * kPsPerByte;  // n beta for n = 1 MiB


CollectiveResult run(std::uint32_t npus, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                     CollectiveConfig config = {}) {
  return testing::simulate_on(TopologyKind::kSwitch, npus, kind, algorithm, size, config);
}

TEST(BinomialTree, BroadcastOn8NpusTakesThreeRoundsOfTheWholeBuffer) {
  // Round k: every rel < 2^k sends 1 MiB to rel + 2^k. Senders and receivers of a round
  // are all different NPUs, so no link carries two flows: 3 (alpha + n beta), for any root.
  for (const Rank root : {Rank{0}, Rank{5}}) {
    CollectiveConfig config;
    config.root = root;
    const CollectiveResult r = run(8, CollectiveKind::kBroadcast, AlgorithmKind::kTree, kMiB, config);
    EXPECT_EQ(r.time_ps, 3 * (kAlphaPs + kMiBPs)) << "root " << root;
    EXPECT_EQ(r.messages, 7u);
  }
}

TEST(BinomialTree, BroadcastOn5NpusStillTakesCeilLog2Rounds) {
  // 0 -> 1 (round 0); 0 -> 2, 1 -> 3 (round 1); 0 -> 4 (round 2): one flow per link.
  const CollectiveResult r = run(5, CollectiveKind::kBroadcast, AlgorithmKind::kTree, kMiB);
  EXPECT_EQ(r.time_ps, 3 * (kAlphaPs + kMiBPs));
  EXPECT_EQ(r.messages, 4u);
}

TEST(BinomialTree, ReduceOn8NpusIsTheBroadcastBackwards) {
  // Leaves 4..7 send at once to 0..3; then 2 -> 0 and 3 -> 1; then 1 -> 0. Each round's
  // receivers are distinct: 3 (alpha + n beta). With gamma = 10 ps per byte, every rank on
  // the critical path 7 -> 3 -> 1 -> 0 adds what it received before passing it on (and
  // the root adds its last child's sum), one n gamma per round: 3 (alpha + n beta + n gamma).
  EXPECT_EQ(run(8, CollectiveKind::kReduce, AlgorithmKind::kTree, kMiB).time_ps,
            3 * (kAlphaPs + kMiBPs));
  CollectiveConfig config;
  config.gamma_s_per_byte = 10e-12;
  EXPECT_EQ(run(8, CollectiveKind::kReduce, AlgorithmKind::kTree, kMiB, config).time_ps,
            3 * (kAlphaPs + kMiBPs + TimePs{kMiB} * 10));
}

TEST(BinomialTree, ReduceOn5NpusTakesThreeRounds) {
  // The tree: 0 has children 1, 2, 4; 1 has child 3. The root posts one receive per step,
  // from 4, then 2, then 1, and a transfer starts only when its receive is posted
  // (rendezvous). Round 1: 4 -> 0 while 3 -> 1. Round 2: 2 -> 0 (its send waited for the
  // root). Round 3: 1 -> 0 with 1 and 3 added. Each round alpha + n beta.
  const CollectiveResult r = run(5, CollectiveKind::kReduce, AlgorithmKind::kTree, kMiB);
  EXPECT_EQ(r.time_ps, 3 * (kAlphaPs + kMiBPs));
  EXPECT_EQ(r.messages, 4u);
}

TEST(DoubleBinaryTree, AllReduceOn4Npus) {
  // Tree 0: 0 <- 2 <- {1, 3}. Tree 1 (mirror, r -> 3 - r): 3 <- 1 <- {2, 0}. Each tree
  // carries h = n/2 = 512 KiB; one chunk. Up = uplink of an NPU, down = its downlink.
  //  1. Leaves send up: 1 -> 2, 3 -> 2 (tree 0) share down2; 2 -> 1, 0 -> 1 (tree 1) share
  //     down1. Each flow gets 25 GB/s: alpha + 2 h beta = alpha + n beta.
  //  2. 2 -> 0 (tree 0) and 1 -> 3 (tree 1): separate links, alpha + h beta.
  //  3. The roots send back down: 0 -> 2 and 3 -> 1, alpha + h beta.
  //  4. 2 -> {1, 3} share up2, 1 -> {2, 0} share up1: alpha + 2 h beta = alpha + n beta.
  // Total 4 alpha + 3 n beta, between the 2 x 2 (alpha + h beta) of two unshared hops up
  // and down and the 2 x 2 (alpha + n beta) of every hop at half rate.
  const Bytes n = kMiB;
  const CollectiveResult r = run(4, CollectiveKind::kAllReduce, AlgorithmKind::kTree, n);
  EXPECT_EQ(r.time_ps, 4 * kAlphaPs + 3 * kMiBPs);
  EXPECT_EQ(r.messages, 12u);  // per tree 3 edges, each used up and down
}

TEST(DoubleBinaryTree, NoRankIsInteriorInBothTrees) {
  // An interior rank (a parent and children) runs four steps: receive from the children,
  // send up, receive from the parent, send down; the root and the leaves run two. Each
  // tree has exactly one root: the only rank whose two steps start with a receive.
  for (const std::size_t p : {2u, 3u, 4u, 5u, 8u, 12u, 16u, 33u, 64u}) {
    const auto schedule = make_tree_schedule(CollectiveKind::kAllReduce, p, 0);
    ASSERT_EQ(schedule->channels(), 2u);
    ASSERT_EQ(schedule->blocks(), 2u);
    std::size_t roots[2] = {0, 0};
    StepSpec spec;
    for (Rank r = 0; r < p; ++r) {
      EXPECT_FALSE(schedule->steps(r, 0) == 4 && schedule->steps(r, 1) == 4)
          << "p " << p << " rank " << r;
      for (std::size_t tree = 0; tree < 2; ++tree) {
        spec.clear();
        schedule->step(r, tree, 0, spec);
        if (schedule->steps(r, tree) == 2 && spec.send_count() == 0) ++roots[tree];
      }
    }
    EXPECT_EQ(roots[0], 1u) << "p " << p;
    EXPECT_EQ(roots[1], 1u) << "p " << p;
  }
}

TEST(DoubleBinaryTree, Tree1IsTree0MirroredOrShifted) {
  // p = 8: tree 0's root is 0 with child 4, so tree 1's is 7 with child 3. p = 5: tree 0's
  // root 0 has child 4, so tree 1's root 1 (position 0) has child 0 (position 4).
  const auto expect_root = [](std::size_t p, Rank root, Rank child) {
    const auto schedule = make_tree_schedule(CollectiveKind::kAllReduce, p, 0);
    StepSpec spec;
    schedule->step(root, 1, 0, spec);
    ASSERT_EQ(spec.send_count(), 0u);
    ASSERT_EQ(spec.recvs().size(), 1u);
    EXPECT_EQ(spec.recvs()[0], child) << "p " << p;
  };
  expect_root(8, 7, 3);
  expect_root(5, 1, 0);
}

TEST(DisseminationBarrier, TakesCeilLog2RoundsOfLatency) {
  // 0-byte messages; in round k every rank sends one to r + 2^k and receives one from
  // r - 2^k, so each round costs alpha: 3 x 600 ns on 8 and on 5 NPUs (ceil(log2 5) = 3).
  for (const std::uint32_t p : {8u, 5u}) {
    const CollectiveResult r = run(p, CollectiveKind::kBarrier, AlgorithmKind::kDissemination, 0);
    EXPECT_EQ(r.time_ps, 3 * kAlphaPs) << "p " << p;
    EXPECT_EQ(r.messages, 3u * p);
  }
  EXPECT_EQ(make_dissemination_schedule(1)->steps(0, 0), 0u);
}

}  // namespace
}  // namespace commsim
