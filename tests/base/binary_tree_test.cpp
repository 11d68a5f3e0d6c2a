// NCCL's double binary tree: hand-derived links for 10 positions, the second tree's layout,
// and the property it exists for (no member interior in both trees).

#include "base/binary_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace commsim {
namespace {

std::vector<std::size_t> children(const BinaryTreeLinks& links) {
  return {links.children.begin(), links.children.begin() + static_cast<std::ptrdiff_t>(links.child_count)};
}

TEST(BinaryTree, TenPositionsAsDerivedByHand) {
  // The root 0 has the top node 8; 8 (bit 8, interval 0..16 cut at 10) has 4 and, its right
  // half's first midpoint below 10, 9; 4 has 2 and 6; odd positions are leaves.
  EXPECT_FALSE(binary_tree_links(0, 10).parent);
  EXPECT_EQ(children(binary_tree_links(0, 10)), (std::vector<std::size_t>{8}));
  EXPECT_EQ(binary_tree_links(8, 10).parent, 0u);
  EXPECT_EQ(children(binary_tree_links(8, 10)), (std::vector<std::size_t>{4, 9}));
  EXPECT_EQ(binary_tree_links(4, 10).parent, 8u);
  EXPECT_EQ(children(binary_tree_links(4, 10)), (std::vector<std::size_t>{2, 6}));
  EXPECT_EQ(binary_tree_links(6, 10).parent, 4u);
  EXPECT_EQ(binary_tree_links(9, 10).parent, 8u);
  EXPECT_EQ(binary_tree_links(9, 10).child_count, 0u);
}

TEST(BinaryTree, DepthIsTheLongestWalkUpToTheRoot) {
  // 10 positions by hand: 1 -> 2 -> 4 -> 8 -> 0. Then every p up to 300 against a walk up
  // the parents from every position.
  EXPECT_EQ(binary_tree_depth(10), 4u);
  EXPECT_EQ(binary_tree_depth(1), 0u);
  EXPECT_EQ(binary_tree_depth(2), 1u);
  for (std::size_t p = 1; p <= 300; ++p) {
    std::size_t deepest = 0;
    for (std::size_t q = 1; q < p; ++q) {
      std::size_t edges = 0;
      for (std::size_t at = q; at != 0; at = *binary_tree_links(at, p).parent) ++edges;
      deepest = std::max(deepest, edges);
    }
    EXPECT_EQ(binary_tree_depth(p), deepest) << p;
  }
}

TEST(BinaryTree, TheSecondTreeIsMirroredOrShifted) {
  EXPECT_EQ(double_tree_member(0, 10, 1), 9u);  // even p: mirrored
  EXPECT_EQ(double_tree_member(0, 9, 1), 1u);   // odd p: shifted by one
  for (const std::size_t p : {9u, 10u}) {
    for (std::size_t m = 0; m < p; ++m) {
      EXPECT_EQ(double_tree_member(double_tree_position(m, p, 1), p, 1), m);
      EXPECT_EQ(double_tree_position(m, p, 0), m);
    }
  }
}

TEST(BinaryTree, NoMemberIsInteriorInBothTreesAndEachTreeHasEveryMember) {
  for (std::size_t p = 2; p <= 33; ++p) {
    std::vector<int> parents_of(p, 0);
    const std::vector<TreeEdge> edges = double_tree_edges(p);
    ASSERT_EQ(edges.size(), 2 * (p - 1));
    std::vector<int> interior_in(p, 0);
    for (std::size_t tree = 0; tree < 2; ++tree) {
      std::vector<int> kids(p, 0);
      for (std::size_t e = tree * (p - 1); e < (tree + 1) * (p - 1); ++e) {
        ++kids[edges[e].parent];
        ++parents_of[edges[e].child];
      }
      for (std::size_t m = 0; m < p; ++m) interior_in[m] += kids[m] > 0 && parents_of[m] > 0 ? 1 : 0;
      std::fill(parents_of.begin(), parents_of.end(), 0);
    }
    for (std::size_t m = 0; m < p; ++m) EXPECT_LE(interior_in[m], 1) << "p " << p << " member " << m;
  }
}

TEST(BinaryTree, EdgesPerMemberCountBothTreesEnds) {
  // 2 members: one edge a tree, each member an end of both. 10: 36 ends in all, and the
  // busiest member has 4 (two children and a parent in one tree, a parent in the other).
  EXPECT_EQ(edges_per_member(double_tree_edges(2), 2), (std::vector<std::uint32_t>{2, 2}));
  for (const std::size_t p : {3u, 10u, 33u}) {
    const std::vector<std::uint32_t> ends = edges_per_member(double_tree_edges(p), p);
    ASSERT_EQ(ends.size(), p);
    EXPECT_EQ(std::accumulate(ends.begin(), ends.end(), 0u), 4 * (p - 1)) << p;
    EXPECT_LE(*std::max_element(ends.begin(), ends.end()), 4u) << p;
  }
  const std::vector<std::uint32_t> ten = edges_per_member(double_tree_edges(10), 10);
  EXPECT_EQ(*std::max_element(ten.begin(), ten.end()), 4u);
}

}  // namespace
}  // namespace commsim
