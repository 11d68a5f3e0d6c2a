#include "model/parallel_groups.h"

#include <gtest/gtest.h>

#include <set>

#include "base/error.h"

namespace commsim {
namespace {

using Groups = std::vector<std::vector<Rank>>;

// 16 GPUs, tp 2 cp 2 dp 2 pp 2, Megatron-LM's order tp-cp-dp-pp:
//   rank = tp + 2 cp + 4 dp + 8 pp
//
//   pp 0:  dp 0 | cp 0: 0 1   cp 1: 2 3        pp 1:  dp 0 | cp 0:  8  9   cp 1: 10 11
//          dp 1 | cp 0: 4 5   cp 1: 6 7               dp 1 | cp 0: 12 13   cp 1: 14 15
ParallelConfig sixteen_gpus() {
  ParallelConfig p;
  p.tp = 2, p.cp = 2, p.dp = 2, p.pp = 2;
  return p;
}

TEST(ParallelGroups, MegatronOrderOnSixteenGpus) {
  const ParallelConfig p = sixteen_gpus();
  // Rank 13 = 1 + 0 + 4 + 8: tp 1, cp 0, dp 1, pp 1.
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kTp, 13), 1u);
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kCp, 13), 0u);
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kDp, 13), 1u);
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kPp, 13), 1u);
  EXPECT_EQ(group_of(p, ParallelDim::kTp, 13), (std::vector<Rank>{12, 13}));
  EXPECT_EQ(group_of(p, ParallelDim::kCp, 13), (std::vector<Rank>{13, 15}));
  EXPECT_EQ(group_of(p, ParallelDim::kDp, 13), (std::vector<Rank>{9, 13}));
  EXPECT_EQ(group_of(p, ParallelDim::kPp, 13), (std::vector<Rank>{5, 13}));
  EXPECT_EQ(groups_of(p, ParallelDim::kTp), (Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}}));
  EXPECT_EQ(groups_of(p, ParallelDim::kCp), (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}}));
  EXPECT_EQ(groups_of(p, ParallelDim::kDp), (Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}}));
  EXPECT_EQ(groups_of(p, ParallelDim::kPp), (Groups{{0, 8}, {1, 9}, {2, 10}, {3, 11}, {4, 12}, {5, 13}, {6, 14}, {7, 15}}));
  // The dense gradients are reduced over dp x cp: the four ranks of a pp stage with one tp
  // coordinate.
  EXPECT_EQ(groups_of(p, {ParallelDim::kDp, ParallelDim::kCp}),
            (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}, {8, 10, 12, 14}, {9, 11, 13, 15}}));
}

TEST(ParallelGroups, AnotherOrderPlacesOtherDimensionsInside) {
  // dp-tp-pp-cp: rank = dp + 2 tp + 4 pp + 8 cp. Rank 11 = 1 + 2 + 0 + 8: dp 1, tp 1, pp 0, cp 1.
  ParallelConfig p = sixteen_gpus();
  p.order = parse_placement_order("dp-tp-pp-cp", "--order");
  EXPECT_EQ(group_of(p, ParallelDim::kDp, 11), (std::vector<Rank>{10, 11}));
  EXPECT_EQ(group_of(p, ParallelDim::kTp, 11), (std::vector<Rank>{9, 11}));
  EXPECT_EQ(group_of(p, ParallelDim::kPp, 11), (std::vector<Rank>{11, 15}));
  EXPECT_EQ(group_of(p, ParallelDim::kCp, 11), (std::vector<Rank>{3, 11}));
  EXPECT_EQ(groups_of(p, ParallelDim::kTp).front(), (std::vector<Rank>{0, 2}));
}

TEST(ParallelGroups, ExpertGroupsAreTheInnermostPartOfDp) {
  // 8 GPUs, tp 2 dp 4 ep 2: rank = tp + 2 dp; dp = 2 edp + ep. Rank 5: tp 1, dp 2, so ep 0;
  // its EP group is dp 2 and 3 at tp 1: {5, 7}; its DP group all four dp at tp 1.
  ParallelConfig p;
  p.tp = 2, p.dp = 4, p.ep = 2;
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kEp, 5), 0u);
  EXPECT_EQ(rank_coordinate(p, ParallelDim::kEp, 7), 1u);
  EXPECT_EQ(group_of(p, ParallelDim::kEp, 5), (std::vector<Rank>{5, 7}));
  EXPECT_EQ(group_of(p, ParallelDim::kDp, 5), (std::vector<Rank>{1, 3, 5, 7}));
  EXPECT_EQ(groups_of(p, ParallelDim::kEp), (Groups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  // dp spans ep: asking for both is the DP group.
  EXPECT_EQ(group_of(p, {ParallelDim::kDp, ParallelDim::kEp}, 5), (std::vector<Rank>{1, 3, 5, 7}));
}

TEST(ParallelGroups, EachDimensionPartitionsTheRanks) {
  ParallelConfig p;
  p.tp = 4, p.cp = 2, p.dp = 6, p.pp = 3, p.ep = 3;
  p.order = parse_placement_order("cp-tp-pp-dp", "--order");
  for (const ParallelDim dim : {ParallelDim::kTp, ParallelDim::kCp, ParallelDim::kDp, ParallelDim::kPp, ParallelDim::kEp}) {
    std::set<Rank> seen;
    const Groups groups = groups_of(p, dim);
    EXPECT_EQ(groups.size(), p.gpus() / p.degree(dim)) << dimension_name(dim);
    for (const std::vector<Rank>& group : groups) {
      EXPECT_EQ(group.size(), p.degree(dim)) << dimension_name(dim);
      for (const Rank r : group) {
        EXPECT_TRUE(seen.insert(r).second) << dimension_name(dim) << " rank " << r;
        EXPECT_EQ(group_of(p, dim, r), group);
      }
    }
    EXPECT_EQ(seen.size(), p.gpus());
  }
}

TEST(ParallelGroups, RankOutOfRange) {
  try {
    group_of(sixteen_gpus(), ParallelDim::kTp, 16);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "rank 16 is out of range for the 16 GPUs of dp x tp x pp x cp");
  }
}

}  // namespace
}  // namespace commsim
