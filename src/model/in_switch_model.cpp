// Closed form of AllReduce reduced in the switch (algorithms nvls, nvls-tree), written apart
// from the simulator's flows (collective/in_switch_run.h has the same model in words).
// Flows carry whole bytes, so the shares are rounded up:
//   T = L_call + [2 ceil(log2 N) L_net] + max(T_switch, T_tree) + fill
//   T_switch = max over GPUs and directions of  o + L_nvlink + latency + n (G+1)/G / rate
//   T_tree   = max over tree flows of  o + latency + n/(2G) x max over links of its route
//              (tree flows on the link / bandwidth)
// rate: the library's in-switch efficiency and cap on the GPU-switch link; the cross-node
// tree flows run at the route's full bandwidth, sharing it. fill: nvls on one switch, the two
// rounds of NCCL's chunks its pipeline fills with (topology/in_switch.h, in_switch_fill_ps);
// nvls-tree, the 2d-1 rounds of chunks up and down the tree (in_switch_tree_fill_ps).
// In NCCL's estimate (ModelOptions::estimate) beyond two nodes, T_tree is NCCL's own
// bandwidth term instead (nccl_tree_estimate_term). Source of the latency terms: NCCL
// src/graph/tuning.cc (NVLS: base 0 + one NVLink step; NVLSTree: + 2 log2(nodes) net steps).

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/binary_tree.h"
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

// The tree's flows across nodes (collective/in_switch_run.h): `bytes` = n/(2G) up and down
// every edge, GPU k to GPU k, all at once. Sharing max-min fairly, the flows of the link
// with the most flows per unit of bandwidth get that share from start to end (they are all
// of one size), and no flow gets less than its own route's such share.
// Under NCCL's estimate (o.estimate) the routes' latency is left out, as in every ranking.
CostTerm tree_share_term(const Topology& t, const std::vector<InSwitchTreeFlow>& flows, double bytes,
                         const ModelOptions& o) {
  Worst worst{{"cross-node tree share of each NPU's 1/G"}};
  for (const InSwitchTreeFlow& f : flows) {
    // A flow capped below its links' share moves at its cap: the cap is the least rate of
    // all, or the share of a link whose flows all move at it is (max-min, one size each).
    const BandwidthBps cap =
        o.estimate ? kNoRateCaps[0] : o.rate_caps_by_class[static_cast<int>(t.route_class(f.route))];
    const double wire_s = o.estimate ? 0 : seconds_from_ps(path_params(t, f.from, f.to).latency_ps);
    worst.consider(o.overhead_s + wire_s, bytes, std::min(f.share_Bps, cap));
  }
  return worst.term;
}

// NCCL's estimate of nvls-tree across more than two nodes (src/graph/tuning.cc's tuner
// constants after release 2.26): a bus bandwidth of G heads (a GPU and its NIC each) at
// min(network rate, cap) each, turned into the call's rate as a ring's is, x p / (2(p-1)):
//   T = 2(p-1)/p n / (G min(r, cap)),  r the slowest route from a GPU to its peer in another node
// (perChMaxNVLSTreeBw: cap; LibraryProfile::nvls_tree_net_rate_Bps). On 10 nodes of 8 H100s
// with 48.5 GB/s NICs: 364 GB/s where a ring's estimate has 388, so the ring, slower to start,
// overtakes it at large sizes: from 6.1 GB by this model's ring estimate (each step at its
// slowest hop), near 3.1 GB by NCCL's (its hops summed along the ring), where the cluster's
// measurements turn, between 2 and 4 GiB.
CostTerm nccl_tree_estimate_term(const Topology& t, const std::vector<InSwitchGroup>& groups, double n,
                                 const ModelOptions& o) {
  BandwidthBps rate = o.estimate_nvls_tree_net_rate_Bps;
  for (std::size_t k = 0; k < groups.front().ranks.size(); ++k) {
    rate = std::min(rate, path_params(t, groups[0].ranks[k], groups[1].ranks[k]).bottleneck_Bps);
  }
  const double p = static_cast<double>(t.npu_count()), g = static_cast<double>(groups.front().ranks.size());
  return {"NCCL's estimate: G heads across nodes", 1, 2 * (p - 1) / p * n, 0, o.overhead_s, 1 / (g * rate)};
}

}  // namespace

