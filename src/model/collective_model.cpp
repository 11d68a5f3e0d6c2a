#include "model/collective_model.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "model/cost_plan.h"
#include "model/in_switch_model.h"
#include "model/plan_evaluator.h"
#include "topology/in_switch.h"

namespace commsim {

using namespace model;  // the plans (cost_plan.h) and their Evaluator (plan_evaluator.h)

namespace {

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
