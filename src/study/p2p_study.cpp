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
  std::vector<std::pair<Bytes, LinkClass>> sends;
  for (const Message& m : messages) sends.emplace_back(m.bytes, topology.route_class(topology.route(m.src, m.dst)));
  if (const auto by_threshold = profile.p2p_threshold_protocol(sends)) return by_threshold;
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
