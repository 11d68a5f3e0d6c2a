#include "study/p2p_study.h"

#include <algorithm>

#include "model/p2p_model.h"

namespace commsim {

double p2p_message_model_s(const Topology& topology, const Message& m, TimePs overhead_ps, const ProtocolCosts& costs,
                           const LibraryProfile& profile) {
  const PathParams path = path_params(topology, m.src, m.dst);
  return p2p_time_s(path, seconds_from_ps(overhead_ps), m.bytes, costs, profile.p2p_rate_cap(m.bytes, path.link_class));
}

std::optional<Protocol> p2p_protocol(const Topology& topology, const std::vector<Message>& messages,
                                     TimePs overhead_ps, const LibraryProfile& profile) {
  if (profile.ideal()) return std::nullopt;
  if (profile.p2p && profile.p2p->ll_max_bytes_per_channel > 0) {
    const bool has_ll = profile.protocols.front().first == Protocol::kLL;
    const bool all_ll = std::all_of(messages.begin(), messages.end(), [&](const Message& m) {
      return profile.p2p->runs_ll(m.bytes, topology.route_class(topology.route(m.src, m.dst)));
    });
    return has_ll && all_ll ? Protocol::kLL : profile.protocols.back().first;
  }
  return profile.fastest([&](const ProtocolCosts& costs) {
    double slowest = 0;
    for (const Message& m : messages) {
      slowest = std::max(slowest, p2p_message_model_s(topology, m, overhead_ps, costs, profile));
    }
    return slowest;
  });
}

std::vector<Message> sendrecv_ring(const Topology& topology, Bytes bytes) {
  const auto p = static_cast<Rank>(topology.npu_count());
  std::vector<Message> messages;
  for (Rank r = 0; r < p; ++r) messages.push_back({r, (r + 1) % p, bytes});
  return messages;
}

}  // namespace commsim
