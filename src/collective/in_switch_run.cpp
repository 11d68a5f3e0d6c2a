#include "collective/in_switch_run.h"

#include <bit>
#include <vector>

#include "base/error.h"
#include "engine/engine.h"
#include "network/network.h"
#include "topology/in_switch.h"

namespace commsim {
namespace {

// ceil(n x numerator / denominator) bytes, n up to 2^62 (no overflow in 128 bits).
Bytes share_bytes(Bytes n, std::uint64_t numerator, std::uint64_t denominator) {
  const unsigned __int128 product = static_cast<unsigned __int128>(n) * numerator;
  return static_cast<Bytes>((product + denominator - 1) / denominator);
}

}  // namespace

InSwitchRun simulate_in_switch_allreduce(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                         const ProtocolCosts& costs, TimePs overhead_ps) {
  const bool tree = algorithm == AlgorithmKind::kNvlsTree;
  COMMSIM_CHECK(reduces_in_switch(algorithm) && !in_switch_unavailable(topology, tree),
                "in-switch AllReduce on a topology that cannot run it (the caller checks)");
  const std::vector<InSwitchGroup> groups = in_switch_groups(topology);
  const std::uint64_t g = groups.front().ranks.size(), nodes = groups.size();

  // Routes of the flows to and from the switch.
  std::vector<Route> routes;
  for (const InSwitchGroup& group : groups) {
    for (const Rank r : group.ranks) {
      routes.push_back({topology.channel_between(r, group.switch_vertex)});
      routes.push_back({topology.channel_between(group.switch_vertex, r)});
    }
  }
  const Bytes switch_bytes = share_bytes(size, g + 1, g);
  const Bytes ring_bytes = share_bytes(size, 2 * (nodes - 1), nodes * g);

  Engine engine;
  Network network(engine, topology, overhead_ps, costs);
  const ProtocolCosts full_rate;  // no step latency, efficiency 1
  InSwitchRun run;
  TimePs last_arrival = 0;
  const auto arrived = [&] { last_arrival = engine.now(); };
  const auto start = [&] {
    for (const Route& route : routes) network.send_along(route, switch_bytes, arrived, SendOptions{});
    run.flows = routes.size();
    if (!tree) return;
    for (std::size_t i = 0; i < nodes; ++i) {
      for (std::size_t k = 0; k < g; ++k) {
        network.send(groups[i].ranks[k], groups[(i + 1) % nodes].ranks[k], ring_bytes, arrived,
                     SendOptions{.library = &full_rate});
        ++run.flows;
      }
    }
  };
  TimePs latency_ps = costs.call_latency_ps;
  if (tree) {
    const std::uint64_t levels = 2 * static_cast<std::uint64_t>(std::bit_width(nodes - 1));  // 2 ceil(log2 N)
    latency_ps = add_times(latency_ps, multiply_time(costs.step_latency(LinkClass::kNet), levels, "nvls-tree latency"),
                           "nvls-tree latency");
  }
  engine.schedule_after(latency_ps, start);
  engine.run();
  run.time_ps = last_arrival;
  return run;
}

}  // namespace commsim
