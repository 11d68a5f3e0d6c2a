#include "model/collective_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <utility>

#include "base/error.h"
#include "model/cost_plan.h"
#include "model/in_switch_model.h"
#include "model/p2p_model.h"
#include "topology/in_switch.h"

namespace commsim {

using namespace model;  // the plans (cost_plan.h), this file's only user of them

namespace {

class Evaluator {
 public:
  using BothWays = std::array<double, 2>;  // units on a half-duplex link, each way
  // The units every message of a set puts on each channel, and on each half-duplex link each
  // way.
  struct LinkLoads {
    std::map<ChannelId, double> on_channel;
    std::map<LinkId, BothWays> half_duplex;
  };

  Evaluator(const Topology& topology, double overhead_s, const ProtocolCosts& library, const RateCapsByClass& caps,
            bool route_latency)
      : topology_(topology), overhead_s_(overhead_s), library_(library), caps_(caps), route_latency_(route_latency) {}

  CostTerm evaluate(const Phase& phase, double n) const {
    CostTerm term{phase.label, phase.alpha_count, phase.beta_n * n, phase.gamma_n * n};
    // alpha: the steps run one after another, each at its own alpha (step_alpha_s), so the
    // phase's alphas are the sum of its steps' (repeats counted), averaged over its
    // alpha_count; alphas beyond its steps (chunks) at the largest; a phase of fewer alphas
    // than steps (steps at once) at the largest alone.
    double largest = 0, total = 0, steps = 0, seconds = 0;
    const bool moves = phase.beta_n > 0 && !phase.chain;
    for (const Step& step : phase.steps) {
      const StepCost c = moves ? step_cost(step, n) : StepCost{step_alpha_s(step), 0};
      largest = std::max(largest, c.alpha_s);
      total += step.repeat * c.alpha_s;
      steps += step.repeat;
      seconds += step.repeat * c.seconds_per_n;
    }
    term.alpha_s = steps > 0 && steps <= phase.alpha_count
                       ? (total + (phase.alpha_count - steps) * largest) / phase.alpha_count
                       : largest;
    // beta_bytes * beta = the sum of the step times.
    if (moves) term.beta_s_per_byte = seconds / phase.beta_n;
    return term;
  }

  // Chains (one per level, S_l hops each) pipelining C chunks through all their hops in
  // order form one flow shop of C identical jobs. Stage k takes tau_k = a_k + c h_k
  // (+ c gamma when reducing), a_k the alpha of hop k (o + its route's latency and library
  // step), c the bytes of one chunk and h_k the seconds per byte of hop k, so the makespan
  // is sum_k tau_k + (C - 1) max_k tau_k. Each level's term holds its own S_l stages, with
  //   alpha = sum_k a_k / S_l,   beta = sum_k h_k / S_l,
  // and the level with the slowest stage j also the C - 1 extra ones:
  //   alpha = (sum_k a_k + (C - 1) a_j) / (S_l + C - 1),
  //   beta  = (sum_k h_k + (C - 1) h_j) / (S_l + C - 1).
  // One level of p ranks on uniform hops: (p - 2 + C)(alpha + n/C beta). Chains of different
  // lanes (a bidirectional ring's two directions, channels' rings) run at once, each its own
  // flow shop: lanes in step (a ring's two directions) share links with the other lanes' hops
  // of the same index (message_seconds); lanes at their channels' fixed rates
  // (Phase::channel_rates) with every hop of every lane (fixed_rate_seconds). The terms are
  // the slowest lane's.
  std::vector<CostTerm> evaluate_chains(const std::vector<Phase>& chains, double n, double gamma,
                                        std::size_t chunks) const {
    std::size_t lanes = 0;
    for (const Phase& chain : chains) lanes = std::max(lanes, chain.lane + 1);
    std::vector<std::vector<const Phase*>> levels(lanes);  // each lane's chains in order
    for (const Phase& chain : chains) levels[chain.lane].push_back(&chain);
    std::vector<Send> every_hop;  // of the lanes at fixed rates
    for (const Phase& chain : chains) {
      if (!chain.channel_rates) continue;
      for (const Step& hop : chain.steps) every_hop.insert(every_hop.end(), hop.sends.begin(), hop.sends.end());
    }
    const LinkLoads loads = link_loads(every_hop);
    std::vector<std::vector<CostTerm>> each_lane;
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      if (!levels[lane].empty()) each_lane.push_back(evaluate_flow_shop(levels, lane, n, gamma, chunks, loads));
    }
    return slowest(std::move(each_lane), gamma);
  }

