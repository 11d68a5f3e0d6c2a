#include "model/plan_evaluator.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace commsim::model {

CostTerm Evaluator::evaluate(const Phase& phase, double n) const {
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

std::vector<CostTerm> Evaluator::evaluate_chains(const std::vector<Phase>& chains, double n, double gamma,
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

std::vector<CostTerm> Evaluator::evaluate_trees(const PipelinedTrees& plan, double n, double gamma,
                                                std::size_t chunks) const {
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

std::vector<CostTerm> Evaluator::slowest(std::vector<std::vector<CostTerm>> candidates, double gamma) {
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

Evaluator::TreeStage Evaluator::tree_stage(Rank src, Rank dst, double units, const LinkLoads& loads) const {
  const Send s{src, dst, units};
  return {step_alpha_s(Step{{s}}), fixed_rate_seconds(s, loads) / units, 0};
}

std::vector<CostTerm> Evaluator::evaluate_tree(const std::vector<PipelinedTrees::Edge>& edges, double units, double n,
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

CostTerm Evaluator::tree_term(std::string label, const TreeStage& sum, double stages, double c, double count) {
  return {std::move(label),        count * stages,       count * stages * c,
          count * sum.reduced * c, sum.alpha_s / stages, sum.h / stages};
}

std::vector<CostTerm> Evaluator::evaluate_flow_shop(const std::vector<std::vector<const Phase*>>& levels,
                                                    std::size_t lane, double n, double gamma, std::size_t chunks,
                                                    const LinkLoads& loads) const {
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

std::vector<Send> Evaluator::sends_beside(const std::vector<std::vector<const Phase*>>& levels, std::size_t lane,
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

Evaluator::LinkLoads Evaluator::link_loads(const std::vector<Send>& sends) const {
  LinkLoads loads;
  for (const Send& s : sends) {
    for (const ChannelId channel : topology_.route(s.src, s.dst)) loads.on_channel[channel] += s.units;
  }
  loads.half_duplex = half_duplex_units(sends);
  return loads;
}

double Evaluator::fixed_rate_seconds(const Send& s, const LinkLoads& loads) const {
  const PathParams p = path(s);
  double seconds = s.units / std::min(library_.rate(p.bottleneck_Bps), caps_[static_cast<int>(p.link_class)]);
  for (const ChannelId channel : topology_.route(s.src, s.dst)) {
    const double units = loads.on_channel.at(channel);
    seconds = std::max(seconds, units / (library_.efficiency * topology_.link(link_of(channel)).params.bandwidth_Bps));
    if (const auto it = loads.half_duplex.find(link_of(channel)); it != loads.half_duplex.end()) {
      seconds = std::max(seconds, half_duplex_seconds(it->first, it->second));
    }
  }
  return seconds;
}

double Evaluator::message_seconds(const Send& s, const std::vector<Send>& concurrent) const {
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

TimePs Evaluator::send_latency_ps(const Send& s) const {
  const PathParams p = path(s);
  const TimePs library_ps = p.hops > 0 ? library_.run_step_latency(p.link_class) : 0;
  return (route_latency_ ? p.latency_ps : 0) + library_ps;
}

double Evaluator::step_alpha_s(const Step& step) const {
  TimePs latency_ps = 0;
  for (const Send& s : step.sends) latency_ps = std::max(latency_ps, send_latency_ps(s));
  return overhead_s_ + seconds_from_ps(latency_ps);
}

Evaluator::StepCost Evaluator::step_cost(const Step& step, double n) const {
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

double Evaluator::step_seconds(const Step& step) const {
  std::vector<Send> sends = step.sends;
  std::sort(sends.begin(), sends.end(),
            [](const Send& a, const Send& b) { return std::pair(a.src, a.dst) < std::pair(b.src, b.dst); });
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

std::map<LinkId, Evaluator::BothWays> Evaluator::half_duplex_units(const std::vector<Send>& sends) const {
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

double Evaluator::half_duplex_seconds(LinkId link, const BothWays& units) const {
  const LinkParams& params = topology_.link(link).params;
  const double turn = units[0] > 0 && units[1] > 0 ? params.both_ways_efficiency : 1.0;
  return (units[0] + units[1]) / (library_.efficiency * params.bandwidth_Bps * turn);
}

bool Evaluator::has_half_duplex() const {
  if (!has_half_duplex_) {
    has_half_duplex_ = std::any_of(topology_.links().begin(), topology_.links().end(),
                                   [](const Link& l) { return l.params.duplex == Duplex::kHalf; });
  }
  return *has_half_duplex_;
}

bool Evaluator::has_nics() const {
  if (!has_nics_) {
    has_nics_ = std::any_of(topology_.links().begin(), topology_.links().end(),
                            [](const Link& l) { return link_class(l.params.kind) == LinkClass::kNet; });
  }
  return *has_nics_;
}

bool Evaluator::is_nic(ChannelId channel) const {
  const auto npu = [&](VertexId v) { return v < topology_.npu_count(); };
  return link_class(topology_.link(link_of(channel)).params.kind) == LinkClass::kNet &&
         (npu(topology_.channel_source(channel)) || npu(topology_.channel_target(channel)));
}

double Evaluator::busiest_link_seconds(const Step& step, bool nics_only) const {
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

}  // namespace commsim::model
