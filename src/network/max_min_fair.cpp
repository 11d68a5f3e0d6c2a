#include "network/max_min_fair.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace commsim {

void MaxMinProblem::clear() {
  capacity_.clear();
  flow_begin_.assign(1, 0);
  flow_resources_.clear();
  capped_.clear();
}

std::uint32_t MaxMinProblem::add_resource(double capacity_Bps) {
  COMMSIM_CHECK(capacity_Bps > 0, "resource capacity must be positive");
  capacity_.push_back(capacity_Bps);
  return static_cast<std::uint32_t>(capacity_.size() - 1);
}

std::uint32_t MaxMinProblem::add_flow(std::span<const std::uint32_t> resources,
                                      double cap_Bps) {
  COMMSIM_CHECK(!resources.empty() || std::isfinite(cap_Bps),
                "a flow must cross a resource or have a rate cap");
  COMMSIM_CHECK(cap_Bps > 0, "flow rate cap must be positive");
  for (const std::uint32_t r : resources) {
    COMMSIM_CHECK(r < capacity_.size(), "flow crosses an unknown resource");
    flow_resources_.push_back(r);
  }
  const auto flow = static_cast<std::uint32_t>(flow_begin_.size() - 1);
  flow_begin_.push_back(static_cast<std::uint32_t>(flow_resources_.size()));
  if (std::isfinite(cap_Bps)) capped_.push_back({flow, cap_Bps});
  return flow;
}

const std::vector<double>& MaxMinSolver::solve(const MaxMinProblem& p) {
  const std::size_t flows = p.flow_count();
  const std::size_t resources = p.resource_count();
  rate_.assign(flows, 0.0);
  frozen_.assign(flows, 0);
  remaining_.resize(resources);
  unfrozen_on_.assign(resources, 0);

  // Resource -> flows, by counting sort.
  for (std::uint32_t f = 0; f < flows; ++f) {
    for (const std::uint32_t r : p.resources_of(f)) ++unfrozen_on_[r];
  }
  resource_begin_.assign(resources + 1, 0);
  for (std::size_t r = 0; r < resources; ++r) {
    resource_begin_[r + 1] = resource_begin_[r] + unfrozen_on_[r];
    remaining_[r] = p.capacity(static_cast<std::uint32_t>(r));
  }
  resource_flows_.resize(resource_begin_[resources]);
  {
    std::vector<std::uint32_t>& fill = newly_frozen_;  // reused as a cursor per resource
    fill.assign(resource_begin_.begin(), resource_begin_.end() - 1);
    for (std::uint32_t f = 0; f < flows; ++f) {
      for (const std::uint32_t r : p.resources_of(f)) resource_flows_[fill[r]++] = f;
    }
  }
  active_resources_.clear();
  for (std::uint32_t r = 0; r < resources; ++r) {
    if (unfrozen_on_[r] > 0) active_resources_.push_back(r);
  }

  std::size_t left = flows;
  while (left > 0) {
    double level = std::numeric_limits<double>::infinity();
    for (const std::uint32_t r : active_resources_) {
      level = std::min(level, remaining_[r] / unfrozen_on_[r]);
    }
    for (const auto& [f, cap] : p.capped()) {
      if (!frozen_[f]) level = std::min(level, cap);
    }
    COMMSIM_CHECK(std::isfinite(level), "max-min: unfrozen flows without a bound");
    const double threshold = level * (1 + 1e-12);

    newly_frozen_.clear();
    const auto freeze = [&](std::uint32_t f) {
      if (frozen_[f]) return;
      frozen_[f] = 1;
      rate_[f] = level;
      newly_frozen_.push_back(f);
    };
    for (const std::uint32_t r : active_resources_) {
      if (remaining_[r] / unfrozen_on_[r] <= threshold) {
        for (std::uint32_t i = resource_begin_[r]; i < resource_begin_[r + 1]; ++i) {
          freeze(resource_flows_[i]);
        }
      }
    }
    for (const auto& [f, cap] : p.capped()) {
      if (cap <= threshold) freeze(f);
    }
    COMMSIM_CHECK(!newly_frozen_.empty(), "max-min: no flow froze at a level");
    for (const std::uint32_t f : newly_frozen_) {
      for (const std::uint32_t r : p.resources_of(f)) {
        remaining_[r] = std::max(0.0, remaining_[r] - level);
        --unfrozen_on_[r];
      }
    }
    left -= newly_frozen_.size();
    std::erase_if(active_resources_, [&](std::uint32_t r) { return unfrozen_on_[r] == 0; });
  }
  return rate_;
}

}  // namespace commsim
