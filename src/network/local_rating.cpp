// Local rating: on a busy network, the flows near a change are rated with the others held,
// and the result is kept only if the whole allocation is max-min fair.
//
// A feasible allocation is max-min fair if and only if every flow has a bottleneck: its own
// cap, or a full resource on its route on which no flow runs faster (Bertsekas & Gallager,
// Data Networks, section 6.5.2). Before a change every flow has one. After it, a set S
// starts as the flows on the changed resources; S is rated by progressive filling on what
// the flows outside S leave of each resource, and the test is run on every flow sharing a
// resource with S (the others' resources carry what they carried, so theirs still stand).
// A flow outside S that lost its bottleneck joins S; a flow in S without one (a flow
// outside runs faster on its full resource) brings those faster flows in. Repeat until all
// pass, then S takes its rates: the fair allocation, as the whole component's solve would
// find it, to rounding. If the rounds' work (the flows rated, then tested) outgrows the
// active flows, nothing is changed and the component is rated whole: a local rating that
// fails costs about one whole rating more. A resource with nothing left for S (to rounding)
// brings its flows in before S is rated.
//
// A pipelined tree across nodes forms one component (thousands of flows share NICs up and
// down the tree), yet a chunk finishing changes the shares of a few flows near it.

#include <algorithm>

#include "network/network.h"

namespace commsim {
namespace {

// Relative slack of the fairness test: a local solve's rates differ from a whole one's by
// rounding (~1e-15 relative); an allocation within this of the fair one is accepted.
constexpr double kFairTolerance = 1e-10;
// The work of all rounds (the flows rated, then tested) may reach the active flows, at
// least this many: a local rating that fails costs at most about one whole rating.
constexpr std::size_t kMinLocalWork = 256;

}  // namespace

bool Network::rate_locally() {
  if (active_flows_ < local_rating_min_flows_) return false;
  std::size_t work_left = std::max(kMinLocalWork, active_flows_);
  if (local_place_.size() < flows_.made()) local_place_.resize(flows_.made(), kNotLocal);
  if (local_problem_index_.size() < resources_.size()) local_problem_index_.resize(resources_.size(), kNotLocal);
  local_flows_.clear();
  // A round rates S and tests at least S's flows: it needs twice S's size of work.
  const auto room_for_a_round = [&] { return 2 * local_flows_.size() <= work_left; };
  for (const std::uint32_t r : dirty_resources_) {
    for (const FlowId f : resources_[r].flows) add_local_flow(f);
    if (!room_for_a_round()) break;  // a change that reaches most flows: rated whole
  }
  LocalCheck check = LocalCheck::kGrew;
  while (check == LocalCheck::kGrew && room_for_a_round()) {
    work_left -= local_flows_.size();
    check = solve_local_flows() ? check_local_rates(work_left) : LocalCheck::kGrew;
  }
  const bool fair = check == LocalCheck::kFair;
  if (fair) {
    ++local_ratings_;
    flow_rate_evaluations_ += local_flows_.size();
    const TimePs now = engine_.now();
    for (std::size_t i = 0; i < local_flows_.size(); ++i) set_rate(local_flows_[i], component_rates_[i], now);
  }
  for (const FlowId f : local_flows_) local_place_[f] = kNotLocal;
  return fair;
}

void Network::add_local_flow(FlowId id) {
  if (local_place_[id] != kNotLocal) return;
  local_place_[id] = static_cast<std::uint32_t>(local_flows_.size());
  local_flows_.push_back(id);
}

BandwidthBps Network::candidate_rate(FlowId id) const {
  const std::uint32_t place = local_place_[id];
  return place < component_rates_.size() ? component_rates_[place] : flows_[id].rate_Bps;
}

bool Network::solve_local_flows() {
  component_rates_.clear();
  component_resources_.clear();
  for (const FlowId f : local_flows_) {
    for (const ChannelId c : route_of(f)) {
      const std::uint32_t r = resource_of(c);
      if (local_problem_index_[r] != kNotLocal) continue;
      local_problem_index_[r] = static_cast<std::uint32_t>(component_resources_.size());
      component_resources_.push_back(r);
    }
  }
  // Each resource's capacity less what the held flows take.
  problem_.clear();
  bool room = true;
  for (const std::uint32_t r : component_resources_) {
    const BandwidthBps capacity = capacity_now(r);
    BandwidthBps held = 0;
    for (const FlowId g : resources_[r].flows) {
      if (local_place_[g] == kNotLocal) held += flows_[g].rate_Bps;
    }
    const BandwidthBps left = capacity - held;
    if (left <= capacity * kFairTolerance) {
      for (const FlowId g : resources_[r].flows) add_local_flow(g);
      room = false;
    } else if (room) {
      problem_.add_resource(left);
    }
  }
  if (room) {
    for (const FlowId f : local_flows_) add_to_problem(f, local_problem_index_);
    const std::vector<double>& rates = solver_.solve(problem_);
    component_rates_.assign(rates.begin(), rates.end());
  }
  for (const std::uint32_t r : component_resources_) local_problem_index_[r] = kNotLocal;
  return room;
}

Network::LocalCheck Network::check_local_rates(std::size_t& work_left) {
  const std::size_t before = local_flows_.size();
  const std::uint32_t mark = next_mark();  // on flows tested, and on resources whose load is known
  for (const std::uint32_t r : component_resources_) {
    for (const FlowId g : resources_[r].flows) {
      if (flows_[g].mark == mark) continue;
      flows_[g].mark = mark;
      if (work_left-- == 0) return LocalCheck::kGaveUp;
      const BandwidthBps rate = candidate_rate(g);
      if (has_bottleneck(g, rate, mark)) continue;
      if (local_place_[g] == kNotLocal || local_place_[g] >= component_rates_.size()) {
        add_local_flow(g);
        continue;
      }
      // Rated in S without a bottleneck: held flows run faster on its full resources.
      const std::size_t size = local_flows_.size();
      for (const ChannelId c : route_of(g)) {
        for (const FlowId h : resources_[resource_of(c)].flows) {
          if (local_place_[h] == kNotLocal && flows_[h].rate_Bps > rate) add_local_flow(h);
        }
      }
      if (local_flows_.size() == size) return LocalCheck::kGaveUp;  // none: unfair by rounding alone
    }
  }
  return local_flows_.size() > before ? LocalCheck::kGrew : LocalCheck::kFair;
}

bool Network::has_bottleneck(FlowId id, BandwidthBps rate, std::uint32_t mark) {
  const BandwidthBps within = rate / (1 - kFairTolerance);
  if (within >= flows_[id].cap_Bps) return true;
  for (const ChannelId c : route_of(id)) {
    const ResourceLoad& load = load_of(resource_of(c), mark);
    if (load.full && within >= load.fastest_Bps) return true;
  }
  return false;
}

const Network::ResourceLoad& Network::load_of(std::uint32_t resource, std::uint32_t mark) {
  if (load_.size() < resources_.size()) load_.resize(resources_.size());
  ResourceLoad& load = load_[resource];
  if (resources_[resource].mark == mark) return load;
  resources_[resource].mark = mark;
  BandwidthBps total = 0;
  load.fastest_Bps = 0;
  for (const FlowId f : resources_[resource].flows) {
    const BandwidthBps rate = candidate_rate(f);
    total += rate;
    load.fastest_Bps = std::max(load.fastest_Bps, rate);
  }
  load.full = total >= capacity_now(resource) * (1 - kFairTolerance);
  return load;
}

}  // namespace commsim
