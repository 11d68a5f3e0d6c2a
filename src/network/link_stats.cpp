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
  for (LinkLoad& load : total.loads) {
    load.utilisation = utilisation(load.bytes, load.bandwidth_Bps, total.simulated_ps);
  }
}

LinkStatsRecorder::LinkStatsRecorder(const Topology& topology)
    : topology_(topology), half_duplex_(topology.link_count()), resources_(2 * topology.link_count()) {
  for (LinkId l = 0; l < topology.link_count(); ++l) half_duplex_[l] = topology.link(l).params.duplex == Duplex::kHalf;
}

std::uint32_t LinkStatsRecorder::resource_of(ChannelId channel) const {
  return half_duplex_[link_of(channel)] ? channel & ~1u : channel;
}

void LinkStatsRecorder::flow_started(RouteView route, double wire_bytes, TimePs now) {
  for (const ChannelId c : route) {
    Resource& r = resources_[resource_of(c)];
    if (r.flows == 0) r.busy_since_ps = now;
    ++r.flows;
    r.peak_flows = std::max(r.peak_flows, r.flows);
    r.bytes += wire_bytes;
  }
}

void LinkStatsRecorder::flow_finished(RouteView route, TimePs now) {
  for (const ChannelId c : route) {
    Resource& r = resources_[resource_of(c)];
    COMMSIM_CHECK(r.flows > 0, "a flow finished on a link it never started on");
    if (--r.flows == 0) r.busy_ps += now - r.busy_since_ps;
  }
}

LinkStats LinkStatsRecorder::stats(TimePs simulated_ps) const {
  LinkStats stats;
  stats.simulated_ps = simulated_ps;
  for (LinkId l = 0; l < topology_.link_count(); ++l) {
    const LinkParams& params = topology_.link(l).params;
    const bool half = params.duplex == Duplex::kHalf;
    for (const ChannelId c : {2 * l, 2 * l + 1}) {
      if (half && c != 2 * l) continue;
      const Resource& r = resources_[c];
      LinkLoad load;
      load.link = l;
      load.direction = half ? LinkDirection::kBoth : c == 2 * l ? LinkDirection::kForward : LinkDirection::kBackward;
      load.bandwidth_Bps = params.bandwidth_Bps;
      load.bytes = r.bytes;
      load.busy_ps = r.busy_ps + (r.flows > 0 ? std::max<TimePs>(0, simulated_ps - r.busy_since_ps) : 0);
      load.peak_flows = r.peak_flows;
      load.utilisation = utilisation(r.bytes, params.bandwidth_Bps, simulated_ps);
      stats.loads.push_back(load);
    }
  }
  return stats;
}

}  // namespace commsim
