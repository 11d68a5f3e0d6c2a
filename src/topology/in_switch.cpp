#include "topology/in_switch.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "base/binary_tree.h"

namespace commsim {

namespace {

// The reducing switches of the NPUs `ranks` (ascending), each with those of them it serves.
std::vector<InSwitchGroup> groups_of(const Topology& topology, const std::vector<Rank>& ranks) {
  std::vector<InSwitchGroup> groups;
  const Graph& g = topology.graph();
  for (const Rank r : ranks) {
    for (auto [it, end] = boost::adjacent_vertices(r, g); it != end; ++it) {
      const auto v = static_cast<VertexId>(*it);
      if (!topology.vertex(v).reduces) continue;
      auto group = groups.begin();
      while (group != groups.end() && group->switch_vertex != v) ++group;
      if (group == groups.end()) group = groups.insert(groups.end(), InSwitchGroup{v, {}});
      group->ranks.push_back(r);
      break;
    }
  }
  return groups;
}

}  // namespace

std::vector<InSwitchGroup> in_switch_groups(const Topology& topology) {
  std::vector<Rank> all(topology.npu_count());
  std::iota(all.begin(), all.end(), Rank{0});
  return groups_of(topology, all);
}

std::vector<InSwitchGroup> in_switch_groups(const Topology& topology, std::vector<Rank> members) {
  std::sort(members.begin(), members.end());
  return groups_of(topology, members);
}

std::optional<std::string> in_switch_unavailable(const Topology& topology, bool across_nodes) {
  const std::string name = "topology '" + topology.name() + "'";
  const std::vector<InSwitchGroup> groups = in_switch_groups(topology);
  if (groups.empty()) {
    return name + " has no switch that reduces (NVLink SHARP: BuilderSpec nvls, VertexSpec reduces, --nvls)";
  }
  std::size_t covered = 0;
  for (const InSwitchGroup& group : groups) covered += group.ranks.size();
  if (covered < topology.npu_count()) {
    return std::to_string(topology.npu_count() - covered) + " of the " + std::to_string(topology.npu_count()) +
           " NPUs of " + name + " are on no switch that reduces";
  }
  if (!across_nodes && groups.size() > 1) {
    return "the NPUs of " + name + " are on " + std::to_string(groups.size()) +
           " reducing switches, not one (nvls-tree joins several)";
  }
  if (across_nodes) {
    if (groups.size() < 2) return name + " has one reducing switch: nvls-tree joins several (use nvls)";
    for (const InSwitchGroup& group : groups) {
      if (group.ranks.size() != groups.front().ranks.size()) {
        return "the reducing switches of " + name + " have different numbers of NPUs";
      }
    }
  }
  return std::nullopt;
}

Bytes nvls_chunk_bytes(Bytes bytes, std::uint64_t ops) {
  Bytes chunk = Bytes{128} << 10;
  for (const std::uint64_t rounds : {32, 8, 2}) {
    if (bytes < rounds * ops * chunk) chunk /= 2;
  }
  return chunk;
}

TimePs in_switch_fill_ps(const Topology& topology, const std::vector<InSwitchGroup>& groups, Bytes size,
                         const ProtocolCosts& costs) {
  if (costs.fill_channels == 0 || groups.empty()) return 0;
  BandwidthBps rate = std::numeric_limits<double>::infinity();
  for (const InSwitchGroup& group : groups) {
    for (const Rank r : group.ranks) {
      // Both directions of a GPU's link to its switch have the link's bandwidth.
      const LinkId link = link_of(topology.channel_between(r, group.switch_vertex));
      rate = std::min(rate, costs.rate(topology.link(link).params.bandwidth_Bps));
    }
  }
  const double g = static_cast<double>(groups.front().ranks.size());
  const std::uint64_t ops = std::uint64_t{costs.fill_channels} * groups.front().ranks.size();
  const double round = static_cast<double>(std::min(size, ops * nvls_chunk_bytes(size, ops)));
  return ps_from_seconds(2 * round * (g + 1) / g / rate);
}

Bytes nvls_tree_chunk_bytes(Bytes bytes, std::uint64_t ops, std::size_t nodes) {
  Bytes chunk = nodes >= 4 ? Bytes{64} << 10 : Bytes{128} << 10;
  if (bytes < 4 * ops * chunk && chunk > (Bytes{64} << 10)) chunk = Bytes{64} << 10;
  if (bytes < ops * chunk && chunk > (Bytes{32} << 10)) chunk = Bytes{32} << 10;
  return chunk;
}

std::vector<InSwitchTreeFlow> in_switch_tree_flows(const Topology& topology, const std::vector<InSwitchGroup>& groups) {
  std::vector<InSwitchTreeFlow> flows;
  for (const TreeEdge& e : double_tree_edges(groups.size())) {
    for (std::size_t k = 0; k < groups[e.child].ranks.size(); ++k) {
      const Rank child = groups[e.child].ranks[k], parent = groups[e.parent].ranks[k];
      flows.push_back({child, parent, topology.route(child, parent)});
      flows.push_back({parent, child, topology.route(parent, child)});
    }
  }
  std::vector<double> flows_on(2 * topology.link_count(), 0.0);
  for (const InSwitchTreeFlow& f : flows) {
    for (const ChannelId channel : f.route) flows_on[channel] += 1;
  }
  for (InSwitchTreeFlow& f : flows) {
    f.share_Bps = std::numeric_limits<double>::infinity();
    for (const ChannelId channel : f.route) {
      f.share_Bps = std::min(f.share_Bps, topology.link(link_of(channel)).params.bandwidth_Bps / flows_on[channel]);
    }
  }
  return flows;
}

TimePs in_switch_tree_fill_ps(const Topology& topology, const std::vector<InSwitchGroup>& groups,
                              const std::vector<InSwitchTreeFlow>& flows, Bytes size, const ProtocolCosts& costs,
                              const RateCapsByClass& caps) {
  if (costs.fill_channels == 0 || groups.size() < 2) return 0;
  BandwidthBps rate = std::numeric_limits<double>::infinity();
  for (const InSwitchTreeFlow& f : flows) {
    rate = std::min({rate, f.share_Bps, caps[static_cast<int>(topology.route_class(f.route))]});
  }
  const std::uint64_t g = groups.front().ranks.size(), channels = costs.fill_channels;
  const Bytes chunk = nvls_tree_chunk_bytes(size, channels * g, groups.size());
  const double round =
      std::min(static_cast<double>(size) / (2.0 * static_cast<double>(g)), static_cast<double>(channels * chunk) / 2);
  const double rounds = 2.0 * static_cast<double>(binary_tree_depth(groups.size())) - 1;
  return ps_from_seconds(rounds * round / rate);
}

}  // namespace commsim
