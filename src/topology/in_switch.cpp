#include "topology/in_switch.h"

namespace commsim {

std::vector<InSwitchGroup> in_switch_groups(const Topology& topology) {
  std::vector<InSwitchGroup> groups;
  const Graph& g = topology.graph();
  for (Rank r = 0; r < topology.npu_count(); ++r) {
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

}  // namespace commsim
