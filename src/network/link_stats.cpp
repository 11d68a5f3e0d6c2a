#include "network/link_stats.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {
namespace {

double utilisation(double bytes, BandwidthBps bandwidth_Bps, TimePs simulated_ps) {
  return simulated_ps > 0 ? bytes / (bandwidth_Bps * seconds_from_ps(simulated_ps)) : 0.0;
}

}  // namespace

std::vector<LinkLoad> hottest_links(const LinkStats& stats, std::size_t count) {
  std::vector<LinkLoad> used;
  for (const LinkLoad& load : stats.loads) {
    if (load.bytes > 0) used.push_back(load);
  }
  // Stable: equal utilisations keep the order of the loads.
  std::stable_sort(used.begin(), used.end(),
                   [](const LinkLoad& a, const LinkLoad& b) { return a.utilisation > b.utilisation; });
  used.resize(std::min(count, used.size()));
  return used;
}

void append_run(LinkStats& total, const LinkStats& later) {
  if (total.loads.empty()) {
    total = later;
    return;
  }
  COMMSIM_CHECK(total.loads.size() == later.loads.size(), "link statistics of different topologies");
  total.simulated_ps = add_times(total.simulated_ps, later.simulated_ps, "simulated time of the runs");
  for (std::size_t i = 0; i < total.loads.size(); ++i) {
    LinkLoad& sum = total.loads[i];
    const LinkLoad& next = later.loads[i];
    sum.bytes += next.bytes;
    sum.busy_ps += next.busy_ps;
    sum.peak_flows = std::max(sum.peak_flows, next.peak_flows);
  }
  extend_run(total, total.simulated_ps);
}

void extend_run(LinkStats& stats, TimePs simulated_ps) {
  COMMSIM_CHECK(simulated_ps >= stats.simulated_ps, "a run cannot end before its last arrival");
  stats.simulated_ps = simulated_ps;
  for (LinkLoad& load : stats.loads) load.utilisation = utilisation(load.bytes, load.bandwidth_Bps, simulated_ps);
}

LinkLoad link_load(LinkId link, LinkDirection direction, BandwidthBps bandwidth_Bps, const LinkUse& use,
                   std::uint32_t flows_now, std::uint32_t peak_flows, TimePs simulated_ps) {
  LinkLoad load;
  load.link = link;
  load.direction = direction;
  load.bandwidth_Bps = bandwidth_Bps;
  load.bytes = use.wire_bytes;
  load.busy_ps = use.busy_until(simulated_ps, flows_now);
  load.peak_flows = peak_flows;
  load.utilisation = utilisation(use.wire_bytes, bandwidth_Bps, simulated_ps);
  return load;
}

}  // namespace commsim