  // NCCL's trees, each at its channel's fixed rate (PipelinedTrees), C chunks. Every edge's
  // message of a chunk takes a fixed time: up from child x to parent y tau_xy = a + c h, its
  // latency a and its bytes c at its share of every link with every edge of every tree busy
  // both ways (h: fixed_rate_seconds, as the run's collective/channel_rates.h); down tau'_yx
  // likewise; y's receive from its children adds g_y = gamma x (its children) x c. The
  // runner's rules (a lane's step waits for its previous step and for the previous chunk's
  // same step; a transfer for its send and its receive) make chunk k's times a max-plus
  // recursion, U_y(k) when y has its children's chunk k summed, R_x(k) when x has it back:
  //   U_y(k) = g_y + max( max_x (tau_xy + U_x(k)),  max_x tau_xy + U_y(k-1) ),  U_leaf = 0
  //   R_x(k) = tau'_yx + max( R_y(k),  max_x' R_x'(k-1) ),  x' y's children, R_root = U_root
  // whose last chunk ends, per tree, at the maximum over a leaf-to-root path U and a
  // root-to-leaf path D (a path is its leaf) of
  //   A_U + A_D + (C-1) max(M_U, M_D),
  //   A_U = sum over x->y in U of (tau_xy + g_y),   M_U = max over y on U of (max_x tau_xy + g_y),
  //   A_D = sum over y->x in D of tau'_yx,           M_D = max over y on D of max_x tau'_yx
  // (y on a path: its every rank but the leaf): the last chunk climbs U and descends D, and
  // the chunks before it pass the slowest stage beside them once each (a receive at y waits
  // for y's previous one, from the slowest child). The maximum splits,
  //   max (a + b + K max(x, y)) = max( max (a + K x) + max b,  max a + max (b + K y) ),
  // so each path is walked once. The terms are the slowest tree's: its U, its D and C - 1
  // stages.
  std::vector<CostTerm> evaluate_trees(const PipelinedTrees& plan, double n, double gamma, std::size_t chunks) const {
    std::vector<Send> every_edge;
    for (const auto& tree : plan.trees) {
      for (const PipelinedTrees::Edge& e : tree) {
        every_edge.push_back({e.child, e.parent, plan.units});
        every_edge.push_back({e.parent, e.child, plan.units});
      }
    }
    const LinkLoads loads = link_loads(every_edge);
    std::vector<std::vector<CostTerm>> each_tree;
    for (const auto& tree : plan.trees) {
      each_tree.push_back(evaluate_tree(tree, plan.units, n, gamma, static_cast<double>(chunks - 1), loads));
    }
    return slowest(std::move(each_tree), gamma);
  }

 private:
  // The terms of the slowest of `candidates` at gamma; the first of equals.
  static std::vector<CostTerm> slowest(std::vector<std::vector<CostTerm>> candidates, double gamma) {
    std::size_t slowest_index = 0;
    double slowest_s = -1;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      double seconds = 0;
      for (const CostTerm& t : candidates[i]) seconds += t.time_s(gamma);
      if (seconds > slowest_s) {
        slowest_s = seconds;
        slowest_index = i;
      }
    }
    return candidates.empty() ? std::vector<CostTerm>{} : std::move(candidates[slowest_index]);
  }

  // A tree edge's message: its latency (o included), seconds per byte, and the bytes reduced
  // after it per byte (its receiver's children, on the way up).
  struct TreeStage {
    double alpha_s = 0, h = 0, reduced = 0;
    double seconds(double c, double gamma) const { return alpha_s + c * (h + reduced * gamma); }
    void add(const TreeStage& s) {
      alpha_s += s.alpha_s;
      h += s.h;
      reduced += s.reduced;
    }
  };
  // A path of a tree: its stages summed, and the slowest stage beside it.
  struct TreePath {
    TreeStage sum, slowest;
    double hops = 0;
  };

  TreeStage tree_stage(Rank src, Rank dst, double units, const LinkLoads& loads) const {
    const Send s{src, dst, units};
    return {step_alpha_s(Step{{s}}), fixed_rate_seconds(s, loads) / units, 0};
  }

