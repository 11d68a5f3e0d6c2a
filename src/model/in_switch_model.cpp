// Closed form of AllReduce reduced in the switch (algorithms nvls, nvls-tree), written apart
// from the simulator's flows (collective/in_switch_run.h has the same model in words).
// Flows carry whole bytes, so the shares are rounded up:
//   T = L_call + [2 ceil(log2 N) L_net] + max(T_switch, T_ring)
//   T_switch = max over GPUs and directions of  o + L_nvlink + latency + n (G+1)/G / rate
//   T_ring   = max over GPUs k, nodes i of  o + latency + 2(N-1)/N n/G / bandwidth
// rate: the library's in-switch efficiency and cap on the GPU-switch link; the cross-node
// ring share runs at the route's full bandwidth. Source of the latency terms: NCCL
// src/graph/tuning.cc (NVLS: base 0 + one NVLink step; NVLSTree: + 2 log2(nodes) net steps).

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/error.h"
#include "model/cost_plan.h"
#include "model/in_switch_model.h"
#include "model/p2p_model.h"
#include "topology/in_switch.h"

namespace commsim::model {
namespace {

// The slowest of flows of `bytes` each: the term alpha + bytes / rate of the worst.
struct Worst {
  CostTerm term;
  void consider(double alpha_s, double bytes, double rate_Bps) {
    const double t = alpha_s + bytes / rate_Bps;
    if (term.alpha_count == 0 || t > term.time_s(0)) {
      term.alpha_count = 1;
      term.alpha_s = alpha_s;
      term.beta_bytes = bytes;
      term.beta_s_per_byte = 1 / rate_Bps;
    }
  }
};

}  // namespace

CollectiveCost in_switch_cost(const Topology& t, Algo algorithm, Bytes size, const ModelOptions& o) {
  const bool tree = algorithm == Algo::kNvlsTree;
  if (const auto reason = in_switch_unavailable(t, tree)) {
    throw InputError("algorithm '" + std::string(algorithm_name(algorithm)) + "': " + *reason);
  }
  const std::vector<InSwitchGroup> groups = in_switch_groups(t);
  const double n = static_cast<double>(size), g = static_cast<double>(groups.front().ranks.size()),
               nodes = static_cast<double>(groups.size());
  const double switch_bytes = std::ceil(n * (g + 1) / g), ring_bytes = std::ceil(2 * (nodes - 1) * n / (nodes * g));
  const ProtocolCosts& c = o.library;
  const double step_s = seconds_from_ps(c.step_latency(LinkClass::kNvlink));

  Worst to_switch{{"reduce and multicast in the switch"}};
  for (const InSwitchGroup& group : groups) {
    for (const Rank r : group.ranks) {
      for (const ChannelId channel : {t.channel_between(r, group.switch_vertex), t.channel_between(group.switch_vertex, r)}) {
        const LinkParams& link = t.link(link_of(channel)).params;
        to_switch.consider(o.overhead_s + step_s + seconds_from_ps(link.latency_ps), switch_bytes,
                           c.rate(link.bandwidth_Bps));
      }
    }
  }
  CollectiveCost cost{{}, "a + (G+1)/G n b, G NPUs on the reducing switch"};
  if (!tree) {
    cost.terms.push_back(to_switch.term);
    return cost;
  }
  Worst ring{{"cross-node ring share of each NPU's 1/G"}};
  for (std::size_t i = 0; i < groups.size(); ++i) {
    for (std::size_t k = 0; k < groups[i].ranks.size(); ++k) {
      const PathParams path = path_params(t, groups[i].ranks[k], groups[(i + 1) % groups.size()].ranks[k]);
      ring.consider(o.overhead_s + seconds_from_ps(path.latency_ps), ring_bytes,
                    path.bottleneck_Bps);
    }
  }
  const double levels = 2.0 * std::bit_width(groups.size() - 1);  // 2 ceil(log2 N)
  cost.terms.push_back({"tree levels across nodes", levels, 0, 0, seconds_from_ps(c.step_latency(LinkClass::kNet)), 0});
  cost.terms.push_back(to_switch.term.time_s(0) >= ring.term.time_s(0) ? to_switch.term : ring.term);
  cost.formula = "2 ceil(log2 N) a_net + max(a + (G+1)/G n b, a' + 2(N-1)/N n/G b'), N nodes of G NPUs";
  return cost;
}

}  // namespace commsim::model
