#include "topology/graphviz_layout.h"

#include <gtest/gtest.h>

#include "topology/builders.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

Topology hierarchical(std::uint32_t nodes, std::uint32_t gpus, std::uint32_t leaf_size = 0) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = nodes;
  c.gpus_per_node = gpus;
  c.leaf_size = leaf_size;
  return build_topology(c);
}

Topology built(TopologyKind kind, std::uint32_t npus, std::vector<std::uint32_t> dims = {}) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.dims = std::move(dims);
  return build_topology(c);
}

// 2 nodes x 4 GPUs: GPUs 0-7 (node n holds 4n..4n+3), NVSwitches 8 and 9, the network
// switch 10. Each node is the piece left when the InfiniBand links are taken away; the
// network switch is nearest to every GPU (1 link), so it is the core, node0 goes left.
TEST(GraphvizLayout, ANodePerNvswitchMirroredRoundTheNetworkSwitch) {
  const DotLayout layout = plan_dot_layout(hierarchical(2, 4));
  EXPECT_EQ(layout.engine, DotEngine::kDot);
  ASSERT_EQ(layout.node_clusters.size(), 2u);
  EXPECT_EQ(layout.node_clusters[0].label, "node0");
  EXPECT_EQ(layout.node_clusters[0].members, (std::vector<VertexId>{0, 1, 2, 3, 8}));
  EXPECT_EQ(layout.node_clusters[1].label, "node1");
  EXPECT_EQ(layout.node_clusters[1].members, (std::vector<VertexId>{4, 5, 6, 7, 9}));
  EXPECT_TRUE(layout.level_clusters.empty());  // one network switch: one level
  EXPECT_EQ(layout.column, (std::vector<int>{-1, -1, -1, -1, 1, 1, 1, 1, -2, 2, 0}));
  EXPECT_TRUE(layout.position.empty());
}

// Sides are balanced by NPUs a node at a time: with 3 nodes of 2, node0 (2 of 6) goes
// left; node1 would make the left 4 > 6 / 2, so node1 and node2 go right.
TEST(GraphvizLayout, SidesTakeWholeNodes) {
  const DotLayout layout = plan_dot_layout(hierarchical(3, 2));
  ASSERT_EQ(layout.node_clusters.size(), 3u);
  // GPUs 0-5, NVSwitches 6-8, network switch 9.
  EXPECT_EQ(layout.column, (std::vector<int>{-1, -1, 1, 1, 1, 1, -2, 2, 2, 0}));
}

// A binary tree of 8 NPUs: leaf switches sw1.0-sw1.3 (8-11) at level 1, sw2.0 and sw2.1
// (12, 13) at level 2, the root sw3.0 (14) the core. Level 1 holds two switches on each
// side: a box each; level 2 one per side: none.
TEST(GraphvizLayout, TreeSwitchLevelsPerSide) {
  const DotLayout layout = plan_dot_layout(built(TopologyKind::kTree, 8));
  EXPECT_TRUE(layout.node_clusters.empty());  // no network links, no nodes
  ASSERT_EQ(layout.level_clusters.size(), 2u);
  EXPECT_EQ(layout.level_clusters[0].label, "level 1 switches");
  EXPECT_EQ(layout.level_clusters[0].members, (std::vector<VertexId>{8, 9}));
  EXPECT_EQ(layout.level_clusters[1].members, (std::vector<VertexId>{10, 11}));
  EXPECT_EQ(layout.column[0], -3);
  EXPECT_EQ(layout.column[7], 3);
  EXPECT_EQ(layout.column[12], -1);
  EXPECT_EQ(layout.column[13], 1);
  EXPECT_EQ(layout.column[14], 0);
}

// 4 nodes x 2 GPUs, one leaf per node under a spine: nodes 4, leaves at level 1 (2 per
// side), the spine (GPUs 0-7, NVSwitches 8-11, leaves 12-15, spine 16) the core.
TEST(GraphvizLayout, LeafSwitchesAreALevel) {
  const DotLayout layout = plan_dot_layout(hierarchical(4, 2, 1));
  EXPECT_EQ(layout.node_clusters.size(), 4u);
  ASSERT_EQ(layout.level_clusters.size(), 2u);
  EXPECT_EQ(layout.level_clusters[0].members, (std::vector<VertexId>{12, 13}));
  EXPECT_EQ(layout.level_clusters[1].members, (std::vector<VertexId>{14, 15}));
  EXPECT_EQ(layout.column[16], 0);
  EXPECT_EQ(layout.column[12], -1);
  EXPECT_EQ(layout.column[8], -3);  // node0's NVSwitch, beyond its GPUs
}