  // One tree (evaluate_trees), K = C - 1 chunks behind the last: its U, D and pipeline terms.
  std::vector<CostTerm> evaluate_tree(const std::vector<PipelinedTrees::Edge>& edges, double units, double n,
                                      double gamma, double behind, const LinkLoads& loads) const {
    const double c = units * n;
    const std::size_t p = topology_.npu_count();
    constexpr Rank kRoot = std::numeric_limits<Rank>::max();
    std::vector<Rank> parent(p, kRoot);
    std::vector<double> children(p, 0);
    std::vector<TreeStage> up(p), down(p);  // of the edge between r and its parent
    for (const PipelinedTrees::Edge& e : edges) {
      parent[e.child] = e.parent;
      children[e.parent] += 1;
      up[e.child] = tree_stage(e.child, e.parent, units, loads);
      down[e.child] = tree_stage(e.parent, e.child, units, loads);
    }
    std::vector<std::optional<TreeStage>> into(p), out_of(p);  // slowest from r's children, to them
    const auto keep_slower = [&](std::optional<TreeStage>& slowest, const TreeStage& s) {
      if (!slowest || s.seconds(c, gamma) > slowest->seconds(c, gamma)) slowest = s;
    };
    for (Rank r = 0; r < p; ++r) {
      if (parent[r] == kRoot) continue;
      up[r].reduced = children[parent[r]];
      keep_slower(into[parent[r]], up[r]);
      keep_slower(out_of[parent[r]], down[r]);
    }
    const auto seconds = [&](const TreePath& path, double stages) {
      return path.sum.seconds(c, gamma) + stages * path.slowest.seconds(c, gamma);
    };
    // The best of each: A_U + K M_U, A_U, A_D, A_D + K M_D.
    std::array<std::optional<TreePath>, 4> best;
    const auto keep_best = [&](std::optional<TreePath>& kept, const TreePath& path, double stages) {
      if (!kept || seconds(path, stages) > seconds(*kept, stages)) kept = path;
    };
    for (Rank leaf = 0; leaf < p; ++leaf) {
      if (parent[leaf] == kRoot || children[leaf] > 0) continue;
      TreePath climb, descent;
      for (Rank r = leaf; parent[r] != kRoot; r = parent[r]) {
        climb.sum.add(up[r]);
        descent.sum.add(down[r]);
        climb.hops = descent.hops += 1;
        if (climb.hops == 1 || into[parent[r]]->seconds(c, gamma) > climb.slowest.seconds(c, gamma)) {
          climb.slowest = *into[parent[r]];
        }
        if (descent.hops == 1 || out_of[parent[r]]->seconds(c, gamma) > descent.slowest.seconds(c, gamma)) {
          descent.slowest = *out_of[parent[r]];
        }
      }
      keep_best(best[0], climb, behind);
      keep_best(best[1], climb, 0);
      keep_best(best[2], descent, 0);
      keep_best(best[3], descent, behind);
    }
    if (!best[0]) return {};
    const bool climb_paces =
        seconds(*best[0], behind) + seconds(*best[2], 0) >= seconds(*best[1], 0) + seconds(*best[3], behind);
    const TreePath& u = climb_paces ? *best[0] : *best[1];
    const TreePath& d = climb_paces ? *best[2] : *best[3];
    std::vector<CostTerm> terms{tree_term("reduce up the tree", u.sum, u.hops, c),
                                tree_term("broadcast down the tree", d.sum, d.hops, c)};
    if (behind > 0) terms.push_back(tree_term("pipeline", (climb_paces ? u : d).slowest, 1, c, behind));
    return terms;
  }

  // `stages` stages whose sum is `sum` (`count` times over), c bytes each.
  static CostTerm tree_term(std::string label, const TreeStage& sum, double stages, double c, double count = 1) {
    return {std::move(label),        count * stages,       count * stages * c,
            count * sum.reduced * c, sum.alpha_s / stages, sum.h / stages};
  }

  // Lane `lane`'s chains as one flow shop (evaluate_chains).
  std::vector<CostTerm> evaluate_flow_shop(const std::vector<std::vector<const Phase*>>& levels, std::size_t lane,
                                           double n, double gamma, std::size_t chunks, const LinkLoads& loads) const {
    struct Stage {
      double alpha_s = 0, h = 0;
    };
    const std::vector<const Phase*>& chains = levels[lane];
    std::vector<CostTerm> terms;
    std::vector<Stage> sum(chains.size());
    std::size_t slowest_level = 0;
    Stage slowest;
    double slowest_tau = -1;
    for (std::size_t l = 0; l < chains.size(); ++l) {
      CostTerm term = evaluate(*chains[l], n);
      const double stages = term.alpha_count;
      const double chunk_bytes = term.beta_bytes / stages, chunk_gamma_s = term.gamma_bytes * gamma / stages;
      for (std::size_t k = 0; k < chains[l]->steps.size(); ++k) {
        const Step& hop = chains[l]->steps[k];
        const bool fixed = chains[l]->channel_rates;
        const std::vector<Send> side_by_side = fixed ? std::vector<Send>{} : sends_beside(levels, lane, l, k);
        Stage stage{step_alpha_s(hop), 0};
        for (const Send& s : hop.sends) {
          if (s.units <= 0) continue;
          const double seconds = fixed ? fixed_rate_seconds(s, loads) : message_seconds(s, side_by_side);
          stage.h = std::max(stage.h, seconds / s.units);
        }
        sum[l].alpha_s += stage.alpha_s;
        sum[l].h += stage.h;
        const double tau = stage.alpha_s + chunk_bytes * stage.h + chunk_gamma_s;
        if (tau > slowest_tau) {
          slowest_tau = tau;
          slowest_level = l;
          slowest = stage;
        }
      }
      term.alpha_s = sum[l].alpha_s / stages;
      term.beta_s_per_byte = sum[l].h / stages;
      terms.push_back(std::move(term));
    }
    CostTerm& t = terms[slowest_level];
    const double stages = t.alpha_count, extra = static_cast<double>(chunks - 1);
    t.alpha_count += extra;
    t.alpha_s = (sum[slowest_level].alpha_s + extra * slowest.alpha_s) / (stages + extra);
    t.beta_bytes *= (stages + extra) / stages;
    t.gamma_bytes *= (stages + extra) / stages;
    t.beta_s_per_byte = (sum[slowest_level].h + extra * slowest.h) / (stages + extra);
    return terms;
  }

