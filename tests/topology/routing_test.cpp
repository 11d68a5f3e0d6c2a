// Routes: dimension order on grids, lowest common switch on trees, NVSwitch inside a node
// and NICs between nodes on hierarchical topologies.

#include <gtest/gtest.h>

#include "topology/builders.h"

namespace commsim {
namespace {

// The vertices a route visits, starting at its source.
std::vector<VertexId> path(const Topology& t, Rank src, Rank dst) {
  std::vector<VertexId> vertices{src};
  for (const ChannelId c : t.route(src, dst)) {
    EXPECT_EQ(t.channel_source(c), vertices.back());
    vertices.push_back(t.channel_target(c));
  }
  return vertices;
}

Topology grid(TopologyKind kind, std::vector<std::uint32_t> dims) {
  TopologyConfig c;
  c.kind = kind;
  c.dims = std::move(dims);
  return build_topology(c);
}

TEST(Routing, MeshIsDimensionOrderXThenY) {
  const Topology t = grid(TopologyKind::kMesh, {4, 4});
  // 0 = (0,0) to 15 = (3,3): along x to 3, then along y.
  EXPECT_EQ(path(t, 0, 15), (std::vector<VertexId>{0, 1, 2, 3, 7, 11, 15}));
  EXPECT_EQ(path(t, 15, 0), (std::vector<VertexId>{15, 14, 13, 12, 8, 4, 0}));
  EXPECT_EQ(t.diameter_hops(), 6u);
}

TEST(Routing, TorusTakesTheShorterWayRoundAndPositiveOnTies) {
  const Topology t = grid(TopologyKind::kTorus, {4, 4});
  EXPECT_EQ(path(t, 0, 3), (std::vector<VertexId>{0, 3}));         // wrap-around
  EXPECT_EQ(path(t, 0, 2), (std::vector<VertexId>{0, 1, 2}));      // tie: positive
  EXPECT_EQ(path(t, 0, 15), (std::vector<VertexId>{0, 3, 15}));    // (3,3): x then y
  EXPECT_EQ(path(t, 5, 4 * 3 + 1), (std::vector<VertexId>{5, 9, 13}));
}

TEST(Routing, Torus3dHopCountsAndDiameter) {
  const Topology t = grid(TopologyKind::kTorus, {4, 4, 4});
  EXPECT_EQ(t.route(0, 63).size(), 3u);   // (3,3,3): one wrap hop per dimension
  EXPECT_EQ(t.route(0, 42).size(), 6u);   // (2,2,2): two hops per dimension
  EXPECT_EQ(t.route(21, 22).size(), 1u);
  EXPECT_EQ(t.diameter_hops(), 6u);
}

TEST(Routing, RingGoesTheShorterWay) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 8;
  const Topology t = build_topology(c);
  EXPECT_EQ(path(t, 0, 3), (std::vector<VertexId>{0, 1, 2, 3}));
  EXPECT_EQ(path(t, 0, 5), (std::vector<VertexId>{0, 7, 6, 5}));
  EXPECT_EQ(path(t, 0, 4), (std::vector<VertexId>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(t.route(3, 3).empty());
  // Neighbours, either way and across the wrap (each hop checked to leave where it is).
  EXPECT_EQ(path(t, 3, 4), (std::vector<VertexId>{3, 4}));
  EXPECT_EQ(path(t, 4, 3), (std::vector<VertexId>{4, 3}));
  EXPECT_EQ(path(t, 7, 0), (std::vector<VertexId>{7, 0}));
  EXPECT_EQ(path(t, 0, 7), (std::vector<VertexId>{0, 7}));
}

TEST(Routing, TreeRoutesThroughTheLowestCommonSwitch) {
  TopologyConfig c;
  c.kind = TopologyKind::kTree;
  c.npus = 8;
  c.arity = 2;  // leaf switches over {0,1},{2,3},..; then {0..3},{4..7}; then the root
  const Topology t = build_topology(c);
  EXPECT_EQ(t.route(0, 1).size(), 2u);
  EXPECT_EQ(t.route(0, 2).size(), 4u);
  EXPECT_EQ(t.route(0, 7).size(), 6u);
  EXPECT_EQ(t.vertex(path(t, 0, 1)[1]).name, "sw1.0");
  EXPECT_EQ(t.vertex(path(t, 0, 3)[2]).name, "sw2.0");
  EXPECT_EQ(t.vertex(path(t, 0, 7)[3]).name, "sw3.0");
  EXPECT_EQ(t.diameter_hops(), 6u);
}

TEST(Routing, HierarchicalUsesNvswitchInsideANodeAndNicsBetweenNodes) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  const Topology t = build_topology(c);
  const Route& intra = t.route(0, 3);
  ASSERT_EQ(intra.size(), 2u);
  for (const ChannelId ch : intra) EXPECT_EQ(t.link(link_of(ch)).params.kind, LinkKind::kNvlink);
  EXPECT_EQ(t.vertex(path(t, 0, 3)[1]).name, "node0/nvswitch");
  const Route& inter = t.route(1, 5);
  ASSERT_EQ(inter.size(), 2u);
  for (const ChannelId ch : inter) {
    EXPECT_EQ(t.link(link_of(ch)).params.kind, LinkKind::kInfiniband);
  }
  EXPECT_EQ(t.vertex(path(t, 1, 5)[1]).name, "netswitch");

  c.leaf_size = 1;  // each node on its own leaf: GPU, leaf, spine, leaf, GPU
  const Topology leaf_spine = build_topology(c);
  EXPECT_EQ(leaf_spine.route(1, 5).size(), 4u);
  EXPECT_EQ(leaf_spine.vertex(path(leaf_spine, 1, 5)[2]).name, "spine");
  EXPECT_EQ(leaf_spine.route(1, 2).size(), 2u);
}

TEST(Routing, SwitchAndFullyConnected) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  EXPECT_EQ(build_topology(c).route(2, 6).size(), 2u);
  c.kind = TopologyKind::kFullyConnected;
  const Topology fc = build_topology(c);
  EXPECT_EQ(path(fc, 2, 6), (std::vector<VertexId>{2, 6}));
  EXPECT_EQ(fc.diameter_hops(), 1u);
}

TEST(Routing, RouteIntoReplacesTheRoute) {
  const Topology t = grid(TopologyKind::kTorus, {4, 4});
  Route route{99, 98, 97, 96, 95};
  t.route_into(0, 10, route);
  EXPECT_EQ(route, t.route(0, 10));
  EXPECT_EQ(route.size(), 4u);  // (2,2): two hops per dimension
  t.route_into(5, 5, route);
  EXPECT_TRUE(route.empty());
}

}  // namespace
}  // namespace commsim
