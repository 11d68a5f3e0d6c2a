#include "collective/in_switch_run.h"

#include <bit>
#include <utility>

#include "base/binary_tree.h"
#include "base/error.h"
#include "engine/engine.h"
#include "network/network.h"

namespace commsim {
namespace {

// ceil(n x numerator / denominator) bytes, n up to 2^62 (no overflow in 128 bits).
Bytes share_bytes(Bytes n, std::uint64_t numerator, std::uint64_t denominator) {
  const unsigned __int128 product = static_cast<unsigned __int128>(n) * numerator;
  return static_cast<Bytes>((product + denominator - 1) / denominator);
}

// nvls-tree over N nodes: 2 ceil(log2 N) L_net before the flows start.
TimePs tree_latency(const ProtocolCosts& costs, std::uint64_t nodes) {
  const std::uint64_t levels = 2 * static_cast<std::uint64_t>(std::bit_width(nodes - 1));  // 2 ceil(log2 N)
  return multiply_time(costs.step_latency(LinkClass::kNet), levels, "nvls-tree latency");
}

}  // namespace

InSwitchAllReduceRun::InSwitchAllReduceRun(Transport& transport, const Topology& topology,
                                           std::vector<InSwitchGroup> groups, AlgorithmKind algorithm, Bytes size,
                                           const ProtocolCosts& costs, const RateCapsByClass& tree_caps,
                                           std::function<void(Rank)> on_npu_done, OnCollectiveMessage on_message)
    : transport_(transport),
      topology_(topology),
      groups_(std::move(groups)),
      tree_(algorithm == AlgorithmKind::kNvlsTree),
      size_(size),
      costs_(costs),
      tree_caps_(tree_caps),
      on_npu_done_(std::move(on_npu_done)),
      on_message_(std::move(on_message)) {
  COMMSIM_CHECK(reduces_in_switch(algorithm) && !groups_.empty(), "an in-switch AllReduce without a reducing switch");
  // Each GPU: to and from its switch, and with nvls-tree two flows (up and down) per tree
  // edge of its node.
  if (tree_) tree_edges_ = double_tree_edges(groups_.size());
  const std::vector<std::uint32_t> edges_of_node = edges_per_member(tree_edges_, groups_.size());
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    flows_left_.emplace_back(groups_[i].ranks.size(), 2 + 2 * edges_of_node[i]);
  }
}

void InSwitchAllReduceRun::start() {
  // nvls-tree's levels and the fill of its pipeline through the tree (its flows routed only
  // when the library fills), or nvls's pipeline fill (topology/in_switch.h).
  TimePs delay = 0;
  if (!tree_) {
    delay = in_switch_fill_ps(topology_, groups_, size_, costs_);
  } else if (costs_.fill_channels == 0) {
    delay = tree_latency(costs_, groups_.size());
  } else {
    const TimePs fill_ps =
        in_switch_tree_fill_ps(topology_, groups_, in_switch_tree_flows(topology_, groups_), size_, costs_, tree_caps_);
    delay = add_times(tree_latency(costs_, groups_.size()), fill_ps, "nvls-tree start");
  }
  if (delay == 0) {
    start_flows();
  } else {
    transport_.schedule_after(delay, [this] { start_flows(); });
  }
}

void InSwitchAllReduceRun::start_flows() {
  const std::uint64_t g = groups_.front().ranks.size(), nodes = groups_.size();
  const Bytes switch_bytes = share_bytes(size_, g + 1, g);
  for (std::size_t i = 0; i < nodes; ++i) {
    for (std::size_t k = 0; k < g; ++k) {
      send({i, k}, std::nullopt, false, switch_bytes, &costs_);
      send({i, k}, std::nullopt, true, switch_bytes, &costs_);
    }
  }
  const Bytes half_share = share_bytes(size_, 1, 2 * g);
  for (const TreeEdge& e : tree_edges_) {
    for (std::size_t k = 0; k < g; ++k) {
      send({e.child, k}, Member{e.parent, k}, false, half_share, &full_rate_);
      send({e.parent, k}, Member{e.child, k}, false, half_share, &full_rate_);
    }
  }
}

void InSwitchAllReduceRun::send(Member from, std::optional<Member> to, bool from_switch, Bytes bytes,
                                const ProtocolCosts* costs) {
  const std::optional<Rank> peer = to ? std::optional<Rank>(npu(*to)) : std::nullopt;
  const CollectiveMessage message{npu(from), peer, from_switch, bytes, 0, 0, 0, transport_.now(), 0};
  EventCall on_arrival = transport_.once([this, message, from, to] { arrived(message, from, to); });
  const SendOptions options{.library = costs, .rate_caps_by_class = to ? &tree_caps_ : nullptr};
  if (to) {
    transport_.send(message.rank, *peer, bytes, std::move(on_arrival), options);
  } else {
    const VertexId switch_vertex = groups_[from.group].switch_vertex;
    const ChannelId channel = from_switch ? topology_.channel_between(switch_vertex, message.rank)
                                          : topology_.channel_between(message.rank, switch_vertex);
    transport_.send_along(Route{channel}, bytes, std::move(on_arrival), options);
  }
  ++flows_;
}

void InSwitchAllReduceRun::arrived(const CollectiveMessage& message, Member from, std::optional<Member> to) {
  last_arrival_ps_ = transport_.now();
  if (on_message_) {
    CollectiveMessage reported = message;
    reported.arrived_ps = last_arrival_ps_;
    on_message_(reported);
  }
  done_with(from);
  if (to) done_with(*to);
}

void InSwitchAllReduceRun::done_with(Member m) {
  if (--flows_left_[m.group][m.index] == 0 && on_npu_done_) on_npu_done_(npu(m));
}

InSwitchRun simulate_in_switch_allreduce(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                         const ProtocolCosts& costs, TimePs overhead_ps,
                                         const RateCapsByClass& tree_caps, const OnCollectiveMessage& on_message) {
  COMMSIM_CHECK(reduces_in_switch(algorithm) && !in_switch_unavailable(topology, algorithm == AlgorithmKind::kNvlsTree),
                "in-switch AllReduce on a topology that cannot run it (the caller checks)");
  Engine engine;
  Network network(engine, topology, overhead_ps, costs);
  InSwitchAllReduceRun run(network, topology, in_switch_groups(topology), algorithm, size, costs, tree_caps, {},
                           on_message);
  engine.schedule_after(costs.call_latency_ps, [&run] { run.start(); });
  engine.run();
  return {run.last_arrival_ps(), run.flows(), network.link_stats(run.last_arrival_ps())};
}

}  // namespace commsim