  // The messages hop k of level l of `lane` moves beside: its own, and the other lanes' hop k
  // of level l, in step with it (a ring's mirrored directions share links hop by hop).
  static std::vector<Send> sends_beside(const std::vector<std::vector<const Phase*>>& levels, std::size_t lane,
                                        std::size_t l, std::size_t k) {
    const std::vector<const Phase*>& chains = levels[lane];
    std::vector<Send> sends = chains[l]->steps[k].sends;
    for (std::size_t other = 0; other < levels.size(); ++other) {
      if (other != lane && l < levels[other].size() && k < levels[other][l]->steps.size()) {
        const auto& beside = levels[other][l]->steps[k].sends;
        sends.insert(sends.end(), beside.begin(), beside.end());
      }
    }
    return sends;
  }

  // What `sends` put on the links, all at once.
  LinkLoads link_loads(const std::vector<Send>& sends) const {
    LinkLoads loads;
    for (const Send& s : sends) {
      for (const ChannelId channel : topology_.route(s.src, s.dst)) loads.on_channel[channel] += s.units;
    }
    loads.half_duplex = half_duplex_units(sends);
    return loads;
  }

  // Seconds per unit of n of message `s` at its channel's fixed rate (Phase::channel_rates),
  // every message of `loads` on the links at once: the larger of its bytes at its own rate
  // and its share of each link of its route, in wire bytes (efficiency e): the units on the
  // link over its bandwidth (a half-duplex link's both ways, half_duplex_seconds).
  double fixed_rate_seconds(const Send& s, const LinkLoads& loads) const {
    const PathParams p = path(s);
    double seconds = s.units / std::min(library_.rate(p.bottleneck_Bps), caps_[static_cast<int>(p.link_class)]);
    for (const ChannelId channel : topology_.route(s.src, s.dst)) {
      const double units = loads.on_channel.at(channel);
      seconds =
          std::max(seconds, units / (library_.efficiency * topology_.link(link_of(channel)).params.bandwidth_Bps));
      if (const auto it = loads.half_duplex.find(link_of(channel)); it != loads.half_duplex.end()) {
        seconds = std::max(seconds, half_duplex_seconds(it->first, it->second));
      }
    }
    return seconds;
  }

  // Seconds per unit of n of message `s` among `concurrent` (s among them): the largest of
  // its bytes at its own rate, its sender's bytes over its injection bandwidth, and the
  // bytes on the busiest channel of its route, in wire bytes (efficiency e).
  double message_seconds(const Send& s, const std::vector<Send>& concurrent) const {
    const PathParams p = path(s);
    const double rate = std::min(library_.rate(p.bottleneck_Bps), caps_[static_cast<int>(p.link_class)]);
    double seconds = s.units / rate, injected = 0;
    if (concurrent.size() == 1) return seconds;  // alone: its rate is its route's share at most
    std::map<ChannelId, double> units;
    const Route route = topology_.route(s.src, s.dst);
    for (const ChannelId channel : route) units[channel] = 0;
    for (const Send& other : concurrent) {
      if (other.src == s.src) injected += other.units;
      for (const ChannelId channel : topology_.route(other.src, other.dst)) {
        if (const auto it = units.find(channel); it != units.end()) it->second += other.units;
      }
    }
    seconds = std::max(seconds, injected / (library_.efficiency * topology_.injection_bandwidth(s.src)));
    for (const auto& [channel, u] : units) {
      seconds = std::max(seconds, u / (library_.efficiency * topology_.link(link_of(channel)).params.bandwidth_Bps));
    }
    for (const auto& [link, both_ways] : half_duplex_units(concurrent)) {
      const bool on_route = std::any_of(route.begin(), route.end(), [&](ChannelId c) { return link_of(c) == link; });
      if (on_route) seconds = std::max(seconds, half_duplex_seconds(link, both_ways));
    }
    return seconds;
  }

  PathParams path(const Send& s) const { return path_params(topology_, s.src, s.dst); }

  // A message's latency before its bytes move: its route's (with the library's step latency
  // for the route's class of link, once per loop of the call: ProtocolCosts::run_step_latency),
  // ps, without the overhead o.
  TimePs send_latency_ps(const Send& s) const {
    const PathParams p = path(s);
    const TimePs library_ps = p.hops > 0 ? library_.run_step_latency(p.link_class) : 0;
    return (route_latency_ ? p.latency_ps : 0) + library_ps;
  }

  // o + the largest latency over the step's messages, s.
  double step_alpha_s(const Step& step) const {
    TimePs latency_ps = 0;
    for (const Send& s : step.sends) latency_ps = std::max(latency_ps, send_latency_ps(s));
    return overhead_s_ + seconds_from_ps(latency_ps);
  }

