#include "network/concurrent_messages.h"

#include "engine/engine.h"
#include "network/network.h"

namespace commsim {

std::vector<TimePs> simulate_concurrent_messages(const Topology& topology, TimePs overhead_ps,
                                                 const std::vector<Message>& messages,
                                                 const ProtocolCosts& library) {
  Engine engine;
  Network network(engine, topology, overhead_ps, library);
  std::vector<TimePs> arrival(messages.size(), -1);
  const auto send_all = [&] {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const Message& m = messages[i];
      network.send(m.src, m.dst, m.bytes, [&arrival, &engine, i] { arrival[i] = engine.now(); });
    }
  };
  if (library.call_latency_ps == 0) {
    send_all();
  } else {
    engine.schedule_after(library.call_latency_ps, send_all);
  }
  engine.run();
  return arrival;
}

}  // namespace commsim
