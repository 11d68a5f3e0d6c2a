#include "topology/in_switch.h"

#include <algorithm>
#include <limits>
#include <numeric>

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

}  // namespace commsim