BandwidthBps nvls_tree_flow_cap(const Topology& t, Bytes size, const LibraryProfile& profile) {
  const std::vector<InSwitchGroup> groups = in_switch_groups(t);
  const std::uint32_t channels = profile.call_channels(size, Algo::kNvlsTree, Protocol::kSimple, t.npu_count());
  if (groups.size() < 2 || channels == 0 || !std::isfinite(profile.net_channel_rate_Bps)) return kNoRateCaps[0];
  const std::vector<std::uint32_t> edges = edges_per_member(double_tree_edges(groups.size()), groups.size());
  const double heads = static_cast<double>(groups.front().ranks.size());
  const double most_edges = *std::max_element(edges.begin(), edges.end());
  return profile.net_channel_rate_Bps * channels / heads / most_edges;
}

CollectiveCost in_switch_cost(const Topology& t, Algo algorithm, Bytes size, const ModelOptions& o) {
  const bool tree = algorithm == Algo::kNvlsTree;
  if (const auto reason = in_switch_unavailable(t, tree)) {
    throw InputError("algorithm '" + std::string(algorithm_name(algorithm)) + "': " + *reason);
  }
  const std::vector<InSwitchGroup> groups = in_switch_groups(t);
  const double n = static_cast<double>(size), g = static_cast<double>(groups.front().ranks.size());
  const double switch_bytes = std::ceil(n * (g + 1) / g);
  const ProtocolCosts& c = o.library;
  const double step_s = seconds_from_ps(c.step_latency(LinkClass::kNvlink));

  Worst to_switch{{"reduce and multicast in the switch"}};
  for (const InSwitchGroup& group : groups) {
    for (const Rank r : group.ranks) {
      for (const ChannelId channel : {t.channel_between(r, group.switch_vertex), t.channel_between(group.switch_vertex, r)}) {
        const LinkParams& link = t.link(link_of(channel)).params;
        const double wire_s = o.estimate ? 0 : seconds_from_ps(link.latency_ps);
        to_switch.consider(o.overhead_s + step_s + wire_s, switch_bytes,
                           c.rate(link.bandwidth_Bps));
      }
    }
  }
  CollectiveCost cost{{}, "a + (G+1)/G n b, G NPUs on the reducing switch"};
  if (!tree) {
    cost.terms.push_back(to_switch.term);
    if (const TimePs fill_ps = in_switch_fill_ps(t, groups, size, c)) {
      cost.terms.push_back({"pipeline fill: 2 rounds of NCCL's chunks", 1, 0, 0, seconds_from_ps(fill_ps), 0});
      cost.formula += " + 2 rounds of chunks";
    }
    return cost;
  }
  // NCCL's estimate beyond two nodes has a term of its own and no fill: no flows to route.
  const bool nccl_estimate = o.estimate && groups.size() > 2;
  const std::vector<InSwitchTreeFlow> flows =
      nccl_estimate ? std::vector<InSwitchTreeFlow>{} : in_switch_tree_flows(t, groups);
  const CostTerm tree_share =
      nccl_estimate ? nccl_tree_estimate_term(t, groups, n, o) : tree_share_term(t, flows, std::ceil(n / (2 * g)), o);
  const double levels = 2.0 * std::bit_width(groups.size() - 1);  // 2 ceil(log2 N)
  cost.terms.push_back({"tree levels across nodes", levels, 0, 0, seconds_from_ps(c.step_latency(LinkClass::kNet)), 0});
  cost.terms.push_back(to_switch.term.time_s(0) >= tree_share.time_s(0) ? to_switch.term : tree_share);
  cost.formula = "2 ceil(log2 N) a_net + max(a + (G+1)/G n b, a' + n/(2G) k b'), N nodes of G NPUs, k the most "
                 "tree flows on a link";
  if (const TimePs fill_ps = in_switch_tree_fill_ps(t, groups, flows, size, c, o.rate_caps_by_class)) {
    cost.terms.push_back(
        {"pipeline fill: 2d-1 rounds of NCCL's chunks through the tree", 1, 0, 0, seconds_from_ps(fill_ps), 0});
    cost.formula += " + (2d-1) rounds of chunks, d the tree's depth";
  }
  return cost;
}

}  // namespace commsim::model
