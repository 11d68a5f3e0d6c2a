// The topology a group of NPUs spans: its members' routes and links, as in the whole.

#include "topology/group_topology.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"
#include "topology/builders.h"

namespace commsim {
namespace {

Topology cluster(std::uint32_t nodes, std::uint32_t gpus_per_node) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = nodes;
  c.gpus_per_node = gpus_per_node;
  return build_topology(c);
}

Topology two_nodes_of_four() { return cluster(2, 4); }

TEST(GroupTopology, MembersKeepTheirRoutesAndLinks) {
  const Topology whole = two_nodes_of_four();
  // A group inside node 0 reaches its peers over NVLink; a group of one GPU per node crosses
  // the NICs: the same routes, hop for hop, as between those NPUs of the whole topology.
  const Topology inside = group_topology(whole, {1, 2});
  const Topology across = group_topology(whole, {0, 4});
  ASSERT_EQ(inside.npu_count(), 2u);
  EXPECT_EQ(inside.route(0, 1).size(), whole.route(1, 2).size());
  EXPECT_EQ(inside.route_class(inside.route(0, 1)), LinkClass::kNvlink);
  EXPECT_EQ(across.route(0, 1).size(), whole.route(0, 4).size());
  EXPECT_EQ(across.route_class(across.route(0, 1)), LinkClass::kNet);
  // What GPU 0 injects into the group goes through its NIC (50 GB/s), not its NVLink.
  const Link& first_hop = whole.link(link_of(whole.route(0, 4).front()));
  EXPECT_EQ(across.injection_bandwidth(0), first_hop.params.bandwidth_Bps);
  EXPECT_LT(across.injection_bandwidth(0), whole.injection_bandwidth(0));
  // The links of the members' routes stay, with the vertices they join (a path: one more
  // vertex than links); the rest of the cluster carries none of the group's traffic.
  EXPECT_EQ(across.link_count(), whole.route(0, 4).size());
  EXPECT_EQ(across.vertex_count(), whole.route(0, 4).size() + 1);
  EXPECT_LT(across.link_count(), whole.link_count());
}

// The shape's levels (GPUs a node, nodes), or {} when it is not hierarchical.
std::vector<std::uint32_t> hierarchical_levels(const Topology& t) {
  return t.shape().kind == TopologyKind::kHierarchical ? t.shape().levels : std::vector<std::uint32_t>{};
}

TEST(GroupTopology, EqualBlocksOfGpusOnSeveralNodesAreHierarchical) {
  const Topology whole = two_nodes_of_four();
  using Levels = std::vector<std::uint32_t>;
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {0, 2, 4, 6})), (Levels{2, 2}));  // dp of tp 2
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {0, 4})), (Levels{1, 2}));        // dp of tp 4
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {4, 5, 6, 7, 0, 1, 2, 3})), (Levels{4, 2}));
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {0, 1, 2, 3})), Levels{});  // one node
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {0, 1, 4})), Levels{});     // 2 + 1
  EXPECT_EQ(hierarchical_levels(group_topology(whole, {0, 4, 1, 5})), Levels{});  // node 0 twice
  TopologyConfig ring;
  ring.kind = TopologyKind::kRing;
  ring.npus = 8;
  EXPECT_EQ(hierarchical_levels(group_topology(build_topology(ring), {0, 4})), Levels{});
}

TEST(GroupTopology, ALargeGroupRoutesAsTheWholeDoesAndAsItsFastestPaths) {
  // 1,025 GPUs, one a node (more than a group lists the routes of): every link stays, in the
  // cluster's order, and the group routes by the cluster's router rather than by a
  // fastest-path search from each member; the routes are those fastest paths all the same.
  const Topology whole = cluster(1025, 2);
  std::vector<Rank> members;
  for (Rank node = 0; node < 1025; ++node) members.push_back(2 * node + 1);
  const Topology group = group_topology(whole, members);
  ASSERT_EQ(group.link_count(), whole.link_count());
  EXPECT_TRUE(group.has_router());
  for (const auto& [a, b] : std::vector<std::pair<Rank, Rank>>{{0, 1}, {1, 0}, {0, 1024}, {517, 3}}) {
    EXPECT_EQ(group.route(a, b), whole.route(members[a], members[b])) << a << " -> " << b;
    EXPECT_EQ(group.route(a, b), group.fastest_route(a, b)) << a << " -> " << b;
  }
  // A small group has no router: its routes are its own graph's fastest paths.
  EXPECT_FALSE(group_topology(whole, {1, 3}).has_router());
}

TEST(GroupTopology, ARingGroupRoutesThroughTheNpusBetween) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 8;
  // NPUs 0 and 4 are 4 hops apart either way round.
  EXPECT_EQ(group_topology(build_topology(c), {0, 4}).route(0, 1).size(), 4u);
}

TEST(GroupTopology, BadMembersAreErrors) {
  const Topology whole = two_nodes_of_four();
  EXPECT_THROW(group_topology(whole, {}), InputError);
  EXPECT_THROW(group_topology(whole, {0, 8}), InputError);
  EXPECT_THROW(group_topology(whole, {3, 3}), InputError);
}

}  // namespace
}  // namespace commsim
