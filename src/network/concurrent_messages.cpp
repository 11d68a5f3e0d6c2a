#include "network/concurrent_messages.h"

#include <algorithm>

#include "engine/engine.h"
#include "network/network.h"

namespace commsim {

std::vector<TimePs> simulate_concurrent_messages(const Topology& topology, TimePs overhead_ps,
                                                 const std::vector<Message>& messages,
                                                 const ProtocolCosts& library,
                                                 const std::optional<P2pChannels>& p2p,
                                                 LinkStats* link_stats) {
  Engine engine;
  Network network(engine, topology, overhead_ps, library);
  std::vector<TimePs> arrival(messages.size(), -1);
  const auto send_all = [&] {
    RateCapsByClass caps = kNoRateCaps;  // the network applies the cap of the route it finds
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const Message& m = messages[i];
      SendOptions options;
      if (p2p) {
        caps = p2p->rate_caps(m.bytes, topology.npu_count());
        options.rate_caps_by_class = &caps;
      }
      network.send(m.src, m.dst, m.bytes, [&arrival, &engine, i] { arrival[i] = engine.now(); }, options);
    }
  };
  if (library.call_latency_ps == 0) {
    send_all();
  } else {
    engine.schedule_after(library.call_latency_ps, send_all);
  }
  engine.run();
  if (link_stats) {
    *link_stats = network.link_stats(arrival.empty() ? 0 : *std::max_element(arrival.begin(), arrival.end()));
  }
  return arrival;
}

}  // namespace commsim
