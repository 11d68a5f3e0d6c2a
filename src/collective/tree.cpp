#include "collective/tree.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <string>

#include "base/binary_tree.h"
#include "base/error.h"

namespace commsim {
namespace {

using C = CollectiveKind;

// Binomial tree (MPICH's binomial Broadcast; Thakur, Rabenseifner & Gropp 2005), in
// relative ranks rel = (r - root) mod p. Round k sends from every rel < 2^k to rel + 2^k,
// so rank rel != 0 with highest set bit 2^h receives in round h from rel - 2^h, and then
// in rounds h+1, h+2, ... sends to its children rel + 2^k while they are below p. After
// L = ceil(log2 p) rounds all p <= 2^L ranks hold the data. No two messages of a round
// share a sender or a receiver, so on an idle non-blocking network each round costs
// alpha + n beta: L (alpha + n beta) in all.
//
// Reduce runs the tree backwards: a rank receives from its children in descending k
// (child rel + 2^k has the smaller subtree the larger k is, so the leaf-most child is
// ready first), adding each, then sends the sum to its parent. Leaves send at once, so
// when p is not a power of two some messages of "later" rounds overlap earlier ones and
// share the receiver's link (the time is then set by the root's incoming link).
class BinomialTreeSchedule : public Schedule {
 public:
  BinomialTreeSchedule(CollectiveKind kind, std::size_t ranks, Rank root)
      : broadcast_(kind == C::kBroadcast), p_(ranks), root_(root) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return 1; }

  std::size_t steps(Rank r, std::size_t) const override {
    if (p_ < 2) return 0;
    const std::size_t rel = relative(r);
    return (rel != 0 ? 1 : 0) + child_count(rel);
  }

  void step(Rank r, std::size_t, std::size_t k, StepSpec& out) const override {
    const std::size_t rel = relative(r);
    const bool has_parent = rel != 0;
    constexpr BlockRange kWhole{0, 1, 1};
    if (broadcast_) {
      if (has_parent && k == 0) {
        out.receive(absolute(parent(rel)));
      } else {
        out.send(absolute(child(rel, k - (has_parent ? 1 : 0))), DataOp::kCopy, kWhole);
      }
      return;
    }
    const std::size_t children = child_count(rel);
    if (k < children) {
      out.receive(absolute(child(rel, children - 1 - k)));
    } else {
      out.send(absolute(parent(rel)), DataOp::kReduce, kWhole);
    }
  }

 private:
  std::size_t relative(Rank r) const { return (r + p_ - root_) % p_; }
  Rank absolute(std::size_t rel) const { return static_cast<Rank>((rel + root_) % p_); }

  /// rel minus its highest set bit (rel > 0).
  static std::size_t parent(std::size_t rel) { return rel - std::bit_floor(rel); }
  /// The exponent of rel's first child: one above its highest set bit (0 for the root).
  static std::size_t first_child_exponent(std::size_t rel) { return std::bit_width(rel); }
  /// Child i (0-based, in the order the broadcast serves them) of rel.
  static std::size_t child(std::size_t rel, std::size_t i) {
    return rel + (std::size_t{1} << (first_child_exponent(rel) + i));
  }
  /// Children rel + 2^k for k from first_child_exponent(rel) up, while below p.
  std::size_t child_count(std::size_t rel) const {
    std::size_t count = 0;
    while (child(rel, count) < p_) ++count;
    return count;
  }

  bool broadcast_;
  std::size_t p_;
  Rank root_;
};

// A rank's neighbours in one binary tree of the double binary tree.
// At most three children: the next GPU of a node's chain and two nodes below its head.
struct TreeNeighbours {
  std::optional<Rank> parent;
  std::array<Rank, 3> children{};
  std::size_t child_count = 0;
  void add_child(Rank c) { children[child_count++] = c; }
};

// Tree 0 of NCCL's double binary tree across p positions (base/binary_tree.h), as a rank's
// neighbours.
TreeNeighbours binary_tree_neighbours(std::size_t q, std::size_t p) {
  const BinaryTreeLinks links = binary_tree_links(q, p);
  TreeNeighbours n;
  if (links.parent) n.parent = static_cast<Rank>(*links.parent);
  for (std::size_t i = 0; i < links.child_count; ++i) n.add_child(static_cast<Rank>(links.children[i]));
  return n;
}

// The AllReduce of one tree: reduce up, then broadcast down. A rank runs those of these
// phases that it has the neighbours for, in this order (root: 0, 3; leaf: 1, 2).
enum class TreePhase : std::uint8_t {
  kReduceFromChildren,  // receive from all children at once and add
  kReduceToParent,      // send the subtree's sum up
  kCopyFromParent,      // receive the full result
  kCopyToChildren,      // send it to all children at once
};

// NCCL's double binary tree AllReduce: channel t reduces and broadcasts block t (half the
// data) over tree t of base/binary_tree.h, where no rank is interior in both trees, so no
// rank forwards both halves.
// Costs on an idle network with one chunk: a step that receives from two children (or
// sends to them) puts both n/2-byte messages on one link, alpha + n beta; a step with one
// parent costs alpha + n/2 beta; the two trees overlap where their links differ.
//
// With nodes of G > 1 GPUs (NCCL's layout, src/graph/connect.cc) the binary trees join the
// N = p / G nodes, and inside a node the GPUs form a chain whose head does the node's
// tree traffic: in tree 0 the chain runs GPU 0 (head), 1, ..., G-1, in tree 1 the other
// way, so the two trees leave a node through different GPUs and NICs. A GPU's parent is
// the one before it in the chain, or for the head the head of the parent node; its
// children are the one after it and, for the head, the heads of the child nodes. Each
// tree then takes 2(G-1) + 2D steps, D the depth of the tree of nodes (NCCL's
// 2((G-1) + log2 N) step latencies).
// With T > 2 trees (NCCL's tree channels, one per NIC of a node) tree k has tree k mod 2's
// shape across nodes, carries block k (1/T of the data), and its chain starts j = k / 2
// GPUs further on (GPU j going up in shape 0, GPU G-1-j going down in shape 1), so the
// trees' heads use T different GPUs and NICs of a node while T <= G.
class DoubleBinaryTreeSchedule : public Schedule {
 public:
  /// node_gpus 0: the double binary tree of all ranks (G = 1), sharing links as it meets.
  DoubleBinaryTreeSchedule(std::size_t ranks, std::size_t node_gpus, std::size_t trees)
      : p_(ranks),
        g_(std::max<std::size_t>(node_gpus, 1)),
        nodes_(ranks / g_),
        trees_(trees),
        channel_rates_(node_gpus > 0) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return trees_; }
  std::size_t channels() const override { return trees_; }
  bool fixed_channel_rates() const override { return channel_rates_; }

