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

// Before any flow starts: L_call, and for nvls-tree over N nodes 2 ceil(log2 N) L_net.
TimePs start_latency(const ProtocolCosts& costs, bool tree, std::uint64_t nodes) {
  if (!tree) return costs.call_latency_ps;
  const std::uint64_t levels = 2 * static_cast<std::uint64_t>(std::bit_width(nodes - 1));  // 2 ceil(log2 N)
  return add_times(costs.call_latency_ps,
                   multiply_time(costs.step_latency(LinkClass::kNet), levels, "nvls-tree latency"),
                   "nvls-tree latency");
}

}  // namespace

InSwitchRun simulate_in_switch_allreduce(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                         const ProtocolCosts& costs, TimePs overhead_ps,
                                         const OnCollectiveMessage& on_message) {
  const bool tree = algorithm == AlgorithmKind::kNvlsTree;
  COMMSIM_CHECK(reduces_in_switch(algorithm) && !in_switch_unavailable(topology, tree),
                "in-switch AllReduce on a topology that cannot run it (the caller checks)");
  const std::vector<InSwitchGroup> groups = in_switch_groups(topology);
  const std::uint64_t g = groups.front().ranks.size(), nodes = groups.size();

  // Routes of the flows to and from the switch, and the rank each serves.
  std::vector<Route> routes;
  std::vector<Rank> rank_of_route;
  for (const InSwitchGroup& group : groups) {
    for (const Rank r : group.ranks) {
      routes.push_back({topology.channel_between(r, group.switch_vertex)});
      routes.push_back({topology.channel_between(group.switch_vertex, r)});
      rank_of_route.insert(rank_of_route.end(), {r, r});
    }
  }
  const Bytes switch_bytes = share_bytes(size, g + 1, g);
  const Bytes ring_bytes = share_bytes(size, 2 * (nodes - 1), nodes * g);

  Engine engine;
  Network network(engine, topology, overhead_ps, costs);
  const ProtocolCosts full_rate;  // no step latency, efficiency 1
  InSwitchRun run;
  TimePs last_arrival = 0;
  // Each flow's arrival; with on_message, reported as the message it is.
  const auto arrived = [&](CollectiveMessage message) {
    return [&, message]() mutable {
      last_arrival = engine.now();
      if (!on_message) return;
      message.arrived_ps = engine.now();
      on_message(message);
    };
  };
  const auto start = [&] {
    for (std::size_t i = 0; i < routes.size(); ++i) {
      const bool from_switch = i % 2 == 1;
      network.send_along(routes[i], switch_bytes,
                         arrived({rank_of_route[i], std::nullopt, from_switch, switch_bytes, 0, 0, 0, engine.now(), 0}),
                         SendOptions{});
    }
    run.flows = routes.size();
    if (!tree) return;
    for (std::size_t i = 0; i < nodes; ++i) {
      for (std::size_t k = 0; k < g; ++k) {
        const Rank src = groups[i].ranks[k], dst = groups[(i + 1) % nodes].ranks[k];
        network.send(src, dst, ring_bytes, arrived({src, dst, false, ring_bytes, 0, 0, 0, engine.now(), 0}),
                     SendOptions{.library = &full_rate});
        ++run.flows;
      }
    }
  };
  engine.schedule_after(start_latency(costs, tree, nodes), start);
  engine.run();
  run.time_ps = last_arrival;
  run.link_stats = network.link_stats(run.time_ps);
  return run;
}

}  // namespace commsim
