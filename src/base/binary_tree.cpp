#include "base/binary_tree.h"

#include <bit>

namespace commsim {

BinaryTreeLinks binary_tree_links(std::size_t q, std::size_t p) {
  BinaryTreeLinks links;
  const auto add_child = [&](std::size_t c) { links.children[links.child_count++] = c; };
  if (q == 0) {
    if (p > 1) add_child(std::bit_floor(p - 1));
    return links;
  }
  const std::size_t b = q & (~q + 1);  // lowest set bit
  const std::size_t up = (q ^ b) | (2 * b);
  links.parent = up < p ? up : q ^ b;
  if (b == 1) return links;
  add_child(q - b / 2);
  for (std::size_t half = b / 2; half >= 1; half /= 2) {
    if (q + half < p) {
      add_child(q + half);
      break;
    }
  }
  return links;
}

// Each step up raises the height (log2 of the lowest set bit) by at least one, and position
// 1 climbs through every power of two below p: 1, 2, 4, ..., bit_floor(p-1), then the root.
std::size_t binary_tree_depth(std::size_t p) { return p <= 1 ? 0 : std::bit_width(p - 1); }

std::size_t double_tree_member(std::size_t q, std::size_t p, std::size_t tree) {
  if (tree % 2 == 0) return q;
  return p % 2 == 0 ? p - 1 - q : (q + 1) % p;
}

std::size_t double_tree_position(std::size_t m, std::size_t p, std::size_t tree) {
  if (tree % 2 == 0) return m;
  return p % 2 == 0 ? p - 1 - m : (m + p - 1) % p;
}

std::vector<TreeEdge> double_tree_edges(std::size_t p) {
  std::vector<TreeEdge> edges;
  for (std::size_t tree = 0; tree < 2; ++tree) {
    for (std::size_t q = 1; q < p; ++q) {
      const std::size_t parent = *binary_tree_links(q, p).parent;
      edges.push_back({double_tree_member(q, p, tree), double_tree_member(parent, p, tree)});
    }
  }
  return edges;
}

std::vector<std::uint32_t> edges_per_member(const std::vector<TreeEdge>& edges, std::size_t p) {
  std::vector<std::uint32_t> count(p, 0);
  for (const TreeEdge& e : edges) {
    ++count.at(e.child);
    ++count.at(e.parent);
  }
  return count;
}

}  // namespace commsim