// Round a circle clockwise from the top, neighbours 1 inch apart: a ring of 16 has radius
// 16 / (2 pi) = 2.546, NPU 4 a quarter turn on at (2.546, 0); 6 NPUs would have 0.955, so
// the radius is the least, 1, and NPU 3 is at the bottom.
TEST(GraphvizLayout, RingsAndSwitchlessGraphsGoRoundACircle) {
  const DotLayout ring = plan_dot_layout(built(TopologyKind::kRing, 16));
  EXPECT_EQ(ring.engine, DotEngine::kNeato);
  ASSERT_EQ(ring.position.size(), 16u);
  EXPECT_NEAR(ring.position[0].x, 0, 1e-12);
  EXPECT_NEAR(ring.position[0].y, 2.546479, 1e-6);
  EXPECT_NEAR(ring.position[4].x, 2.546479, 1e-6);
  EXPECT_NEAR(ring.position[4].y, 0, 1e-12);
  const DotLayout complete = plan_dot_layout(built(TopologyKind::kFullyConnected, 6));
  EXPECT_NEAR(complete.position[3].x, 0, 1e-12);
  EXPECT_NEAR(complete.position[3].y, -1, 1e-12);
  EXPECT_EQ(plan_dot_layout(built(TopologyKind::kTorus, 0, {8})).position[2].x,
            plan_dot_layout(built(TopologyKind::kRing, 8)).position[2].x);  // a 1-D torus is a ring
}

// 2-D: npu r at (1.3 (r mod 4), -1.0 (r / 4)) inches. 3-D 4x4x4: cells 3 x 0.9 + 1.3 = 4.0
// wide and 3 x 0.45 + 1.0 = 2.35 high, plane z shifted by (0.9 z, 0.45 z): npu 21 =
// (1, 1, 1) at (4.0 + 0.9, 0.45 - 2.35) = (4.9, -1.9).
TEST(GraphvizLayout, GridsArePinnedAtTheirCoordinates) {
  const DotLayout flat = plan_dot_layout(built(TopologyKind::kTorus, 0, {4, 4}));
  EXPECT_EQ(flat.engine, DotEngine::kNeato);
  ASSERT_EQ(flat.position.size(), 16u);
  EXPECT_DOUBLE_EQ(flat.position[6].x, 2.6);
  EXPECT_DOUBLE_EQ(flat.position[6].y, -1.0);
  const DotLayout cube = plan_dot_layout(built(TopologyKind::kMesh, 0, {4, 4, 4}));
  EXPECT_DOUBLE_EQ(cube.position[21].x, 4.9);
  EXPECT_DOUBLE_EQ(cube.position[21].y, -1.9);
}

// A spec file's explicit graph gets nodes too: two PCIe boxes whose NICs meet at an
// InfiniBand switch; names share no prefix, so the nodes are numbered.
TEST(GraphvizLayout, SpecGraphNodesFromTheLinksInsideThem) {
  const std::string spec = R"(
    name: "two-boxes"
    graph {
      vertices { name: "a0" } vertices { name: "a1" } vertices { name: "b0" } vertices { name: "b1" }
      vertices { name: "pcie-a" kind: SWITCH } vertices { name: "pcie-b" kind: SWITCH }
      vertices { name: "ib" kind: SWITCH }
      links { a: "a0" b: "pcie-a" link { bandwidth: "25GB/s" latency: "1us" kind: PCIE } }
      links { a: "a1" b: "pcie-a" link { bandwidth: "25GB/s" latency: "1us" kind: PCIE } }
      links { a: "b0" b: "pcie-b" link { bandwidth: "25GB/s" latency: "1us" kind: PCIE } }
      links { a: "b1" b: "pcie-b" link { bandwidth: "25GB/s" latency: "1us" kind: PCIE } }
      links { a: "pcie-a" b: "ib" link { bandwidth: "50GB/s" latency: "1us" kind: INFINIBAND } }
      links { a: "pcie-b" b: "ib" link { bandwidth: "50GB/s" latency: "1us" kind: INFINIBAND } }
    })";
  const DotLayout layout = plan_dot_layout(parse_topology_spec(spec, "two-boxes.textproto", false));
  ASSERT_EQ(layout.node_clusters.size(), 2u);
  EXPECT_EQ(layout.node_clusters[0].label, "node 0");
  EXPECT_EQ(layout.node_clusters[0].members, (std::vector<VertexId>{0, 1, 4}));
  EXPECT_EQ(layout.node_clusters[1].label, "node 1");
  EXPECT_EQ(layout.column, (std::vector<int>{-2, -2, 2, 2, -1, 1, 0}));
}

}  // namespace
}  // namespace commsim
