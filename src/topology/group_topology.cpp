#include "topology/group_topology.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "topology/routing.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

// The shape of a group of a hierarchical topology whose members are whole blocks of k GPUs
// on each of its nodes, node after node (a data-parallel group of a tensor-parallel split,
// k = 1; a pipeline stage of whole nodes): hierarchical itself, k GPUs a node, so that a
// library runs its rings and trees by node as on the whole cluster (rail-aligned rings,
// chains in each node; collective/algorithms.h). Any other group has no shape.
Shape group_shape(const Topology& topology, const std::vector<Rank>& members) {
  const Shape& whole = topology.shape();
  if (whole.kind != TopologyKind::kHierarchical || whole.levels.size() != 2) return {};
  const std::size_t gpus_per_node = whole.levels[0];
  std::vector<std::size_t> nodes;  // of the members' runs, in order
  std::vector<std::size_t> run_sizes;
  for (const Rank m : members) {
    const std::size_t node = m / gpus_per_node;
    if (nodes.empty() || nodes.back() != node) {
      nodes.push_back(node);
      run_sizes.push_back(0);
    }
    ++run_sizes.back();
  }
  std::vector<std::size_t> sorted = nodes;
  std::sort(sorted.begin(), sorted.end());
  const bool each_node_once = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  const bool equal_runs =
      std::all_of(run_sizes.begin(), run_sizes.end(), [&](std::size_t k) { return k == run_sizes[0]; });
  if (nodes.size() < 2 || !each_node_once || !equal_runs) return {};
  return {TopologyKind::kHierarchical,
          {static_cast<std::uint32_t>(run_sizes[0]), static_cast<std::uint32_t>(nodes.size())},
          std::nullopt};
}

// Beyond this many members, a group keeps every link: listing their p(p-1) routes would take
// longer than copying the graph, and there are few such groups.
constexpr std::size_t kMostMembersRouted = 1024;

// The links a group keeps: those its members' routes take, both ways between every two
// (the others carry none of its traffic), or every link for a large group.
std::vector<bool> links_spanned(const Topology& topology, const std::vector<Rank>& members) {
  const bool all = members.size() > kMostMembersRouted;
  std::vector<bool> kept(topology.link_count(), all);
  if (all) return kept;
  Route route;
  for (const Rank a : members) {
    for (const Rank b : members) {
      if (a == b) continue;
      topology.route_into(a, b, route);
      for (const ChannelId channel : route) kept[link_of(channel)] = true;
    }
  }
  return kept;
}

// A group that keeps every link keeps them in the topology's order and direction, so its
// channels are the topology's, and its routes can be the topology's between its members:
// from a built topology's router, O(route) each, where Dijkstra's fastest path from every
// member of a 4,096-member data-parallel group of a 32,768-GPU cluster took minutes.
class MemberRouter final : public Router {
 public:
  MemberRouter(Topology topology, std::vector<Rank> members)
      : topology_(std::move(topology)), members_(std::move(members)) {}
  void append_route(Rank src, Rank dst, Route& route) const override {
    Route part;
    topology_.route_into(members_[src], members_[dst], part);
    route.insert(route.end(), part.begin(), part.end());
  }
  std::size_t table_entries() const override { return members_.size() + topology_.route_table_entries(); }

 private:
  Topology topology_;
  std::vector<Rank> members_;
};

}  // namespace

Topology group_topology(const Topology& topology, const std::vector<Rank>& members) {
  if (members.empty()) throw InputError("a group of NPUs needs at least one member");
  // The new id of every vertex it keeps: members first, in group order, then the others the
  // kept links reach, in the topology's order.
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
  const std::vector<bool> kept = links_spanned(topology, members);
  std::vector<bool> reached(topology.vertex_count(), false);
  for (LinkId l = 0; l < topology.link_count(); ++l) {
    if (kept[l]) reached[topology.link(l).first] = reached[topology.link(l).second] = true;
  }
  TopologyBuilder builder(topology.name() + "-group", std::to_string(members.size()) + " NPUs of " + topology.name());
  for (const Rank m : members) builder.add_npu(topology.vertex(m).name);
  for (VertexId v = 0; v < topology.vertex_count(); ++v) {
    if (new_id[v] != kUnplaced || !reached[v]) continue;
    const VertexProps& props = topology.vertex(v);
    new_id[v] = builder.add_switch(props.name, props.reduces);
    if (props.host_memory) builder.set_host_memory(new_id[v]);
  }
  for (LinkId l = 0; l < topology.link_count(); ++l) {
    const Link& link = topology.link(l);
    if (kept[l]) builder.add_link(new_id[link.first], new_id[link.second], link.params);
  }
  builder.set_shape(group_shape(topology, members));
  if (members.size() > kMostMembersRouted && topology.has_router()) {
    builder.set_router(std::make_shared<MemberRouter>(topology, members));
  }
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
