// Recursive doubling, recursive halving and Rabenseifner on an idle switch, against times
// derived by hand (Thakur, Rabenseifner & Gropp 2005). The switch's links run at 50 GB/s,
// beta = 20 ps per byte, and a route NPU - switch - NPU crosses two 300 ns links, alpha =
// 600 ns. Correctness on every rank count is the sweep in schedule_correctness_test.cpp.

#include <gtest/gtest.h>

#include "collective/recursive.h"
#include "collective/simulate.h"
#include "collective_test_topologies.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr TimePs kAlphaPs = 600'000;
constexpr TimePs kBetaPsPerByte = 20;
constexpr Bytes kMiB = Bytes{1} << 20;


TimePs simulated_ps(std::uint32_t npus, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                    CollectiveConfig config = {}) {
  return testing::simulate_on(TopologyKind::kSwitch, npus, kind, algorithm, size, config).time_ps;
}

TimePs message_ps(Bytes bytes) { return kAlphaPs + static_cast<TimePs>(bytes) * kBetaPsPerByte; }

TEST(RecursiveDoubling, AllReduceOnAPowerOfTwoTakesLogPWholeVectorExchanges) {
  // p = 8: log2 8 = 3 steps, each a swap of the whole 1 MiB vector with v XOR 2^k.
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kAllReduce, AlgorithmKind::kRecursiveDoubling, kMiB),
            3 * message_ps(kMiB));
}

TEST(RecursiveDoubling, AllReduceOnFiveRanksFoldsAndUnfolds) {
  // p = 5: p' = 4, rem = 1. Rank 0 folds into rank 1 (virtual 0); ranks 2, 3, 4 are
  // virtual 1, 2, 3. A transfer starts only when its receive is posted (rendezvous), so
  // rank 2's step-0 send to rank 1 waits until rank 1 has received the fold. The critical
  // path is rank 1's: fold, two exchanges, unfold, each alpha + n beta.
  EXPECT_EQ(simulated_ps(5, CollectiveKind::kAllReduce, AlgorithmKind::kRecursiveDoubling, kMiB),
            4 * (kAlphaPs + static_cast<TimePs>(kMiB) * kBetaPsPerByte));
}

TEST(RecursiveDoubling, AllGatherDoublesTheBlocksSentEachStep) {
  // p = 8, n = 8 MiB, block n/8 = 1 MiB: steps send 1, 2, 4 blocks, 3 alpha + 7/8 n beta.
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kAllGather, AlgorithmKind::kRecursiveDoubling, 8 * kMiB),
            3 * kAlphaPs + static_cast<TimePs>(7 * kMiB) * kBetaPsPerByte);
}

TEST(RecursiveHalving, ReduceScatterHalvesTheBlocksSentEachStep) {
  // p = 8, n = 8 MiB: distances 4, 2, 1 send 4, 2, 1 MiB, 3 alpha + 7/8 n beta.
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kReduceScatter, AlgorithmKind::kRecursiveHalving, 8 * kMiB),
            3 * kAlphaPs + static_cast<TimePs>(7 * kMiB) * kBetaPsPerByte);
}

TEST(RecursiveHalving, ReductionTimeAddsSevenEighthsOfNGamma) {
  // gamma = 10 ps per byte: after each step a rank adds what it received (4, 2, 1 MiB)
  // before the next, so the reduction adds (p-1)/p n gamma = 7 MiB x 10 ps.
  CollectiveConfig config;
  config.gamma_s_per_byte = 10e-12;
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kReduceScatter, AlgorithmKind::kRecursiveHalving, 8 * kMiB,
                         config),
            3 * kAlphaPs + static_cast<TimePs>(7 * kMiB) * (kBetaPsPerByte + 10));
}

TEST(Rabenseifner, AllReduceIsHalvingThenDoubling) {
  // p = 8, n = 8 MiB: halving sends 4, 2, 1 MiB, doubling sends 1, 2, 4 MiB back:
  // 2 log2 8 alpha + 2 (7/8) n beta.
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kAllReduce, AlgorithmKind::kRabenseifner, 8 * kMiB),
            6 * kAlphaPs + 2 * static_cast<TimePs>(7 * kMiB) * kBetaPsPerByte);
}

TEST(Rabenseifner, ReducesOnlyInTheHalvingHalf) {
  // gamma applies to the 7/8 n bytes reduced while halving, not to the gathered copies.
  CollectiveConfig config;
  config.gamma_s_per_byte = 10e-12;
  EXPECT_EQ(simulated_ps(8, CollectiveKind::kAllReduce, AlgorithmKind::kRabenseifner, 8 * kMiB, config),
            6 * kAlphaPs + static_cast<TimePs>(7 * kMiB) * (2 * kBetaPsPerByte + 10));
}

TEST(RecursiveSchedules, FoldingGivesTheEvenLowRanksTwoSteps) {
  // p = 6: p' = 4, rem = 2. Ranks 0 and 2 fold out (send, then receive the result); ranks
  // 1 and 3 add a fold receive and an unfold send to the 2 halving + 2 doubling steps.
  const auto s = make_recursive_schedule(CollectiveKind::kAllReduce, AlgorithmKind::kRabenseifner, 6);
  EXPECT_EQ(s->blocks(), 6u);
  EXPECT_EQ(s->steps(0, 0), 2u);
  EXPECT_EQ(s->steps(1, 0), 6u);
  EXPECT_EQ(s->steps(2, 0), 2u);
  EXPECT_EQ(s->steps(3, 0), 6u);
  EXPECT_EQ(s->steps(4, 0), 4u);
  EXPECT_EQ(s->steps(5, 0), 4u);

  // Virtual ranks 0..3 are real 1, 3, 4, 5 and own real blocks {0,1}, {2,3}, {4}, {5}: the
  // first halving step (distance 2) sends virtual 0's upper half, virtual ranks {2, 3} =
  // real blocks 4 and 5, to real rank 4.
  StepSpec step;
  s->step(1, 0, 1, step);
  ASSERT_EQ(step.send_count(), 1u);
  EXPECT_EQ(step.sends(0).peer, 4u);
  ASSERT_EQ(step.sends(0).blocks.size(), 1u);
  EXPECT_EQ(step.sends(0).blocks[0].first, 4u);
  EXPECT_EQ(step.sends(0).blocks[0].count, 2u);
}

}  // namespace
}  // namespace commsim
