// Plans of the tree, recursive, direct, pairwise, Bruck and dissemination algorithms, and
// the dispatch from an algorithm to its plan.

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "base/binary_tree.h"
#include "base/error.h"
#include "model/cost_plan.h"

namespace commsim::model {
// ---------------------------------------------------------------------------------------
// Trees.

// Binomial tree (Thakur et al. 2005, sec. 4.1 Broadcast, 4.5 Reduce; MPICH): relative rank
// rel = (r - root) mod p; in round k = 0..L-1 of Broadcast every rel < 2^k sends n to
// rel + 2^k (if < p); Reduce runs the rounds mirrored.
//   Broadcast L alpha + L n beta; Reduce + L n gamma.
Plan binomial(std::size_t p, Rank root, bool reduce) {
  const unsigned rounds = ceil_log2(p);
  const auto real = [&](std::size_t rel) { return rank((rel + root) % p); };
  Phase phase{reduce ? "binomial reduce" : "binomial broadcast", double(rounds), double(rounds),
              reduce ? double(rounds) : 0};
  for (unsigned i = 0; i < rounds; ++i) {
    const std::size_t d = std::size_t{1} << (reduce ? rounds - 1 - i : i);
    Step step;
    for (std::size_t rel = 0; rel < d && rel + d < p; ++rel) {
      step.sends.push_back(reduce ? Send{real(rel + d), real(rel), 1}
                                  : Send{real(rel), real(rel + d), 1});
    }
    phase.steps.push_back(std::move(step));
  }
  return {{phase}, std::string("L a + L n b") + (reduce ? " + L n g" : "") + ", L = ceil(log2 p)"};
}

// NCCL's double binary tree AllReduce (base/binary_tree.h): two binary trees, each reducing
// n/2 up to its root and broadcasting it back down. Approximated by
//   T = 2D (alpha + n beta) + D n g,  D = max(1, floor(log2 p))
// a step of each level moving n/2 over every tree edge of both trees at once (alpha the
// slowest edge's route, beta from the busiest rank: its n/2 per edge against its injection
// and each edge's route), which keeps the tree's slowest edge in every level.
std::vector<Send> tree_edges(std::size_t p) {
  std::vector<Send> edges;
  for (const TreeEdge& e : double_tree_edges(p)) edges.push_back({rank(e.child), rank(e.parent), 0.5});
  return edges;
}

Plan double_binary_tree(std::size_t p) {
  const double depth = std::max(1u, floor_log2(p));
  Plan plan{{{"double binary tree (approximate)", 2 * depth, 2 * depth, depth, {{tree_edges(p), 2 * depth}}}},
            "2D a + 2D n b + D n g, D = max(1, floor(log2 p)), b of the slowest edge (approximate)"};
  plan.channels = 2;
  return plan;
}

// NCCL's tree AllReduce with nodes of G GPUs (src/graph/connect.cc; the layout is
// collective/tree.h's): T >= 2 trees (one per channel), tree k in the shape of binary tree
// k mod 2 across the N = p/G nodes, joining the first GPUs (heads) of chains through every
// node's GPUs, at depth at most D. Each tree reduces n/T up and broadcasts it down in C
// chunks of n/(TC), every tree at its channel's fixed rate: a chunk passes a leaf-to-root
// path U and a root-to-leaf path D, and the C - 1 chunks before it the slowest stage beside
// them once each (collective_model.cpp, evaluate_trees, exact):
//   T = max over U, D of  sum_U (a + n/(TC) b + g) + sum_D (a + n/(TC) b) + (C-1) (a + n/(TC) b)_slowest
// each b an edge's share of its links with every edge of every tree busy both ways.
// NCCL's latency: 2((G-1) intraLat + log2(N) interLat), the paths' alphas.
namespace {

struct NcclTreeLayout {
  std::size_t p, g, nodes, trees;
  std::vector<std::size_t> node_parent, node_depth;  // of tree 0's positions; [0] the root