  // One step at size n: alpha + n x seconds_per_n.
  struct StepCost {
    double alpha_s = 0;
    double seconds_per_n = 0;
  };
  // A step ends when its slowest message arrives, each message its latency and then its
  // bytes. Messages of one latency: that latency and step_seconds. Messages of several
  // latencies (a ring across nodes whose NVLink hops wait for the library's step once per
  // loop while its network hops, quicker to start, move slower; an AllToAll's peers in the
  // node and beyond it): each message in its own time, the step the slowest message's at n,
  //   max over messages m of  o + a_m + n x h_m,
  // h_m step_seconds' bounds on m's own share: its bytes at its rate, its peer's bytes over
  // the route's bottleneck, and with by_link (by_nic) the bytes on the busiest link (NIC) of
  // its route; its sender's over its injection bandwidth only without by_link, as a proxy for
  // its links (with it, m's own links bound m, and its sender's other links, a NIC beside an
  // NVLink port, carry the rest: a pipelined tree's network hop). The largest h_m is
  // step_seconds (whose injection bound the busiest link's dominates under by_link), so a
  // step of one latency is the same either way; one of several is what the simulator runs
  // (the largest latency with the slowest bytes would charge one message's latency to
  // another's bytes).
  StepCost step_cost(const Step& step, double n) const {
    TimePs low = std::numeric_limits<TimePs>::max(), high = 0;
    for (const Send& s : step.sends) {
      const TimePs latency = send_latency_ps(s);
      low = std::min(low, latency);
      high = std::max(high, latency);
    }
    if (low >= high) return {overhead_s_ + seconds_from_ps(high), step_seconds(step)};
    std::map<std::pair<Rank, Rank>, double> to_peer;
    std::map<Rank, double> injected;
    std::vector<double> on_channel(step.by_link || step.by_nic ? 2 * topology_.link_count() : 0, 0.0);
    for (const Send& s : step.sends) {
      to_peer[{s.src, s.dst}] += s.units;
      injected[s.src] += s.units;
      if (!on_channel.empty()) {
        for (const ChannelId channel : topology_.route(s.src, s.dst)) on_channel[channel] += s.units;
      }
    }
    const double e = library_.efficiency;
    const std::map<LinkId, BothWays> half_duplex = half_duplex_units(step.sends);
    StepCost slowest{0, -1};
    for (const Send& s : step.sends) {
      const PathParams p = path(s);
      const double rate = std::min(library_.rate(p.bottleneck_Bps), caps_[static_cast<int>(p.link_class)]);
      double h = std::max(s.units / rate, to_peer[{s.src, s.dst}] / (e * p.bottleneck_Bps));
      if (!step.by_link) h = std::max(h, injected[s.src] / (e * topology_.injection_bandwidth(s.src)));
      for (const ChannelId channel : topology_.route(s.src, s.dst)) {
        if (!on_channel.empty() && (step.by_link || is_nic(channel))) {
          h = std::max(h, on_channel[channel] / (e * topology_.link(link_of(channel)).params.bandwidth_Bps));
        }
        if (const auto it = half_duplex.find(link_of(channel)); it != half_duplex.end()) {
          h = std::max(h, half_duplex_seconds(it->first, it->second));
        }
      }
      const StepCost c{overhead_s_ + seconds_from_ps(send_latency_ps(s)), h};
      if (slowest.seconds_per_n < 0 || c.alpha_s + n * c.seconds_per_n > slowest.alpha_s + n * slowest.seconds_per_n) {
        slowest = c;
      }
    }
    return slowest;
  }

  // Seconds per unit of n of one step: the slowest rank, whose time is
  //   max( sum of its bytes / (e x injection_bandwidth(r)),
  //        max over peers (its bytes to the peer / (e x bottleneck),
  //                        max over its messages to the peer bytes / rate) ),
  // e the protocol's efficiency (its data share of the wire), rate = min(e x bottleneck, cap,
  // the cap of the route's class): the messages to one peer share the route, and each is a
  // flow of its own with its own cap (several rings' messages to one peer move at several
  // caps, as in the simulator); and no less than any half-duplex link's both ways
  // (half_duplex_seconds) or, by_link / by_nic, its busiest link or NIC.
  double step_seconds(const Step& step) const {
    std::vector<Send> sends = step.sends;
    std::sort(sends.begin(), sends.end(), [](const Send& a, const Send& b) {
      return std::pair(a.src, a.dst) < std::pair(b.src, b.dst);
    });
    double worst = 0;
    for (std::size_t i = 0; i < sends.size();) {
      const Rank src = sends[i].src;
      double total = 0;
      while (i < sends.size() && sends[i].src == src) {
        const std::size_t first = i;
        double to_peer = 0, largest = 0;
        for (; i < sends.size() && sends[i].src == src && sends[i].dst == sends[first].dst; ++i) {
          to_peer += sends[i].units;
          largest = std::max(largest, sends[i].units);
        }
        total += to_peer;
        const PathParams p = path(sends[first]);
        const double rate = std::min(library_.rate(p.bottleneck_Bps), caps_[static_cast<int>(p.link_class)]);
        worst = std::max({worst, to_peer / (library_.efficiency * p.bottleneck_Bps), largest / rate});
      }
      worst = std::max(worst, total / (library_.efficiency * topology_.injection_bandwidth(src)));
    }
    if (step.by_link) worst = std::max(worst, busiest_link_seconds(step, false));
    if (step.by_nic && has_nics()) worst = std::max(worst, busiest_link_seconds(step, true));
    for (const auto& [link, units] : half_duplex_units(step.sends)) {
      worst = std::max(worst, half_duplex_seconds(link, units));
    }
    return worst;
  }

