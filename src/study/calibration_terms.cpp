#include "study/calibration_terms.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/error.h"
#include "topology/in_switch.h"

namespace commsim {
namespace {

constexpr std::array<LinkClass, 3> kClasses{LinkClass::kNvlink, LinkClass::kPcie, LinkClass::kNet};

std::string class_name(LinkClass c) {
  switch (c) {
    case LinkClass::kNvlink: return "nvlink";
    case LinkClass::kPcie: return "pcie";
    case LinkClass::kNet: return "network";
  }
  return "";
}

// The classes of link any of the topologies has, in LinkClass order.
std::vector<LinkClass> classes_present(const std::vector<const Topology*>& topologies) {
  std::vector<LinkClass> present;
  for (const LinkClass c : kClasses) {
    const bool has = std::any_of(topologies.begin(), topologies.end(), [&](const Topology* t) {
      return std::any_of(t->links().begin(), t->links().end(),
                         [&](const Link& l) { return link_class(l.params.kind) == c; });
    });
    if (has) present.push_back(c);
  }
  return present;
}

// Latency bounds: 0 to 1 ms, far above any library's per-call or per-step cost.
constexpr double kMaxLatencyUs = 1000;

// Which costs of the profile a term is in: protocols[index], tree[index], or the in-switch
// costs.
struct CostsOf {
  enum class Rows { kProtocols, kTree, kInSwitch } rows = Rows::kInSwitch;
  std::size_t index = 0;
  template <typename Fit>
  auto& in(Fit& f) const {
    switch (rows) {
      case Rows::kProtocols: return f.library.protocols[index].second;
      case Rows::kTree: return f.library.tree[index].second;
      case Rows::kInSwitch: break;
    }
    return *f.library.in_switch;
  }
};

// A latency of those costs: the call latency, or the step latency of a class of link.
struct LatencyOf {
  std::optional<LinkClass> step;  // empty: call latency
  template <typename Costs>
  auto& in(Costs& c) const {
    return step ? c.step_latency_ps[static_cast<int>(*step)] : c.call_latency_ps;
  }
};

CalibrationTerm latency_term(std::string name, CostsOf costs, LatencyOf latency) {
  return {std::move(name), "us", 0, kMaxLatencyUs, 1,
          [=](const LibraryFit& f) { return us_from_ps(latency.in(costs.in(f))); },
          [=](LibraryFit& f, double us) { latency.in(costs.in(f)) = ps_from_seconds(us * 1e-6); }};
}

// The share of the link those costs' flows sustain, and their rate cap with it: a cap that
// binds at the start (NCCL's llMaxBw) would leave the share no say in the fit, so the cap
// moves in proportion, max rate = start cap x share / start share.
CalibrationTerm efficiency_term(std::string name, CostsOf costs, const LibraryFit& start) {
  const ProtocolCosts& from = costs.in(start);
  const double cap_per_share = from.max_rate_Bps / from.efficiency;
  return {std::move(name), "", 0.05, 1, 1, [=](const LibraryFit& f) { return costs.in(f).efficiency; },
          [=](LibraryFit& f, double v) {
            costs.in(f).efficiency = v;
            costs.in(f).max_rate_Bps = cap_per_share * v;
          }};
}

void add_costs_terms(std::vector<CalibrationTerm>& terms, const std::string& prefix, const std::vector<LinkClass>& classes,
                     CostsOf costs) {
  terms.push_back(latency_term(prefix + " call latency", costs, {}));
  for (const LinkClass k : classes) terms.push_back(latency_term(prefix + " " + class_name(k) + " step", costs, {k}));
}

// The factor of `c.kind` in the fitted library's list `c` names (present: calibrate adds it
// before fitting).
CalibrationTerm collective_factor_term(FactoredCollective c) {
  const auto factor = [c](auto& f) -> auto& {
    auto& entries = c.one_node ? f.library.collective_bandwidth_one_node : f.library.collective_bandwidth;
    for (auto& entry : entries) {
      if (entry.first == c.kind) return entry.second;
    }
    throw InternalError("no bandwidth factor for " + std::string(collective_name(c.kind)));
  };
  return {std::string(collective_name(c.kind)) + " bandwidth factor" + (c.one_node ? " inside one node" : ""),
          "",
          0.1,
          2,
          1,
          [=](const LibraryFit& f) { return factor(f); },
          [=](LibraryFit& f, double v) { factor(f) = v; }};
}

// The system's launch cost on every call (LibraryProfile::launch_ps). It adds to every
// call latency at once, so the data alone cannot tell it from them; its scale of 30 us (the
// others' 1 us) makes the fit's pull toward the start 30 times weaker on it, so an intercept
// that every protocol and algorithm measured shows goes to the system's launch and leaves the
// library's own constants (NCCL's) where they were. It then carries over to the collectives
// and send/receive groups that were not measured.
CalibrationTerm launch_term() {
  return {"launch", "us", 0, kMaxLatencyUs, 30, [](const LibraryFit& f) { return us_from_ps(f.library.launch_ps); },
          [](LibraryFit& f, double us) { f.library.launch_ps = ps_from_seconds(us * 1e-6); }};
}

// What a host thread driving G GPUs spends launching each GPU's kernel, and each channel of
// it (ThreadLaunch; nccl-tests -g G rows are bound by it at small sizes). The per-call part
// is left: with one G in the rows it cannot be told from G x the per-GPU part.
void add_thread_launch_terms(std::vector<CalibrationTerm>& terms) {
  terms.push_back({"thread launch per gpu", "us", 0, kMaxLatencyUs, 1,
                   [](const LibraryFit& f) { return us_from_ps(f.library.thread_launch.per_gpu_ps); },
                   [](LibraryFit& f, double us) { f.library.thread_launch.per_gpu_ps = ps_from_seconds(us * 1e-6); }});
  terms.push_back({"thread launch per channel", "us", 0, kMaxLatencyUs, 0.1,
                   [](const LibraryFit& f) { return us_from_ps(f.library.thread_launch.per_channel_ps); },
                   [](LibraryFit& f, double us) { f.library.thread_launch.per_channel_ps = ps_from_seconds(us * 1e-6); }});
}

}  // namespace

std::vector<CalibrationTerm> calibration_terms(const std::vector<const Topology*>& topologies, const LibraryFit& fit,
                                               const std::vector<FactoredCollective>& factored, bool thread_driven) {
  const std::vector<LinkClass> classes = classes_present(topologies);
  std::vector<CalibrationTerm> terms;
  for (const LinkClass k : classes) {
    const int i = static_cast<int>(k);
    terms.push_back({class_name(k) + " bandwidth scale", "", 0.1, 2, 1,
                     [i](const LibraryFit& f) { return f.bandwidth_scale[i]; },
                     [i](LibraryFit& f, double v) { f.bandwidth_scale[i] = v; }});
  }
  if (fit.both_ways_efficiency) {
    terms.push_back({"half-duplex both-ways efficiency", "", 0.1, 1, 1,
                     [](const LibraryFit& f) { return *f.both_ways_efficiency; },
                     [](LibraryFit& f, double v) { f.both_ways_efficiency = v; }});
  }
  const std::size_t protocols = fit.library.protocols.size();
  for (std::size_t p = 0; p < protocols; ++p) {
    const std::string name(protocol_name(fit.library.protocols[p].first));
    const CostsOf costs{CostsOf::Rows::kProtocols, p};
    add_costs_terms(terms, name, classes, costs);
    // The bulk protocol (the profile's last) moves at the link's scaled bandwidth; the
    // others' share of it is their regime's bandwidth.
    if (p + 1 < protocols) terms.push_back(efficiency_term(name + " efficiency", costs, fit));
  }
  // The tree's rows: every share, its bulk protocol's too (NCCL's Tree moves 0.92 of the link).
  for (std::size_t p = 0; p < fit.library.tree.size(); ++p) {
    const std::string name = "tree " + std::string(protocol_name(fit.library.tree[p].first));
    const CostsOf costs{CostsOf::Rows::kTree, p};
    add_costs_terms(terms, name, classes, costs);
    terms.push_back(efficiency_term(name + " efficiency", costs, fit));
  }
  const bool reduces = std::any_of(topologies.begin(), topologies.end(),
                                   [](const Topology* t) { return !in_switch_groups(*t).empty(); });
  if (fit.library.in_switch && reduces) {
    add_costs_terms(terms, "nvls", classes, CostsOf{});
    terms.push_back(efficiency_term("nvls efficiency", CostsOf{}, fit));
  }
  if (fit.library.p2p) {
    for (const LinkClass k : classes) {
      const int i = static_cast<int>(k);
      const double rate = fit.library.p2p->channel_rate_Bps[i];
      if (!std::isfinite(rate)) continue;
      terms.push_back({"p2p " + class_name(k) + " channel rate", "GB/s", 0.1, 10 * gb_per_s(rate), gb_per_s(rate),
                       [i](const LibraryFit& f) { return gb_per_s(f.library.p2p->channel_rate_Bps[i]); },
                       [i](LibraryFit& f, double v) { f.library.p2p->channel_rate_Bps[i] = v * kBytesPerGB; }});
    }
    const double peer_rate = fit.library.p2p->net_peer_rate_Bps;
    if (std::isfinite(peer_rate)) {
      terms.push_back({"p2p network peer rate", "GB/s", 0.1, 10 * gb_per_s(peer_rate), gb_per_s(peer_rate),
                       [](const LibraryFit& f) { return gb_per_s(f.library.p2p->net_peer_rate_Bps); },
                       [](LibraryFit& f, double v) { f.library.p2p->net_peer_rate_Bps = v * kBytesPerGB; }});
    }
  }
  for (const FactoredCollective& c : factored) terms.push_back(collective_factor_term(c));
  if (!fit.library.ideal()) terms.push_back(launch_term());
  if (thread_driven && !fit.library.thread_launch.none()) add_thread_launch_terms(terms);
  return terms;
}

}  // namespace commsim