  NcclTreeLayout(std::size_t ranks, std::size_t node_gpus, std::size_t tree_count)
      : p(ranks), g(node_gpus), nodes(ranks / node_gpus), trees(tree_count), node_parent(nodes),
        node_depth(nodes) {
    for (std::size_t q = 1; q < nodes; ++q) node_parent[q] = *binary_tree_links(q, nodes).parent;
    for (std::size_t q = 1; q < nodes; ++q) node_depth[q] = depth(q);
  }
  std::size_t depth(std::size_t q) const { return q == 0 ? 0 : 1 + depth(node_parent[q]); }
  std::size_t max_depth() const { return *std::max_element(node_depth.begin(), node_depth.end()); }
  std::size_t node_at(std::size_t q, std::size_t tree) const { return double_tree_member(q, nodes, tree); }
  Rank gpu(std::size_t node, std::size_t place, std::size_t tree) const {
    const std::size_t step = (tree / 2 + place) % g;
    return rank(node * g + (tree % 2 == 0 ? step : g - 1 - step));
  }
  /// In `tree`, the edge from place i of node m's chain up to place i - 1.
  PipelinedTrees::Edge chain_edge(std::size_t m, std::size_t i, std::size_t tree) const {
    return {gpu(m, i, tree), gpu(m, i - 1, tree)};
  }
  /// In `tree`, the edge from the head of the node at position q > 0 up to its parent's head.
  PipelinedTrees::Edge node_edge(std::size_t q, std::size_t tree) const {
    return {gpu(node_at(q, tree), 0, tree), gpu(node_at(node_parent[q], tree), 0, tree)};
  }
  /// Chain hops from place i to i - 1 (up) in every node and tree.
  Step chain_hops(std::size_t i, bool up, double units) const {
    Step step{{}, 1, true};
    for (std::size_t tree = 0; tree < trees; ++tree) {
      for (std::size_t m = 0; m < nodes; ++m) add(step, chain_edge(m, i, tree), up, units);
    }
    return step;
  }
  /// Hops between the heads of nodes and their parents', every tree.
  Step node_hops(bool up, double units) const {
    Step step{{}, 1, true};
    for (std::size_t tree = 0; tree < trees; ++tree) {
      for (std::size_t q = 1; q < nodes; ++q) add(step, node_edge(q, tree), up, units);
    }
    return step;
  }
  /// Every edge of every tree both ways, `units` each: a pipeline cycle.
  Step every_edge(double units) const {
    Step all{{}, 1, true};
    for (const bool up : {true, false}) {
      for (std::size_t i = 1; i < g; ++i) {
        const Step hops = chain_hops(i, up, units);
        all.sends.insert(all.sends.end(), hops.sends.begin(), hops.sends.end());
      }
      const Step hops = node_hops(up, units);
      all.sends.insert(all.sends.end(), hops.sends.begin(), hops.sends.end());
    }
    return all;
  }
  static void add(Step& step, PipelinedTrees::Edge e, bool up, double units) {
    step.sends.push_back(up ? Send{e.child, e.parent, units} : Send{e.parent, e.child, units});
  }
  /// Every tree's edges, its chains' and those joining its nodes' heads, `units` a chunk.
  PipelinedTrees pipelined(double units) const {
    PipelinedTrees all{{}, units};
    for (std::size_t tree = 0; tree < trees; ++tree) {
      std::vector<PipelinedTrees::Edge>& edges = all.trees.emplace_back();
      for (std::size_t m = 0; m < nodes; ++m) {
        for (std::size_t i = 1; i < g; ++i) edges.push_back(chain_edge(m, i, tree));
      }
      for (std::size_t q = 1; q < nodes; ++q) edges.push_back(node_edge(q, tree));
    }
    return all;
  }
};

// NCCL's estimate of its tree (tuning.cc, ncclTopoGetAlgoTime): the fill's latency,
// 2((G-1) intraLat + D interLat), and the bytes at the pipeline's steady rate, with neither
// the fill's bytes nor a latency per chunk:
//   T = 2(G-1) a + 2D a' + n/T b_all [+ n/T g]
// the limit of the run's formula above as its chunks grow, less their cycles' latency.
Plan nccl_tree_estimate(const NcclTreeLayout& layout) {
  const double u = 1.0 / static_cast<double>(layout.trees);
  const double g = static_cast<double>(layout.g), depth = static_cast<double>(layout.max_depth());
  Plan plan{{}, "2(G-1) a + 2D a' + n/T b'', G GPUs a node, T trees, D the depth of the tree of nodes, b'' with "
                "every edge busy (NCCL's estimate)",
            true};
  plan.channels = layout.trees;
  if (layout.g > 1) {
    Phase chains{"node chains", 2 * (g - 1), 0, 0};
    chains.steps.push_back(layout.chain_hops(layout.g - 1, true, u));
    plan.phases.push_back(std::move(chains));
  }
  if (layout.nodes > 1) {
    Phase across{"tree across nodes", 2 * depth, 0, 0};
    across.steps.push_back(layout.node_hops(true, u));
    plan.phases.push_back(std::move(across));
  }
  plan.phases.push_back({"pipeline", 0, u, u, {layout.every_edge(u)}});
  return plan;
}

}  // namespace

Plan nccl_tree(std::size_t p, std::size_t node_gpus, std::size_t trees, std::size_t chunks, bool estimate) {
  if (p % node_gpus != 0) {
    throw InputError("tree: nodes of " + std::to_string(node_gpus) + " GPUs do not divide " + std::to_string(p) +
                     " ranks");
  }
  const NcclTreeLayout layout(p, node_gpus, std::max<std::size_t>(trees, 2));
  if (estimate) return nccl_tree_estimate(layout);
  Plan plan{{},
            "max over U, D of sum_U (a + n/(TC) b + g) + sum_D (a + n/(TC) b) + (C-1) (a + n/(TC) b)_slowest, "
            "U a leaf-to-root path, D a root-to-leaf path, T trees, b at every edge's fixed share",
            true};
  plan.channels = layout.trees;
  plan.pipelined_trees = layout.pipelined(1.0 / static_cast<double>(layout.trees * chunks));
  return plan;
}

// ---------------------------------------------------------------------------------------
// Recursive doubling and halving (Thakur et al. 2005, sec. 4.2-4.4). For p not a power of
// two, ranks fold into p' = 2^floor(log2 p) virtual ranks (rem = p - p'): even r < 2 rem
// sends to r + 1; virtual rank v is real rank 2v + 1 for v < rem, else v + rem, and holds
// the real blocks {2v, 2v+1} for v < rem, else {v + rem}. An unfold gives r its result.

struct Fold {
  std::size_t p, p2, rem;
  explicit Fold(std::size_t ranks)
      : p(ranks), p2(std::size_t{1} << floor_log2(ranks)), rem(ranks - p2) {}
  Rank real(std::size_t v) const { return rank(v < rem ? 2 * v + 1 : v + rem); }
  // Real blocks held by virtual ranks [first, first + count), in units of n.
  double blocks(std::size_t first, std::size_t count) const {
    const std::size_t doubled = first < rem ? std::min(first + count, rem) - first : 0;
    return static_cast<double>(count + doubled) / static_cast<double>(p);
  }
  Phase fold(const std::string& label, bool unfold, double units, bool reduce) const {
    Step step;
    for (Rank r = 0; r + 1 < 2 * rem; r += 2) {
      step.sends.push_back(unfold ? Send{r + 1, r, units} : Send{r, r + 1, units});
    }
    return {label, 1, units, reduce ? units : 0, {step}};
  }
};

// Doubling among the p' virtual ranks; step k exchanges with v XOR 2^k. AllReduce sends n
// and reduces it; AllGather sends the real blocks of v's group of 2^k virtual ranks, at
// most (2^k + min(2^k, rem)) n/p bytes (the group at 0).
Phase doubling(const Fold& f, const std::string& label, bool allreduce) {
  Phase phase{label, static_cast<double>(floor_log2(f.p2))};
  for (std::size_t d = 1; d < f.p2; d *= 2) {
    Step step;
    for (std::size_t v = 0; v < f.p2; ++v) {
      step.sends.push_back({f.real(v), f.real(v ^ d), allreduce ? 1 : f.blocks(v - v % d, d)});
    }
    phase.beta_n += allreduce ? 1 : f.blocks(0, d);
    phase.steps.push_back(std::move(step));
  }
  phase.gamma_n = allreduce ? phase.beta_n : 0;
  return phase;
}

// Halving among the p' virtual ranks; step k, h = p'/2^(k+1): v sends to v XOR h the real
// blocks of the half of its group of 2h that it does not keep, and reduces what it gets;
// at most (h + min(h, rem)) n/p bytes (the half at 0).
Phase halving(const Fold& f, const std::string& label) {
  Phase phase{label, static_cast<double>(floor_log2(f.p2))};
  for (std::size_t h = f.p2 / 2; h >= 1; h /= 2) {
    Step step;
    for (std::size_t v = 0; v < f.p2; ++v) {
      const std::size_t base = v - v % (2 * h), other_half = v - base < h ? base + h : base;
      step.sends.push_back({f.real(v), f.real(v ^ h), f.blocks(other_half, h)});
    }
    phase.beta_n += f.blocks(0, h);
    phase.steps.push_back(std::move(step));
  }
  phase.gamma_n = phase.beta_n;
  return phase;
}

// Recursive-doubling AllReduce and AllGather, recursive-halving ReduceScatter, and
// Rabenseifner's AllReduce (halving reduce-scatter + doubling all-gather among the same
// p' virtual ranks), with fold and unfold when p is not a power of two.
Plan recursive(Kind kind, Algo algorithm, std::size_t p) {
  const Fold f(p);
  const bool gather = kind == Kind::kAllGather;
  const double block = 1.0 / static_cast<double>(p);
  Plan plan;
  // Fold: AllGather sends its block n/p; the others send all n, which r + 1 reduces.
  if (f.rem > 0) plan.phases.push_back(f.fold("fold", false, gather ? block : 1, !gather));
  if (algorithm == Algo::kRabenseifner) {
    plan.phases.push_back(halving(f, "recursive-halving reduce-scatter"));
    plan.phases.push_back(doubling(f, "recursive-doubling all-gather", false));
  } else if (kind == Kind::kReduceScatter) {
    plan.phases.push_back(halving(f, "recursive halving"));
  } else {
    plan.phases.push_back(doubling(f, "recursive doubling", kind == Kind::kAllReduce));
  }
  // Unfold: AllReduce returns n, AllGather the p-1 blocks r lacks, ReduceScatter block r.
  const double back = kind == Kind::kAllReduce ? 1 : gather ? (p - 1) * block : block;
  if (f.rem > 0) plan.phases.push_back(f.fold("unfold", true, back, false));

  // S = sum over the log2(p') steps of min(2^k, rem), the doubled blocks; 0 for p = p'.
  const std::string sum = "p'-1 + sum_k min(2^k, rem)";
  if (algorithm == Algo::kRabenseifner) {
    plan.formula = f.rem == 0 ? "2log2(p) a + 2(p-1)/p n b + (p-1)/p n g"
                              : "(2log2(p')+2) a + (2 + 2(" + sum + ")/p) n b + (1 + (" + sum +
                                    ")/p) n g";
  } else if (kind == Kind::kAllReduce) {
    plan.formula = f.rem == 0 ? "log2(p) a + log2(p) n b + log2(p) n g"
                              : "(log2(p')+2) a + (log2(p')+2) n b + (log2(p')+1) n g";
  } else if (gather) {
    plan.formula = f.rem == 0 ? "log2(p) a + (p-1)/p n b"
                              : "(log2(p')+2) a + (1 + " + sum + " + p-1)/p n b";
  } else {
    plan.formula = f.rem == 0 ? "log2(p) a + (p-1)/p n b + (p-1)/p n g"
                              : "(log2(p')+2) a + (1 + (" + sum + " + 1)/p) n b + (1 + (" + sum +
                                    ")/p) n g";
  }
  return plan;
}

// ---------------------------------------------------------------------------------------
// Direct, pairwise, Bruck (Thakur et al. 2005, sec. 4.6 and 3) and dissemination.

// Every rank sends n/p to each of the p-1 others at once: alpha + n/p beta, with beta per
// byte of one message (the p-1 messages share the NPU's injection bandwidth). On a cluster
// a node's sends to other nodes all leave through NICs, each GPU's own or (NCCL's PXN) its
// node's on the peer's rail, so the step is also bound by its busiest NIC (Step::by_nic);
// links beyond the NICs (a leaf's uplinks) are left to the simulation, as contention.
Phase direct(std::size_t p, const std::string& label, bool reduce) {
  const double block = 1.0 / static_cast<double>(p);
  Step step;
  step.by_nic = true;
  for (Rank r = 0; r < p; ++r) {
    for (Rank d = 0; d < p; ++d) {
      if (d != r) step.sends.push_back({r, d, block});
    }
  }
  return {label, 1, block, reduce ? (p - 1) * block : 0, {step}};
}

Plan direct_plan(Kind kind, std::size_t p) {
  switch (kind) {
    case Kind::kAllReduce:
      return {{direct(p, "direct reduce-scatter", true), direct(p, "direct all-gather", false)},
              "2 a + 2 n/p b + (p-1)/p n g"};
    case Kind::kReduceScatter:
      return {{direct(p, "direct reduce-scatter", true)}, "a + n/p b + (p-1)/p n g"};
    case Kind::kAllGather: return {{direct(p, "direct all-gather", false)}, "a + n/p b"};
    default: return {{direct(p, "direct all-to-all", false)}, "a + n/p b"};
  }
}

// Shift steps: step k sends units(k) to (r + shift(k)) mod p, for k = 0..steps-1.
template <typename Shift, typename Units>
Phase shifts(const std::string& label, std::size_t p, std::size_t steps, Shift shift,
             Units units) {
  Phase phase{label, static_cast<double>(steps)};
  for (std::size_t k = 0; k < steps; ++k) {
    Step step;
    for (Rank r = 0; r < p; ++r) step.sends.push_back({r, rank((r + shift(k)) % p), units(k)});
    phase.beta_n += units(k);
    phase.steps.push_back(std::move(step));
  }
  return phase;
}

// Pairwise exchange: step k = 0..p-2 sends n/p to (r + k + 1) mod p:
//   (p-1) alpha + (p-1)/p n beta.
Plan pairwise(std::size_t p) {
  const double block = 1.0 / static_cast<double>(p);
  return {{shifts("pairwise", p, p - 1, [](std::size_t k) { return k + 1; },
                  [block](std::size_t) { return block; })},
          "(p-1) a + (p-1)/p n b"};
}

// Bruck (Bruck et al. 1997): L steps of distance 2^k.
//   AllGather: min(2^k, p - 2^k) blocks to (r - 2^k) mod p: L alpha + (p-1)/p n beta.
//   AllToAll: to (r + 2^k) mod p the blocks whose offset o < p has bit k set:
//     L alpha + sum_k |{o : bit k of o}|/p n beta  (= L/2 n beta when p is a power of 2).
Plan bruck(Kind kind, std::size_t p) {
  const double block = 1.0 / static_cast<double>(p);
  if (kind == Kind::kAllGather) {
    const auto blocks = [=](std::size_t k) { return std::min<double>(1u << k, p - (1u << k)); };
    return {{shifts("bruck", p, ceil_log2(p), [p](std::size_t k) { return p - (1u << k); },
                    [=](std::size_t k) { return blocks(k) * block; })},
            "L a + (p-1)/p n b, L = ceil(log2 p)"};
  }
  const auto with_bit_k = [=](std::size_t k) {
    const std::size_t d = std::size_t{1} << k, rest = p % (2 * d);
    return static_cast<double>(p / (2 * d) * d + (rest > d ? rest - d : 0)) * block;
  };
  return {{shifts("bruck", p, ceil_log2(p), [](std::size_t k) { return 1u << k; }, with_bit_k)},
          "L a + sum_k |{o < p : bit k of o}|/p n b, L = ceil(log2 p)"};
}

// Dissemination barrier (Hensgen, Finkel & Manber 1988): round k sends 0 bytes to
// (r + 2^k) mod p: L alpha.
Plan dissemination(std::size_t p) {
  return {{shifts("dissemination", p, ceil_log2(p), [](std::size_t k) { return 1u << k; },
                  [](std::size_t) { return 0.0; })},
          "L a, L = ceil(log2 p)"};
}

// ---------------------------------------------------------------------------------------
// Dispatch and formatting.

Plan plan(const Topology& t, Kind kind, Algo algorithm, const ModelOptions& o) {
  const std::size_t p = t.npu_count();
  switch (algorithm) {
    case Algo::kRing:
    case Algo::kRingBidir:
    case Algo::kHierarchical:
    case Algo::kDimensional: return levels_plan(t, kind, algorithm, o);
    case Algo::kTree:
      if (kind != Kind::kAllReduce) return binomial(p, o.root, kind == Kind::kReduce);
      return o.tree_node_gpus > 0 ? nccl_tree(p, o.tree_node_gpus, o.channels, o.chunks, o.estimate)
                                  : double_binary_tree(p);
    case Algo::kRecursiveDoubling:
    case Algo::kRecursiveHalving:
    case Algo::kRabenseifner: return recursive(kind, algorithm, p);
    case Algo::kDirect: return direct_plan(kind, p);
    case Algo::kPairwise: return pairwise(p);
    case Algo::kBruck: return bruck(kind, p);
    case Algo::kDissemination: return dissemination(p);
    case Algo::kNvls:
    case Algo::kNvlsTree: break;  // not a plan of messages: in_switch_cost
  }
  return {};
}

}  // namespace commsim::model