  // The step's units on each half-duplex link its messages cross, each way (empty on a
  // topology of full-duplex links alone).
  std::map<LinkId, BothWays> half_duplex_units(const std::vector<Send>& sends) const {
    std::map<LinkId, BothWays> units;
    if (!has_half_duplex()) return units;
    for (const Send& s : sends) {
      for (const ChannelId channel : topology_.route(s.src, s.dst)) {
        if (topology_.link(link_of(channel)).params.duplex == Duplex::kHalf) {
          units[link_of(channel)][channel % 2] += s.units;
        }
      }
    }
    return units;
  }

  // Seconds per unit of n of a half-duplex link carrying `units` each way: both ways share its
  // bandwidth, of which both_ways_efficiency is left while both move (network.cpp,
  // capacity_now): (u_0 + u_1) / (e x bandwidth x [both_ways_efficiency if u_0, u_1 > 0]).
  // Exact for a step that moves as much each way (a ring's both directions across the link).
  double half_duplex_seconds(LinkId link, const BothWays& units) const {
    const LinkParams& params = topology_.link(link).params;
    const double turn = units[0] > 0 && units[1] > 0 ? params.both_ways_efficiency : 1.0;
    return (units[0] + units[1]) / (library_.efficiency * params.bandwidth_Bps * turn);
  }

  bool has_half_duplex() const {
    if (!has_half_duplex_) {
      has_half_duplex_ = std::any_of(topology_.links().begin(), topology_.links().end(),
                                     [](const Link& l) { return l.params.duplex == Duplex::kHalf; });
    }
    return *has_half_duplex_;
  }

  // Whether any link is of network class (else no step is bound by a NIC), found on the
  // first step that asks: a collective of no direct step never scans the links.
  bool has_nics() const {
    if (!has_nics_) {
      has_nics_ = std::any_of(topology_.links().begin(), topology_.links().end(),
                              [](const Link& l) { return link_class(l.params.kind) == LinkClass::kNet; });
    }
    return *has_nics_;
  }

  // An NPU's link of network class: its NIC.
  bool is_nic(ChannelId channel) const {
    const auto npu = [&](VertexId v) { return v < topology_.npu_count(); };
    return link_class(topology_.link(link_of(channel)).params.kind) == LinkClass::kNet &&
           (npu(topology_.channel_source(channel)) || npu(topology_.channel_target(channel)));
  }

  // Seconds per unit of n of the link (of the NICs alone: nics_only) whose messages of the
  // step carry the most wire bytes: max over links of (sum of their units) / (e x bandwidth).
  // Sees what the per-rank bound above does not: several flows into one rank's link, or out
  // of it to different peers, or (PXN) other ranks' flows through a rank's NIC.
  double busiest_link_seconds(const Step& step, bool nics_only) const {
    std::map<ChannelId, double> units;
    for (const Send& s : step.sends) {
      for (const ChannelId channel : topology_.route(s.src, s.dst)) {
        if (!nics_only || is_nic(channel)) units[channel] += s.units;
      }
    }
    double worst = 0;
    for (const auto& [channel, u] : units) {
      const BandwidthBps bandwidth = topology_.link(link_of(channel)).params.bandwidth_Bps;
      worst = std::max(worst, u / (library_.efficiency * bandwidth));
    }
    return worst;
  }

  const Topology& topology_;
  double overhead_s_;
  ProtocolCosts library_;
  RateCapsByClass caps_;
  bool route_latency_;  // false: NCCL's estimate, whose step latency is the whole hop
  mutable std::optional<bool> has_nics_;  // has_nics(), once asked
  mutable std::optional<bool> has_half_duplex_;  // has_half_duplex(), once asked
};

