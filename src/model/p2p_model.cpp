#include "model/p2p_model.h"

#include <algorithm>
#include <limits>

namespace commsim {

PathParams path_params(const Topology& topology, Rank src, Rank dst) {
  PathParams path;
  path.bottleneck_Bps = std::numeric_limits<double>::infinity();
  for (const ChannelId channel : topology.route(src, dst)) {
    const LinkParams& link = topology.link(link_of(channel)).params;
    ++path.hops;
    path.latency_ps = add_times(path.latency_ps, link.latency_ps, "route latency");
    path.bottleneck_Bps = std::min(path.bottleneck_Bps, link.bandwidth_Bps);
    path.link_class = std::max(path.link_class, link_class(link.kind));
  }
  return path;
}

double p2p_time_s(const PathParams& path, double overhead_s, Bytes bytes, const ProtocolCosts& library,
                  BandwidthBps rate_cap_Bps) {
  const double step_s = path.hops > 0 ? seconds_from_ps(library.step_latency(path.link_class)) : 0;
  return seconds_from_ps(library.call_latency_ps) + overhead_s + step_s + seconds_from_ps(path.latency_ps) +
         static_cast<double>(bytes) / std::min(library.rate(path.bottleneck_Bps), rate_cap_Bps);
}

std::optional<std::uint32_t> p2p_send_channels(const Topology& topology, Rank src, Rank dst, Bytes bytes,
                                               const LibraryProfile& profile) {
  if (!profile.p2p) return std::nullopt;
  return profile.p2p->channels(bytes, topology.route_class(topology.route(src, dst)), topology.npu_count());
}

}  // namespace commsim
