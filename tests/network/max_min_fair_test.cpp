// The solver alone, no engine. Each case derives the fair rates by hand first.

#include "network/max_min_fair.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace commsim {
namespace {

using R = std::vector<std::uint32_t>;

TEST(MaxMinFair, TwoFlowsOnOneResourceGetHalfEach) {
  MaxMinProblem p;
  const auto r = p.add_resource(10.0);
  p.add_flow(R{r});
  p.add_flow(R{r});
  MaxMinSolver solver;
  EXPECT_EQ(solver.solve(p), (std::vector<double>{5.0, 5.0}));
}

TEST(MaxMinFair, ClassicTwoLinkCase) {
  // A crosses links 1 and 2, B only 1, C only 2; capacities 1 and 2.
  // Filling: link 1 saturates first at 1/2 per flow (1 / 2 flows < 2 / 2 flows), which
  // freezes A and B at 1/2. Link 2 has 2 - 1/2 = 3/2 left for C alone.
  MaxMinProblem p;
  const auto l1 = p.add_resource(1.0);
  const auto l2 = p.add_resource(2.0);
  p.add_flow(R{l1, l2});
  p.add_flow(R{l1});
  p.add_flow(R{l2});
  MaxMinSolver solver;
  const auto& rates = solver.solve(p);
  EXPECT_DOUBLE_EQ(rates[0], 0.5);
  EXPECT_DOUBLE_EQ(rates[1], 0.5);
  EXPECT_DOUBLE_EQ(rates[2], 1.5);
}

TEST(MaxMinFair, ParkingLot) {
  // A long flow over three unit links, and one short flow on each link: every link is
  // shared by two flows, so everyone gets 1/2 (not the long flow 1/4).
  MaxMinProblem p;
  const auto a = p.add_resource(1.0);
  const auto b = p.add_resource(1.0);
  const auto c = p.add_resource(1.0);
  p.add_flow(R{a, b, c});
  p.add_flow(R{a});
  p.add_flow(R{b});
  p.add_flow(R{c});
  MaxMinSolver solver;
  EXPECT_EQ(solver.solve(p), (std::vector<double>{0.5, 0.5, 0.5, 0.5}));
}

TEST(MaxMinFair, ThreeLevels) {
  // Resource x (cap 3) holds f0, f1, f2; resource y (cap 10) holds f2 and f3.
  // Level 1: x gives 3/3 = 1 < y's 10/2 = 5, so f0, f1, f2 freeze at 1.
  // Level 2: y has 10 - 1 = 9 for f3 alone.
  MaxMinProblem p;
  const auto x = p.add_resource(3.0);
  const auto y = p.add_resource(10.0);
  p.add_flow(R{x});
  p.add_flow(R{x});
  p.add_flow(R{x, y});
  p.add_flow(R{y});
  MaxMinSolver solver;
  EXPECT_EQ(solver.solve(p), (std::vector<double>{1.0, 1.0, 1.0, 9.0}));
}

TEST(MaxMinFair, RateCapsAreUpperBoundsWithinMaxMin) {
  // Capacity 50; f0 is capped at 10, so f1 takes the other 40.
  MaxMinProblem p;
  const auto r = p.add_resource(50.0);
  p.add_flow(R{r}, 10.0);
  p.add_flow(R{r});
  MaxMinSolver solver;
  EXPECT_EQ(solver.solve(p), (std::vector<double>{10.0, 40.0}));
}

// Only finite caps are kept; a solver that has returned its memory solves again alike, and
// one that has returned its working memory keeps the rates of its last solve.
TEST(MaxMinFair, KeepsOnlyFiniteCapsAndSolvesAfterReleasingMemory) {
  // Capacities 30 and 12: f0 (capped at 4) and f1 cross both, f2 only the first. Level 4
  // freezes f0 by its cap; the second resource then has 8 for f1 alone; the first gives f2
  // 30 - 4 - 8 = 18.
  MaxMinProblem p;
  const auto a = p.add_resource(30.0);
  const auto b = p.add_resource(12.0);
  p.add_flow(R{a, b}, 4.0);
  p.add_flow(R{a, b});
  p.add_flow(R{a}, MaxMinProblem::kNoCap);
  ASSERT_EQ(p.capped().size(), 1u);
  EXPECT_EQ(p.capped()[0].flow, 0u);
  EXPECT_EQ(p.flow_count(), 3u);
  MaxMinSolver solver;
  EXPECT_EQ(solver.solve(p), (std::vector<double>{4.0, 8.0, 18.0}));
  solver.release_memory();
  const std::vector<double>& rates = solver.solve(p);
  solver.release_working_memory();  // the rates stay
  EXPECT_EQ(rates, (std::vector<double>{4.0, 8.0, 18.0}));
  EXPECT_EQ(solver.solve(p), (std::vector<double>{4.0, 8.0, 18.0}));
  p.release_memory();
  EXPECT_EQ(p.flow_count(), 0u);
  EXPECT_EQ(p.resource_count(), 0u);
}

TEST(MaxMinFair, SymmetricFlowsGetIdenticalRates) {
  MaxMinProblem p;
  const auto r = p.add_resource(1.0);
  for (int i = 0; i < 3; ++i) p.add_flow(R{r});
  MaxMinSolver solver;
  const auto& rates = solver.solve(p);
  EXPECT_EQ(rates[0], rates[1]);
  EXPECT_EQ(rates[1], rates[2]);
  EXPECT_NEAR(rates[0], 1.0 / 3, 1e-15);
}

TEST(MaxMinFair, BadProblemsAreInternalErrors) {
  MaxMinProblem p;
  EXPECT_THROW(p.add_resource(0.0), InternalError);
  EXPECT_THROW(p.add_flow(R{}), InternalError);   // no resource and no cap
  EXPECT_THROW(p.add_flow(R{7}), InternalError);  // unknown resource
}

}  // namespace
}  // namespace commsim
