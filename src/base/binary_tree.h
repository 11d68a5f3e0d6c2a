#pragma once
// NCCL's double binary tree over p members (NCCL 2.4; the layout of its src/graph/trees.cc,
// re-derived from the description, not copied), after the two-tree idea of Sanders, Speck
// & Traeff, "Two-tree algorithms for full bandwidth broadcast, reduction and scan",
// Parallel Computing 35(12), 2009. The simulator's tree schedules and the closed form both
// build their trees from it.
//
// Tree 0, positions 0..p-1: positions 1..p-1 form an in-order binary tree. A position q
// whose lowest set bit is b sits at height log2 b and stands for the interval (q - b,
// q + b). Its parent is the node one level up whose interval contains it,
// q - b + 2b = (q XOR b) | 2b, or, if that lies at or beyond p (the tree is cut off at p),
// the node q XOR b further up. Its children are the midpoints of its two halves, q - b/2
// and q + b/2; when q + b/2 is cut off, the right half is represented by its first
// midpoint below p at a lower level, q + b/4, q + b/8, .... Leaves are the odd positions.
// Position 0, left of every interval, is the root, with the top node (the largest power
// of two below p) as its only child.
//
// Tree 1 is tree 0 with member m at position p-1-m (p even: mirrored) or at position
// m-1 mod p (p odd: shifted). Tree 0's interior positions are the even ones above 0, so
// tree 1's interior members are odd (and for odd p also member 0, tree 0's root): no
// member is interior in both trees. Tree t has tree t mod 2's layout.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace commsim {

struct BinaryTreeLinks {
  std::optional<std::size_t> parent;  // none at the root
  std::array<std::size_t, 2> children{};
  std::size_t child_count = 0;
};

/// Position q's parent and children in tree 0 of p positions (q < p).
BinaryTreeLinks binary_tree_links(std::size_t q, std::size_t p);

/// The most edges from a position of tree 0 of p positions up to its root (0 for p <= 1):
/// floor(log2(p-1)) + 1, the root's only child heading an in-order tree. Tree 1 has tree 0's
/// layout, so its depth too. 10 positions: 1 -> 2 -> 4 -> 8 -> 0, 4 edges.
std::size_t binary_tree_depth(std::size_t p);

/// The member at position q of tree t, and member m's position there (of p).
std::size_t double_tree_member(std::size_t q, std::size_t p, std::size_t tree);
std::size_t double_tree_position(std::size_t m, std::size_t p, std::size_t tree);

/// Every edge of both trees as (child member, parent member), tree 0's then tree 1's:
/// 2(p-1) edges.
struct TreeEdge {
  std::size_t child;
  std::size_t parent;
};
std::vector<TreeEdge> double_tree_edges(std::size_t p);
/// The edges of `edges` each of members 0..p-1 is an end of (its children and parents over
/// both trees): at most 4 (three in one tree, a parent in the other).
std::vector<std::uint32_t> edges_per_member(const std::vector<TreeEdge>& edges, std::size_t p);

}  // namespace commsim
