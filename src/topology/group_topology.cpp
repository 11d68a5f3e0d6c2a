#include "topology/group_topology.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "topology/topology_builder.h"

namespace commsim {

Topology group_topology(const Topology& topology, const std::vector<Rank>& members) {
  if (members.empty()) throw InputError("a group of NPUs needs at least one member");
  // The new id of every vertex: members first, in group order, then every other vertex.
  constexpr VertexId kUnplaced = static_cast<VertexId>(-1);
  std::vector<VertexId> new_id(topology.vertex_count(), kUnplaced);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Rank m = members[i];
    if (m >= topology.npu_count()) {
      throw InputError("group member " + std::to_string(m) + " is not an NPU of topology '" + topology.name() + "' (" +
                       std::to_string(topology.npu_count()) + " NPUs)");
    }
    if (new_id[m] != kUnplaced) throw InputError("group member " + std::to_string(m) + " is given twice");
    new_id[m] = static_cast<VertexId>(i);
  }
  TopologyBuilder builder(topology.name() + "-group", std::to_string(members.size()) + " NPUs of " + topology.name());
  for (const Rank m : members) builder.add_npu(topology.vertex(m).name);
  for (VertexId v = 0; v < topology.vertex_count(); ++v) {
    if (new_id[v] != kUnplaced) continue;
    const VertexProps& props = topology.vertex(v);
    new_id[v] = builder.add_switch(props.name, props.reduces);
    if (props.host_memory) builder.set_host_memory(new_id[v]);
  }
  for (const Link& link : topology.links()) builder.add_link(new_id[link.first], new_id[link.second], link.params);
  Topology group = std::move(builder).build();
  group.set_library(topology.library());
  std::vector<std::pair<Rank, Rank>> no_peer;
  for (const auto& [a, b] : topology.no_peer_access()) {
    if (new_id[a] < members.size() && new_id[b] < members.size()) {
      no_peer.emplace_back(std::min(new_id[a], new_id[b]), std::max(new_id[a], new_id[b]));
    }
  }
  if (!no_peer.empty()) group.set_no_peer_access(std::move(no_peer));
  return group;
}

}  // namespace commsim
