#include "network/network.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "base/error.h"

namespace commsim {

Network::Network(Engine& engine, const Topology& topology, TimePs overhead_ps, ProtocolCosts library)
    : engine_(engine), topology_(topology), overhead_ps_(overhead_ps), library_(library) {
  COMMSIM_CHECK(overhead_ps >= 0, "negative overhead");
  const std::size_t channels = 2 * topology.link_count();
  hop_kind_.resize(channels);
  resources_.resize(channels);
  std::map<HopKind, std::uint32_t> index_of_kind;
  for (LinkId l = 0; l < topology.link_count(); ++l) {
    const LinkParams& p = topology.link(l).params;
    const HopKind kind{p.latency_ps, link_class(p.kind)};
    const auto [it, added] = index_of_kind.emplace(kind, static_cast<std::uint32_t>(hop_kinds_.size()));
    if (added) hop_kinds_.push_back(kind);
    for (const ChannelId c : {2 * l, 2 * l + 1}) {
      hop_kind_[c] = it->second;
      resources_[c].capacity_Bps = p.bandwidth_Bps;
      resources_[c].resource = p.duplex == Duplex::kHalf ? 2 * l : c;
    }
  }
  resource_local_.resize(channels, 0);
  engine_.add_batch_end_hook([this] { recompute_rates(); });
}

void Network::send(Rank src, Rank dst, Bytes bytes, EventCall on_arrival, SendOptions options) {
  COMMSIM_CHECK(src < topology_.npu_count() && dst < topology_.npu_count(),
                "send between ranks " + std::to_string(src) + " and " + std::to_string(dst) +
                    " on " + std::to_string(topology_.npu_count()) + " NPUs");
  topology_.route_into(src, dst, scratch_route_);  // throws for an explicit graph without a path
  for (const ChannelId c : scratch_route_) __builtin_prefetch(&resources_[c]);  // for launch()
  launch(new_flow(scratch_route_), bytes, on_arrival, options);
}

void Network::send_along(const Route& route, Bytes bytes, EventCall on_arrival, SendOptions options) {
  launch(new_flow(route), bytes, on_arrival, options);
}

Network::FlowId Network::new_flow(RouteView route) {
  const FlowId id = flows_.acquire();
  flows_[id].route = routes_.store(route);
  return id;
}

void Network::launch(FlowId id, Bytes bytes, EventCall on_arrival, SendOptions options) {
  COMMSIM_CHECK(options.rate_cap_Bps > 0, "flow rate cap must be positive");
  Flow& flow = flows_[id];
  // A protocol's efficiency e is the share of the bytes on the wire that carry data (LL:
  // 8 in 16), so a flow puts bytes / e on the wire, and its caps, which bound data, are
  // cap / e there. Alone on a route it takes bytes / min(e x bottleneck, cap) (ProtocolCosts::
  // rate); flows sharing a link share it in wire bytes, flags included.
  const ProtocolCosts& library = options.library ? *options.library : library_;
  flow.remaining_bytes = static_cast<double>(bytes) / library.efficiency;
  flow.rate_Bps = 0;
  flow.latency_ps = 0;
  BandwidthBps bottleneck = std::numeric_limits<double>::infinity();
  LinkClass route_class = LinkClass::kNvlink;  // Topology::route_class, in the same pass
  const RouteView route = route_of(id);
  for (const ChannelId c : route) {
    const HopKind& hop = hop_kinds_[hop_kind_[c]];
    flow.latency_ps = add_times(flow.latency_ps, hop.latency_ps, "route latency");
    bottleneck = std::min(bottleneck, resources_[c].capacity_Bps);
    route_class = std::max(route_class, hop.link_class);
  }
  BandwidthBps cap = options.rate_cap_Bps;
  if (options.rate_caps_by_class) cap = std::min(cap, (*options.rate_caps_by_class)[static_cast<int>(route_class)]);
  flow.cap_Bps = std::min(cap, library.rate(bottleneck)) / library.efficiency;
  flow.completion_ps = kNoCompletion;
  flow.on_arrival = engine_.listed(on_arrival);
  TimePs wait_ps = overhead_ps_;
  if (!route.empty()) {
    wait_ps = add_times(wait_ps, library.run_step_latency(route_class), "message overhead");
  }
  // Without a wait a flow sent from an event joins the current instant's batch directly.
  if (wait_ps == 0 && engine_.running()) {
    start_flow(id);
  } else {
    engine_.post_after(wait_ps, EventCall{&flow_start_, id});
  }
}

void Network::start_flow(FlowId id) {
  Flow& flow = flows_[id];
  if (flow.remaining_bytes == 0 || flow.route.length == 0) {
    engine_.post_after(flow.latency_ps, flow.on_arrival);
    release_flow(id);
    return;
  }
  const TimePs now = engine_.now();
  flow.last_update = now;
  if (flow_observer_) {
    if (flow_start_ps_.size() <= id) flow_start_ps_.resize(flows_.made());
    flow_start_ps_[id] = now;
  }
  const RouteView route = routes_.channels(flow.route);
  const std::span<std::uint32_t> positions = routes_.positions(flow.route);
  for (std::size_t i = 0; i < route.size(); ++i) {
    const std::uint32_t r = resource_of(route[i]);
    ++resources_[route[i]].channel_flows;
    Resource& resource = resources_[r];
    positions[i] = resource.flows.size();
    resource.flows.push_back(id);
    resource.peak_flows = std::max(resource.peak_flows, resource.flows.size());
    resource.use.flow_started(flow.remaining_bytes, resource.flows.size(), now);
  }
  if (!rate_lone_start(id, route)) other_changes_ = true;
  for (const ChannelId c : route) mark_dirty(resource_of(c));
  ++active_flows_;
}

std::optional<BandwidthBps> Network::lone_rate(const Flow& flow) const {
  BandwidthBps rate = flow.cap_Bps;
  for (const ChannelId c : routes_.channels(flow.route)) {
    const Resource& hop = resources_[resource_of(c)];
    if (hop.flows.size() > 1) return std::nullopt;
    rate = std::min(rate, hop.capacity_Bps);
  }
  return rate;
}

// What rate_unshared_flows() would find at the batch end if nothing else changes: the flow
// at its lone rate, first among the flows on resources it alone changed.
bool Network::rate_lone_start(FlowId id, RouteView route) {
  for (const ChannelId c : route) {
    if (resources_[resource_of(c)].mark == dirty_mark_) return false;
  }
  Flow& flow = flows_[id];
  const std::optional<BandwidthBps> rate = lone_rate(flow);
  if (!rate) return false;
  flow.rate_Bps = *rate;
  flow.completion_ps = add_times(flow.last_update, transfer_time(flow.remaining_bytes, *rate), "flow completion");
  lone_starts_.push_back({flow.completion_ps, id});
  return true;
}

void Network::FlowCompletion::prefetch(std::uint32_t id, bool near) const {
  const Flow& flow = network.flows_[id];
  if (!near) {
    __builtin_prefetch(&flow);
    return;
  }
  // A longer route's hops are in a pool that would have to be read first.
  if (flow.route.length > RouteStore::kInHandle) return;
  for (const ChannelId c : network.routes_.channels(flow.route)) __builtin_prefetch(&network.resources_[c]);
}

void Network::mark_dirty(std::uint32_t resource) {
  if (resources_[resource].mark == dirty_mark_) return;
  resources_[resource].mark = dirty_mark_;
  dirty_resources_.push_back(resource);
}

std::uint32_t Network::next_mark() {
  if (epoch_ == UINT32_MAX) {
    for (Resource& r : resources_) r.mark = 0;
    for (FlowId f = 0; f < flows_.made(); ++f) flows_[f].mark = 0;
    epoch_ = 0;
  }
  return ++epoch_;
}

void Network::leave_resources(FlowId id) {
  const RouteView route = route_of(id);
  const std::span<const std::uint32_t> positions = routes_.positions(flows_[id].route);
  for (std::size_t i = 0; i < route.size(); ++i) {
    const std::uint32_t r = resource_of(route[i]);
    SmallIdList& on = resources_[r].flows;
    const std::uint32_t at = positions[i];
    const std::uint32_t last = on.size() - 1;
    COMMSIM_CHECK(at <= last && on[at] == id, "finished flow not on its resource");
    const FlowId moved = on[last];
    on[at] = moved;
    on.pop_back();
    if (at == last) continue;
    // The moved flow's hop on r that sat at the end now sits at `at`.
    const RouteView moved_route = route_of(moved);
    const std::span<std::uint32_t> moved_positions = routes_.positions(flows_[moved].route);
    for (std::size_t j = 0; j < moved_route.size(); ++j) {
      if (moved_positions[j] == last && resource_of(moved_route[j]) == r) {
        moved_positions[j] = at;
        break;
      }
    }
  }
}

void Network::finish_flow(FlowId id) {
  leave_resources(id);
  const TimePs now = engine_.now();
  const RouteView route = route_of(id);
  for (const ChannelId c : route) {
    --resources_[c].channel_flows;
    const std::uint32_t r = resource_of(c);
    Resource& resource = resources_[r];
    resource.use.flow_finished(resource.flows.size(), now);
    // Only the flows still on the resource can gain from its release.
    if (!resource.flows.empty()) {
      mark_dirty(r);
      other_changes_ = true;
    }
  }
  --active_flows_;
  Flow& flow = flows_[id];
  if (flow_observer_) flow_observer_(route, flow_start_ps_[id], now);
  engine_.post_after(flow.latency_ps, flow.on_arrival);
  release_flow(id);
}

void Network::release_flow(FlowId id) {
  Flow& flow = flows_[id];
  flow.completion_ps = kNoCompletion;
  routes_.free(flow.route);
  flow.route = {};
  flows_.release(id);
}

void Network::recompute_rates() {
  if (dirty_resources_.empty()) return;
  ++recomputations_;
  if (!other_changes_) {
    // Only lone starts: each is rated, and due when it was rated.
    flow_rate_evaluations_ += lone_starts_.size();
    for (const LoneStart& start : lone_starts_) engine_.post_at(start.due_ps, EventCall{&flow_end_, start.flow});
  } else {
    // Rated again with the rest; posted then.
    for (const LoneStart& start : lone_starts_) flows_[start.flow].completion_ps = kNoCompletion;
    if (!rate_unshared_flows() && !rate_locally()) rate_shared_flows();
  }
  lone_starts_.clear();
  other_changes_ = false;
  dirty_resources_.clear();
  dirty_mark_ = next_mark();
}

// The common case of lockstep runs (a ring, a GPU's own NIC link): every flow on a changed
// resource is alone on every resource of its route, so it runs at its bottleneck (or its
// cap). Flows are rated in the order the general path would find them: by their first
// changed resource. Nothing is changed unless every flow qualifies.
bool Network::rate_unshared_flows() {
  const std::uint32_t mark = next_mark();
  component_flows_.clear();
  component_rates_.clear();
  for (const std::uint32_t r : dirty_resources_) {
    const SmallIdList& on = resources_[r].flows;
    if (on.size() > 1) return false;
    if (on.empty()) continue;
    Flow& flow = flows_[on[0]];
    if (flow.mark == mark) continue;
    flow.mark = mark;
    const std::optional<BandwidthBps> rate = lone_rate(flow);
    if (!rate) return false;
    component_flows_.push_back(on[0]);
    component_rates_.push_back(*rate);
  }
  flow_rate_evaluations_ += component_flows_.size();
  const TimePs now = engine_.now();
  for (std::size_t i = 0; i < component_flows_.size(); ++i) set_rate(component_flows_[i], component_rates_[i], now);
  return true;
}

// The flows that share resources, transitively, with the changed resources, rated together
// by max-min fairness.
void Network::rate_shared_flows() {
  const std::uint32_t mark = next_mark();
  component_resources_.clear();
  component_flows_.clear();
  const auto visit_resource = [&](std::uint32_t r) {
    if (resources_[r].mark == mark) return;
    resources_[r].mark = mark;
    component_resources_.push_back(r);
  };
  for (const std::uint32_t r : dirty_resources_) visit_resource(r);
  for (std::size_t i = 0; i < component_resources_.size(); ++i) {
    for (const FlowId f : resources_[component_resources_[i]].flows) {
      Flow& flow = flows_[f];
      if (flow.mark == mark) continue;
      flow.mark = mark;
      component_flows_.push_back(f);
      for (const ChannelId c : routes_.channels(flow.route)) visit_resource(resource_of(c));
    }
  }
  flow_rate_evaluations_ += component_flows_.size();
  problem_.clear();
  for (const std::uint32_t r : component_resources_) {
    resource_local_[r] = problem_.add_resource(capacity_now(r));
  }
  for (const FlowId f : component_flows_) add_to_problem(f, resource_local_);
  const std::vector<double>& rates = solver_.solve(problem_);
  // A large component's working memory goes before the rated flows post their completions.
  const bool large = component_flows_.size() > kLargeComponentFlows;
  if (large) {
    problem_.release_memory();
    solver_.release_working_memory();
  }
  const TimePs now = engine_.now();
  for (std::size_t i = 0; i < component_flows_.size(); ++i) set_rate(component_flows_[i], rates[i], now);
  if (large) {
    solver_.release_memory();
    component_flows_ = {};
  }
}

void Network::add_to_problem(FlowId id, const std::vector<std::uint32_t>& problem_index) {
  local_route_.clear();
  double least_capacity = MaxMinProblem::kNoCap;
  for (const ChannelId c : route_of(id)) {
    const std::uint32_t r = problem_index[resource_of(c)];
    local_route_.push_back(r);
    least_capacity = std::min(least_capacity, problem_.capacity(r));
  }
  const double cap = flows_[id].cap_Bps;
  problem_.add_flow(local_route_, cap < least_capacity ? cap : MaxMinProblem::kNoCap);
}

BandwidthBps Network::capacity_now(std::uint32_t resource) const {
  // A half-duplex link is resource 2l, its directions channels 2l and 2l + 1.
  const Resource& forward = resources_[resource];
  const bool half_duplex = resource % 2 == 0 && resources_[resource + 1].resource == resource;
  if (!half_duplex || forward.channel_flows == 0 || resources_[resource + 1].channel_flows == 0) {
    return forward.capacity_Bps;
  }
  return forward.capacity_Bps * topology_.link(link_of(resource)).params.both_ways_efficiency;
}

LinkStats Network::link_stats(TimePs simulated_ps) const {
  LinkStats stats;
  stats.simulated_ps = simulated_ps;
  for (LinkId l = 0; l < topology_.link_count(); ++l) {
    const LinkParams& params = topology_.link(l).params;
    const bool half = params.duplex == Duplex::kHalf;
    for (const ChannelId c : {2 * l, 2 * l + 1}) {
      if (half && c != 2 * l) continue;
      const Resource& r = resources_[c];
      const LinkDirection direction = half ? LinkDirection::kBoth
                                      : c == 2 * l ? LinkDirection::kForward
                                                   : LinkDirection::kBackward;
      stats.loads.push_back(link_load(l, direction, params.bandwidth_Bps, r.use, r.flows.size(), r.peak_flows,
                                      simulated_ps));
    }
  }
  return stats;
}

void Network::set_rate(FlowId f, BandwidthBps rate, TimePs now) {
  Flow& flow = flows_[f];
  // Bytes moved at the old rate since the last update.
  flow.remaining_bytes -= flow.rate_Bps * seconds_from_ps(now - flow.last_update);
  flow.remaining_bytes = std::max(0.0, flow.remaining_bytes);
  flow.last_update = now;
  if (rate == flow.rate_Bps && flow.completion_ps != kNoCompletion) return;  // still on time
  flow.rate_Bps = rate;
  const TimePs due = add_times(now, transfer_time(flow.remaining_bytes, rate), "flow completion");
  if (due == flow.completion_ps) return;  // its entry for that instant is pending
  flow.completion_ps = due;
  engine_.post_at(due, EventCall{&flow_end_, f});
}

}  // namespace commsim