void validate(const Topology& t, Kind kind, Algo algorithm, const ModelOptions& o) {
  const std::string what =
      std::string(collective_name(kind)) + " with " + std::string(algorithm_name(algorithm));
  if (!implements(algorithm, kind)) throw InputError("no closed form for " + what);
  if (o.chunks == 0) throw InputError(what + ": chunks must be at least 1");
  for (const auto& [name, value] :
       {std::pair{"overhead", o.overhead_s}, std::pair{"gamma", o.gamma_s_per_byte}}) {
    if (!(value >= 0) || !std::isfinite(value)) {
      throw InputError(what + ": " + name + " must be finite and not negative");
    }
  }
  if ((kind == Kind::kBroadcast || kind == Kind::kReduce) && o.root >= t.npu_count()) {
    throw InputError(what + ": root " + std::to_string(o.root) + " is not a rank (0.." +
                     std::to_string(t.npu_count() - 1) + ")");
  }
}

// Up to two decimals, locale-independent: 917504, 0.5, 43690.67.
std::string two_decimals(double x) {
  char buffer[64];
  const double rounded = std::round(x * 100) / 100;
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, rounded, std::chars_format::fixed);
  return std::string(buffer, end.ptr);
}

std::string format_seconds_per_byte(double x) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 4);
  return std::string(buffer, end.ptr) + " s/B";
}

// The smallest latency of a path between two distinct NPUs, ps, without routing all p^2
// pairs: a Dijkstra from every NPU at once labels each vertex with its nearest NPU; the
// answer is the cheapest link (u, v) joining two labels, dist(u) + latency(u, v) + dist(v).
// O((V + E) log V). It is at most every route's latency, and equal to the smallest one
// where routes between nearest NPUs are latency-shortest paths (all built topologies).
TimePs closest_npus_latency_ps(const Topology& t) {
  const Graph& g = t.graph();
  constexpr TimePs kUnreached = std::numeric_limits<TimePs>::max();
  std::vector<TimePs> dist(t.vertex_count(), kUnreached);
  std::vector<VertexId> nearest(t.vertex_count());
  using Item = std::pair<TimePs, VertexId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (VertexId r = 0; r < t.npu_count(); ++r) {
    dist[r] = 0;
    nearest[r] = r;
    queue.push({0, r});
  }
  const auto latency = [&](const auto& edge) { return t.link(g[edge].link).params.latency_ps; };
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d > dist[u]) continue;
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      const auto w = boost::target(*it, g);
      if (d + latency(*it) < dist[w]) {
        dist[w] = d + latency(*it);
        nearest[w] = nearest[u];
        queue.push({dist[w], static_cast<VertexId>(w)});
      }
    }
  }
  TimePs best = kUnreached;
  for (auto [it, end] = boost::edges(g); it != end; ++it) {
    const auto u = boost::source(*it, g), w = boost::target(*it, g);
    if (dist[u] == kUnreached || dist[w] == kUnreached || nearest[u] == nearest[w]) continue;
    best = std::min(best, dist[u] + latency(*it) + dist[w]);
  }
  return best == kUnreached ? 0 : best;
}

// A library's per-call latency L_call, once per collective (NCCL's baseLatencies).
void add_call_latency(CollectiveCost& cost, const ProtocolCosts& library) {
  if (library.call_latency_ps == 0) return;
  CostTerm call{"library call", 1, 0, 0, seconds_from_ps(library.call_latency_ps), 0};
  cost.terms.push_back(std::move(call));
  const std::size_t definitions = cost.formula.find(", ");
  cost.formula.insert(std::min(definitions, cost.formula.size()), " + L_call");
}

}  // namespace

double CollectiveCost::time_s(double gamma_s_per_byte) const {
  double total = 0;
  for (const CostTerm& term : terms) total += term.time_s(gamma_s_per_byte);
  return total;
}

CollectiveCost collective_cost(const Topology& topology, CollectiveKind kind,
                               AlgorithmKind algorithm, Bytes size, const ModelOptions& options) {
  validate(topology, kind, algorithm, options);
  if (topology.npu_count() == 1) return {{}, "0 (p = 1)"};
  if (reduces_in_switch(algorithm)) {
    CollectiveCost cost = in_switch_cost(topology, algorithm, size, options);
    add_call_latency(cost, options.library);
    return cost;
  }
  Plan p = plan(topology, kind, algorithm, options);
  // Chunks: C pieces pipeline through the algorithm. Chains: see evaluate_chains; NCCL's
  // trees: evaluate_trees; pipelined plans hold their own (NCCL's estimate of its tree, which
  // has none). Others add C - 1 alpha terms (exact for the ring
  // family with gamma = 0: (S + C - 1) alpha + S n/p beta; approximate where steps differ in
  // size or levels overlap).
  ProtocolCosts per_flow = options.library;  // the call's rate cap, shared by its channels
  per_flow.max_rate_Bps /= static_cast<double>(p.channels);
  const Evaluator evaluator(topology, options.overhead_s, per_flow, options.rate_caps_by_class, !options.estimate);
  const double n = static_cast<double>(size);
  CollectiveCost cost{{}, std::move(p.formula)};
  if (!p.pipelined_trees.trees.empty()) {
    cost.terms = evaluator.evaluate_trees(p.pipelined_trees, n, options.gamma_s_per_byte, options.chunks);
    add_call_latency(cost, options.library);
    return cost;
  }
  if (p.phases.front().chain) {
    cost.terms = evaluator.evaluate_chains(p.phases, n, options.gamma_s_per_byte, options.chunks);
    add_call_latency(cost, options.library);
    return cost;
  }
  if (options.chunks > 1 && !p.pipelined) {
    p.phases.front().alpha_count += static_cast<double>(options.chunks - 1);
    const std::size_t definitions = cost.formula.find(", ");  // "..., L = ceil(log2 p)"
    cost.formula.insert(std::min(definitions, cost.formula.size()), " + (C-1) a");
  }
  for (const Phase& phase : p.phases) cost.terms.push_back(evaluator.evaluate(phase, n));
  add_call_latency(cost, options.library);
  return cost;
}