  std::size_t steps(Rank r, std::size_t tree) const override {
    if (p_ < 2) return 0;
    return phases(neighbours(r, tree)).size;
  }

  void step(Rank r, std::size_t tree, std::size_t k, StepSpec& out) const override {
    const TreeNeighbours n = neighbours(r, tree);
    const PhaseList list = phases(n);
    COMMSIM_CHECK(k < list.size, "double binary tree step out of range");
    const BlockRange half{static_cast<std::uint32_t>(tree), 1, 1};
    switch (list.phase[k]) {
      case TreePhase::kReduceFromChildren:
        for (std::size_t i = 0; i < n.child_count; ++i) out.receive(n.children[i]);
        return;
      case TreePhase::kReduceToParent: out.send(*n.parent, DataOp::kReduce, half); return;
      case TreePhase::kCopyFromParent: out.receive(*n.parent); return;
      case TreePhase::kCopyToChildren:
        for (std::size_t i = 0; i < n.child_count; ++i) out.send(n.children[i], DataOp::kCopy, half);
        return;
    }
  }

 private:
  struct PhaseList {
    std::array<TreePhase, 4> phase{};
    std::size_t size = 0;
  };

  static PhaseList phases(const TreeNeighbours& n) {
    PhaseList list;
    const auto add = [&](TreePhase ph) { list.phase[list.size++] = ph; };
    if (n.child_count > 0) add(TreePhase::kReduceFromChildren);
    if (n.parent) add(TreePhase::kReduceToParent);
    if (n.parent) add(TreePhase::kCopyFromParent);
    if (n.child_count > 0) add(TreePhase::kCopyToChildren);
    return list;
  }

  /// Where node m sits in tree 0's layout when running `tree`, and back.
  std::size_t position(std::size_t m, std::size_t tree) const { return double_tree_position(m, nodes_, tree); }
  std::size_t node_at(std::size_t q, std::size_t tree) const { return double_tree_member(q, nodes_, tree); }
  /// The GPU at place i of node m's chain in `tree` (place 0 is the head).
  Rank chain_gpu(std::size_t m, std::size_t i, std::size_t tree) const {
    const std::size_t step = (tree / 2 + i) % g_;
    return static_cast<Rank>(m * g_ + (tree % 2 == 0 ? step : g_ - 1 - step));
  }
  /// The place of GPU `local` in its node's chain of `tree`.
  std::size_t chain_place(std::size_t local, std::size_t tree) const {
    const std::size_t step = tree % 2 == 0 ? local : g_ - 1 - local;
    return (step + g_ - tree / 2 % g_) % g_;
  }

  TreeNeighbours neighbours(Rank r, std::size_t tree) const {
    const std::size_t m = r / g_;
    const std::size_t place = chain_place(r % g_, tree);
    TreeNeighbours n;
    if (place + 1 < g_) n.add_child(chain_gpu(m, place + 1, tree));
    if (place > 0) {
      n.parent = chain_gpu(m, place - 1, tree);
      return n;
    }
    const TreeNeighbours across = binary_tree_neighbours(position(m, tree), nodes_);
    if (across.parent) n.parent = chain_gpu(node_at(*across.parent, tree), 0, tree);
    for (std::size_t i = 0; i < across.child_count; ++i) {
      n.add_child(chain_gpu(node_at(across.children[i], tree), 0, tree));
    }
    return n;
  }

  std::size_t p_;
  std::size_t g_;
  std::size_t nodes_;
  std::size_t trees_;
  bool channel_rates_;  // NCCL's trees: each channel at its fixed rate
};

}  // namespace

std::unique_ptr<Schedule> make_tree_schedule(CollectiveKind kind, std::size_t ranks, Rank root,
                                             std::size_t node_gpus, std::size_t trees) {
  switch (kind) {
    case C::kBroadcast:
    case C::kReduce: return std::make_unique<BinomialTreeSchedule>(kind, ranks, root);
    case C::kAllReduce:
      if (ranks % std::max<std::size_t>(node_gpus, 1) != 0) {
        throw InputError("tree: nodes of " + std::to_string(node_gpus) + " GPUs do not divide " +
                         std::to_string(ranks) + " ranks");
      }
      return std::make_unique<DoubleBinaryTreeSchedule>(ranks, node_gpus, std::max<std::size_t>(trees, 2));
    default:
      throw InternalError("tree schedule for " + std::string(collective_name(kind)));
  }
}

}  // namespace commsim
