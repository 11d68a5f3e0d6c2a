// Plans of the level-by-level algorithms: ring, ring-bidir, hierarchical, dimensional.

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <utility>

#include "base/error.h"
#include "model/cost_plan.h"

namespace commsim::model {
// ---------------------------------------------------------------------------------------
// Level by level: ring and ring-bidir (one level of p ranks), hierarchical (GPUs per node,
// nodes) and dimensional (mesh/torus dims). Rank r has digit_l = (r / stride_l) mod s_l,
// stride_l = s_0 ... s_{l-1}; a level's groups are the ranks that differ only in digit l;
// a rank's ring neighbour has digit_l +- 1 mod s_l. Level l carries n_l = n / stride_l.

struct Levels {
  std::vector<std::uint32_t> sizes;
  std::vector<std::string> names;  // label prefixes; "" for a plain ring
  bool bidir = false;              // two rings at once, one each way, half the data each
  std::size_t p = 1;

  std::size_t stride(std::size_t l) const {
    std::size_t s = 1;
    for (std::size_t i = 0; i < l; ++i) s *= sizes[i];
    return s;
  }
  std::size_t digit(Rank r, std::size_t l) const { return r / stride(l) % sizes[l]; }
  Rank neighbour(Rank r, std::size_t l, long dir) const {
    const long s = sizes[l], d = static_cast<long>(digit(r, l));
    return rank(static_cast<long>(r) + ((d + dir + s) % s - d) * static_cast<long>(stride(l)));
  }
  std::string label(std::size_t l, const std::string& op) const {
    return names[l].empty() ? op : names[l] + " " + op;
  }
  double share() const { return bidir ? 0.5 : 1.0; }  // of the data, per ring
};

// Ring (Thakur et al. 2005, sec. 4.4; NCCL's ring): s - 1 steps, each rank sends n_l / s to
// its neighbour; bidirectional: two rings at once, n_l / (2s) to each neighbour.
//   alpha (s-1), beta (s-1)/s n_l, gamma (s-1)/s n_l when it reduces (reduce-scatter);
//   bidirectional: n_l/2 in beta and gamma (the two rings reduce their halves at once).
Phase level_ring(const Levels& lv, std::size_t l, const std::string& op, bool reduce) {
  const double s = lv.sizes[l];
  const double u = lv.share() / (static_cast<double>(lv.stride(l)) * s);  // n_l / s per ring
  Step step{{}, s - 1};
  for (Rank r = 0; r < lv.p; ++r) {
    step.sends.push_back({r, lv.neighbour(r, l, +1), u});
    if (lv.bidir) step.sends.push_back({r, lv.neighbour(r, l, -1), u});
  }
  return {lv.label(l, op), s - 1, (s - 1) * u, reduce ? (s - 1) * u : 0, {step}};
}

// Chain broadcast (away from the root) or reduce (toward it) of n along level l, in every
// group whose digits below l are the root's (NCCL's ring Broadcast/Reduce; pipelined as in
// Chan et al. 2007, sec. 6): s - 1 hops of one chunk, n/C (n/(2C) per direction when
// bidirectional: lane 0 goes round one way, lane 1 the other, at once), each reduced on
// arrival for Reduce. evaluate_chains adds the C - 1 stages of the pipeline: one level gives
// (s - 2 + C) (alpha + n/C beta [+ n/C gamma]).
Phase level_chain(const Levels& lv, std::size_t l, Rank root, bool reduce, std::size_t chunks, std::size_t lane) {
  const std::size_t s = lv.sizes[l], root_digit = lv.digit(root, l);
  const double hops = static_cast<double>(s - 1);
  const double chunk = lv.share() / static_cast<double>(chunks);
  Phase phase{lv.label(l, reduce ? "reduce" : "broadcast"), hops, hops * chunk,
              reduce ? hops * chunk : 0};
  phase.chain = true;
  phase.lane = lane;
  const long dir = (reduce ? -1 : +1) * (lane == 0 ? 1 : -1);
  for (std::size_t k = 0; k + 1 < s; ++k) {
    // Broadcast hop k leaves digit root+k going +1 (lane 1: root-k going -1); reduce hop k
    // leaves digit root+s-1-k going -1 (lane 1: root+1+k going +1).
    const std::size_t forward = (reduce ? root_digit + s - 1 - k : root_digit + k) % s;
    const std::size_t backward = (reduce ? root_digit + 1 + k : root_digit + s - k) % s;
    const std::size_t from = lane == 0 ? forward : backward;
    Step hop;
    for (Rank r = 0; r < lv.p; ++r) {
      if (r % lv.stride(l) != root % lv.stride(l)) continue;  // lower digits not the root's
      if (lv.digit(r, l) == from) hop.sends.push_back({r, lv.neighbour(r, l, dir), lv.share()});
    }
    phase.steps.push_back(std::move(hop));
  }
  return phase;
}

// AllReduce = reduce-scatter at levels 0..L-1, then all-gather at L-1..0; AllGather and
// Broadcast go down the levels, ReduceScatter and Reduce up. Levels of size 1 drop out.
Plan per_level(Kind kind, const Levels& lv, const ModelOptions& o, bool ring) {
  Plan plan;
  plan.channels = lv.bidir ? 2 : 1;
  const auto up = [&](auto&& make) {
    for (std::size_t l = 0; l < lv.sizes.size(); ++l) {
      if (lv.sizes[l] > 1) plan.phases.push_back(make(l));
    }
  };
  const auto down = [&](auto&& make) {
    for (std::size_t l = lv.sizes.size(); l-- > 0;) {
      if (lv.sizes[l] > 1) plan.phases.push_back(make(l));
    }
  };
  const auto rs = [&](std::size_t l) { return level_ring(lv, l, "reduce-scatter", true); };
  const auto ag = [&](std::size_t l) { return level_ring(lv, l, "all-gather", false); };
  // Chains: every level's, one lane per direction (two at once when bidirectional).
  const auto chains = [&](bool reduce) {
    for (std::size_t lane = 0; lane < (lv.bidir ? 2u : 1u); ++lane) {
      const auto level = [&](std::size_t l) { return level_chain(lv, l, o.root, reduce, o.chunks, lane); };
      if (reduce) {
        up(level);
      } else {
        down(level);
      }
    }
  };
  // The formula, with p for a plain ring.
  const std::string s = ring ? "p" : "s_l", a = ring ? " a" : " a_l", b = ring ? " b" : " b_l";
  const std::string nl = ring ? "n" : "n_l", half = lv.bidir ? "(" + nl + "/2)" : nl;
  const std::string moved = "(" + s + "-1)/" + s + " " + half + b;
  const std::string reduced = " + (" + s + "-1)/" + s + " " + half + " g";
  const std::string steps = "(" + s + "-1)" + a;
  // Chains: one pipeline through every level's hops (see evaluate_chains).
  const std::string chunk = lv.bidir ? "(n/2)/C" : "n/C";
  const auto chain_formula = [&](bool reduce) -> std::string {
    const std::string g = reduce ? " + " + chunk + " g" : "";
    if (ring) {
      const std::string stages = "(p-2+C) ";
      return stages + "a + " + stages + chunk + " b" +
             (reduce ? " + " + stages + chunk + " g" : "");
    }
    const std::string stage = "(a_l + " + chunk + " b_l" + g + ")";
    return "sum_l (s_l-1) " + stage + " + (C-1) max_l " + stage;
  };
  switch (kind) {
    case Kind::kAllReduce:
      up(rs);
      down(ag);
      plan.formula = "2" + steps + " + 2" + moved + reduced;
      break;
    case Kind::kAllGather:
      down(ag);
      plan.formula = steps + " + " + moved;
      break;
    case Kind::kReduceScatter:
      up(rs);
      plan.formula = steps + " + " + moved + reduced;
      break;
    case Kind::kBroadcast:
      chains(false);
      plan.formula = chain_formula(false);
      return plan;
    default:
      chains(true);
      plan.formula = chain_formula(true);
      return plan;
  }
  if (!ring) plan.formula = "sum_l [" + plan.formula + "], n_l = n/(s_0...s_{l-1})";
  return plan;
}

// C rings at once (NCCL's channels), ring c in the order t.ring_order(c, C), each with n/C:
// every step each rank sends n/(C p) round each ring, so a step's time is set by the link
// that carries the most rings' bytes (on a rail-aligned hierarchical topology, a NIC: one
// ring each; an NVLink port: the C - 1 rings that stay in the node).
//   alpha (p-1), beta (p-1)/p n (at the step's effective rate), gamma (p-1)/p n.
Phase channel_rings(const Topology& t, std::size_t channels, const std::string& op, bool reduce) {
  const std::size_t p = t.npu_count();
  const double u = 1.0 / (static_cast<double>(channels) * static_cast<double>(p));
  Step step{{}, static_cast<double>(p - 1)};
  for (std::size_t c = 0; c < channels; ++c) {
    const std::vector<Rank> order = t.ring_order(c, channels);
    for (std::size_t i = 0; i < p; ++i) step.sends.push_back({order[i], order[(i + 1) % p], u});
  }
  const double moved = static_cast<double>(p - 1) / static_cast<double>(p);
  return {op, static_cast<double>(p - 1), moved, reduce ? moved : 0, {step}};
}

Plan channel_rings_plan(const Topology& t, Kind kind, std::size_t channels) {
  const std::string rings = ", " + std::to_string(channels) + " rings of n/" + std::to_string(channels);
  Plan plan;
  plan.channels = channels;
  switch (kind) {
    case Kind::kAllReduce:
      plan.phases = {channel_rings(t, channels, "reduce-scatter", true), channel_rings(t, channels, "all-gather", false)};
      plan.formula = "2(p-1) a + 2(p-1)/p n b + (p-1)/p n g" + rings;
      break;
    case Kind::kAllGather:
      plan.phases = {channel_rings(t, channels, "all-gather", false)};
      plan.formula = "(p-1) a + (p-1)/p n b" + rings;
      break;
    default:
      plan.phases = {channel_rings(t, channels, "reduce-scatter", true)};
      plan.formula = "(p-1) a + (p-1)/p n b + (p-1)/p n g" + rings;
  }
  return plan;
}

// C chains at once (NCCL's ring Broadcast and Reduce split the data over its channels), chain
// c along t.ring_order(c, C) away from the root (Broadcast) or toward it (Reduce), each with
// n/C in chunks of n/(C x chunks): lane c of evaluate_chains, the slowest lane's time.
Plan channel_chains_plan(const Topology& t, Kind kind, std::size_t channels, Rank root, std::size_t chunks) {
  const std::size_t p = t.npu_count();
  const bool reduce = kind == Kind::kReduce;
  const double share = 1.0 / static_cast<double>(channels), chunk = share / static_cast<double>(chunks);
  const double hops = static_cast<double>(p - 1);
  Plan plan;
  plan.channels = channels;
  std::vector<std::vector<Rank>> orders;
  for (std::size_t c = 0; c < channels; ++c) orders.push_back(t.ring_order(c, channels));
  // Each chain moves at its channel's fixed rate, its share of the links with every hop of
  // every chain (the run's too: collective/channel_rates.h). Chains round one cycle (a node's
  // rings, whatever GPU each starts from) are one chain from the root, hop by hop the same
  // links; chains round different cycles (rail-aligned rings across nodes) meet on links at
  // different hops.
  for (std::size_t c = 0; c < channels; ++c) {
    const std::vector<Rank>& order = orders[c];
    const auto at = static_cast<std::size_t>(std::find(order.begin(), order.end(), root) - order.begin());
    Phase phase{reduce ? "reduce" : "broadcast", hops, hops * chunk, reduce ? hops * chunk : 0};
    phase.chain = true;
    phase.lane = c;
    phase.channel_rates = true;
    for (std::size_t k = 0; k + 1 < p; ++k) {
      // Broadcast hop k: from k places past the root to the next; Reduce hop k: from the far
      // end's k-th rank back toward the root.
      const std::size_t from = reduce ? at + p - 1 - k : at + k, to = reduce ? at + p - 2 - k : at + k + 1;
      phase.steps.push_back(Step{{{order[from % p], order[to % p], share}}});
    }
    plan.phases.push_back(std::move(phase));
  }
  const std::string r = std::to_string(channels), chunk_text = "(n/" + r + ")/C";
  plan.formula = "(p-2+C) a + (p-2+C) " + chunk_text + " b" + (reduce ? " + (p-2+C) " + chunk_text + " g" : "") +
                 ", " + r + " rings of n/" + r + " at once";
  return plan;
}

Plan levels_plan(const Topology& t, Kind kind, Algo algorithm, const ModelOptions& o) {
  Levels lv;
  lv.p = t.npu_count();
  if (algorithm == Algo::kRing && o.channels > 1 && runs_round_the_ring(kind)) {
    return channel_rings_plan(t, kind, o.channels);
  }
  if (algorithm == Algo::kRing && o.channels > 1) return channel_chains_plan(t, kind, o.channels, o.root, o.chunks);
  if (algorithm == Algo::kRing || algorithm == Algo::kRingBidir) {
    lv.sizes = {static_cast<std::uint32_t>(lv.p)};
    lv.names = {""};
    lv.bidir = algorithm == Algo::kRingBidir;
    return per_level(kind, lv, o, true);
  }
  const std::optional<TopologyKind> shape = t.shape().kind;
  const bool hierarchical = algorithm == Algo::kHierarchical;
  if (hierarchical ? shape != TopologyKind::kHierarchical
                   : shape != TopologyKind::kMesh && shape != TopologyKind::kTorus &&
                         shape != TopologyKind::kRing) {
    throw InputError("no closed form for " + std::string(collective_name(kind)) + " with " +
                     std::string(algorithm_name(algorithm)) + " on " + t.description() +
                     ": it needs a " + (hierarchical ? "hierarchical" : "mesh or torus") +
                     " topology");
  }
  lv.sizes = t.shape().levels;
  for (std::size_t l = 0; l < lv.sizes.size(); ++l) {
    lv.names.push_back(!hierarchical ? "dim " + std::to_string(l)
                       : l == 0      ? "intra-node"
                                     : "inter-node");
  }
  // On a torus the dimensional rings are bidirectional.
  lv.bidir = !hierarchical && t.grid() && t.grid()->wrap;
  COMMSIM_CHECK(lv.stride(lv.sizes.size()) == lv.p, "topology levels do not multiply to p");
  return per_level(kind, lv, o, false);
}

}  // namespace commsim::model