// After Chan, Heimlich, Purkayastha & van de Geijn 2007, Table 1:
//   Broadcast      a + n b
//   Reduce         a + n b + (p-1)/p n g/2
//   AllGather      a + (p-1)/p n b
//   ReduceScatter  a + (p-1)/p n (b + g/2)
//   AllReduce      a + 2(p-1)/p n b + (p-1)/p n g/2
//   AllToAll       a + (p-1)/p n b
//   Barrier        a
// a = o + the smallest route latency between two distinct ranks, s; b = 1 / (the smallest
// injection bandwidth of a rank), s/B; g = gamma, s/B. p = 1: 0.
// Two departures from the paper's single-port model, so that the bound holds for every
// algorithm the simulator runs: a rank may send to all its peers at once (the direct
// algorithms finish in one round), so the latency term is one message, not ceil(log2 p)
// rounds; and reductions run per channel, at most two at once (ring-bidir, the double
// binary tree), so the reduction work counts half.
double collective_lower_bound_s(const Topology& topology, CollectiveKind kind, Bytes size,
                                const ModelOptions& options) {
  const std::size_t p = topology.npu_count();
  if (p <= 1) return 0;
  BandwidthBps injection = topology.injection_bandwidth(0);
  for (Rank r = 1; r < p; ++r) injection = std::min(injection, topology.injection_bandwidth(r));
  const double a = options.overhead_s + seconds_from_ps(closest_npus_latency_ps(topology));
  const double b = 1 / injection, n = static_cast<double>(size);
  double g = options.gamma_s_per_byte;
  const double share = static_cast<double>(p - 1) / static_cast<double>(p) * n;
  const double latency = a + seconds_from_ps(options.library.call_latency_ps);
  g /= 2;
  switch (kind) {
    case Kind::kBroadcast: return latency + n * b;
    case Kind::kReduce: return latency + n * b + share * g;
    case Kind::kAllGather:
    case Kind::kAllToAll: return latency + share * b;
    case Kind::kReduceScatter: return latency + share * (b + g);
    case Kind::kAllReduce: {
      // A switch that reduces needs each rank's data once and returns the sum once: n each
      // way, below the 2(p-1)/p n of reducing on the ranks (p > 2), with no arithmetic on
      // the ranks and one hop to the switch as the latency.
      const std::vector<InSwitchGroup> groups = in_switch_groups(topology);
      if (groups.empty()) return latency + 2 * share * b + share * g;
      TimePs hop_ps = std::numeric_limits<TimePs>::max();
      for (const InSwitchGroup& group : groups) {
        for (const Rank r : group.ranks) {
          hop_ps = std::min(hop_ps, topology.link(link_of(topology.channel_between(r, group.switch_vertex))).params.latency_ps);
        }
      }
      const double hop_latency = options.overhead_s + seconds_from_ps(hop_ps) +
                                 seconds_from_ps(options.library.call_latency_ps);
      return std::min(latency + 2 * share * b + share * g, hop_latency + std::min(2 * share, n) * b);
    }
    case Kind::kBarrier: return latency;
  }
  return latency;
}

// "# label: 7 x 300 ns + 917504 B / 50 GB/s + 917504 B x 0 s/B = 20.45 us", one line a term,
// a comment line like every other line that is not a table row.
std::string describe_cost(const CollectiveCost& cost, const ModelOptions& options) {
  const double g = options.gamma_s_per_byte;
  std::string text;
  for (const CostTerm& t : cost.terms) {
    text +=
        "# " + t.label + ": " + two_decimals(t.alpha_count) + " x " + format_time(ps_from_seconds(t.alpha_s)) + " + " +
        two_decimals(t.beta_bytes) + " B" +
        (t.beta_s_per_byte > 0 ? " / " + format_bandwidth(1 / t.beta_s_per_byte) : " x " + format_seconds_per_byte(0)) +
        " + " + two_decimals(t.gamma_bytes) + " B x " + format_seconds_per_byte(g) + " = " +
        format_time(ps_from_seconds(t.time_s(g))) + "\n";
  }
  return text;
}

}  // namespace commsim
