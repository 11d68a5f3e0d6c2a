#include "topology/graphviz.h"

#include <gtest/gtest.h>

#include <sstream>

#include "../expect_contains.h"
#include "topology/builders.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string dot_of(const Topology& t) {
  std::ostringstream dot;
  write_dot(dot, t);
  return dot.str();
}

Topology two_nodes_of_four() {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  return build_topology(c);
}

std::vector<std::string> lines_with(const std::string& text, const std::string& what) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(what) != std::string::npos) found.push_back(line);
  }
  return found;
}

// The vertex ids written inside the block of "subgraph cluster_<index>".
std::vector<std::string> cluster_members(const std::string& text, int index) {
  const std::size_t begin = text.find("subgraph cluster_" + std::to_string(index) + " {");
  const std::size_t end = text.find("\n  }\n", begin);
  std::vector<std::string> ids;
  std::istringstream in(text.substr(begin, end - begin));
  for (std::string line; std::getline(in, line);) {
    if (line.find(" [label=") != std::string::npos) ids.push_back(line.substr(4, line.find(' ', 4) - 4));
  }
  return ids;
}

// GPUs 0-7, NVSwitches 8 and 9, the network switch 10: 8 NVLink and 8 InfiniBand links.
TEST(Graphviz, OneEdgePerLinkColouredByKind) {
  const Topology t = two_nodes_of_four();
  const std::string text = dot_of(t);
  EXPECT_EQ(text.rfind("graph G {\n", 0), 0u);
  const auto edges = lines_with(text, " -- ");
  ASSERT_EQ(edges.size(), t.link_count());  // a full-duplex link is one line, not two
  std::size_t nvlink = 0;
  std::size_t infiniband = 0;
  for (const std::string& e : edges) {
    nvlink += e.find("color=\"#009E73\"") != std::string::npos && e.find(" nvlink\"") != std::string::npos;
    infiniband += e.find("color=\"#D55E00\"") != std::string::npos && e.find(" infiniband\"") != std::string::npos;
  }
  EXPECT_EQ(nvlink, 8u);
  EXPECT_EQ(infiniband, 8u);
  // 450 GB/s over the slowest 50 GB/s: 1 + log2(9) = 4.17 points; the slowest 1.
  EXPECT_EQ(count(text, "penwidth=4.2"), 8u);
  EXPECT_EQ(count(text, "penwidth=1.0"), 8u);
}

TEST(Graphviz, ANodeBoxPerNvswitchAndItsGpus) {
  const std::string text = dot_of(two_nodes_of_four());
  EXPECT_EQ(count(text, "subgraph cluster_"), 2u);
  // Left of the core, a node is written switch first, GPUs downwards from the last.
  EXPECT_EQ(cluster_members(text, 0), (std::vector<std::string>{"8", "3", "2", "1", "0"}));
  EXPECT_EQ(cluster_members(text, 1), (std::vector<std::string>{"4", "5", "6", "7", "9"}));
  EXPECT_CONTAINS(text, "label=\"node0\";");
  EXPECT_CONTAINS(text, "4 [label=\"gpu0\", tooltip=\"node1/gpu0\"]");
  EXPECT_CONTAINS(text, "10 [label=\"netswitch\", tooltip=\"netswitch\", shape=ellipse");
  // Links are written from the lower column: node0's from the outside in, node1's out.
  EXPECT_CONTAINS(text, "  8 -- 0 [");
  EXPECT_CONTAINS(text, "  0 -- 10 [");
  EXPECT_CONTAINS(text, "  10 -- 4 [");
  EXPECT_CONTAINS(text, "  4 -- 9 [");
}

TEST(Graphviz, LegendRowPerKindOfLink) {
  const std::string text = dot_of(two_nodes_of_four());
  EXPECT_CONTAINS(text, "<b>hierarchical-2x4</b>: hierarchical, 2 nodes x 4 GPUs");
  // A bar as high as the line is wide, rounded up: ceil(4.17) = 5 and 1.
  EXPECT_CONTAINS(text,
                  "<td bgcolor=\"#009E73\" width=\"36\" height=\"5\" fixedsize=\"true\" cellpadding=\"0\"></td>"
                  "<td align=\"left\">450 GB/s 250 ns nvlink</td><td align=\"right\">8 links</td>");
  EXPECT_CONTAINS(text,
                  "height=\"1\" fixedsize=\"true\" cellpadding=\"0\"></td><td align=\"left\">50 GB/s 1 us "
                  "infiniband</td><td align=\"right\">8 links</td>");
  EXPECT_CONTAINS(text, "box: NPU, ellipse: switch; line width grows");
}

// Uplinks of a binary tree of 64 carry 1, 2, ..., 64 x 450 GB/s: widths 1 to 6, then capped.
TEST(Graphviz, PenWidthGrowsWithTheLogOfBandwidth) {
  EXPECT_DOUBLE_EQ(link_pen_width(50e9, 50e9), 1);
  EXPECT_DOUBLE_EQ(link_pen_width(400e9, 50e9), 4);
  EXPECT_DOUBLE_EQ(link_pen_width(32 * 450e9, 450e9), 6);
  EXPECT_DOUBLE_EQ(link_pen_width(64 * 450e9, 450e9), 6);
  EXPECT_NE(link_colour(LinkKind::kPcie), link_colour(LinkKind::kNvlink));
  EXPECT_NE(link_colour(LinkKind::kEthernet), link_colour(LinkKind::kInfiniband));
}

TEST(Graphviz, HalfDuplexDashedAndHostMemoryACylinder) {
  const std::string text = dot_of(load_topology_file(std::string(COMMSIM_SOURCE_DIR) +
                                                     "/topologies/pcie-2080ti-pair-no-p2p.textproto"));
  EXPECT_EQ(lines_with(text, " -- ").size(), 2u);
  EXPECT_EQ(count(text, "style=dashed, tooltip="), 2u);
  EXPECT_CONTAINS(text, "11.09 GB/s 500 ns pcie half-duplex (x0.72 both ways) (dashed)");
  EXPECT_CONTAINS(text, "shape=cylinder");
}

TEST(Graphviz, EnginePerShape) {
  TopologyConfig ring;
  ring.kind = TopologyKind::kRing;
  ring.npus = 4;
  const std::string circle = dot_of(build_topology(ring));
  EXPECT_CONTAINS(circle, "layout=neato;");
  EXPECT_EQ(circle.find("rankdir"), std::string::npos);
  // Radius 1 (the least): NPU 1 a quarter turn clockwise from the top, NPU 2 at the bottom.
  EXPECT_CONTAINS(circle, "1 [label=\"npu1\", tooltip=\"npu1\", pos=\"1.00,0.00!\"];");
  EXPECT_CONTAINS(circle, "2 [label=\"npu2\", tooltip=\"npu2\", pos=\"0.00,-1.00!\"];");
  TopologyConfig torus;
  torus.kind = TopologyKind::kTorus;
  torus.dims = {4, 4};
  const std::string grid = dot_of(build_topology(torus));
  EXPECT_CONTAINS(grid, "layout=neato;");
  EXPECT_CONTAINS(grid, "6 [label=\"npu6\", tooltip=\"npu6\", pos=\"2.60,-1.00!\"];");
  EXPECT_NE(dot_of(two_nodes_of_four()).find("layout=dot;\n  rankdir=LR;"), std::string::npos);
}

// Names are always quoted, so a keyword or a quote in a name cannot end the statement.
TEST(Graphviz, NamesAreQuotedStrings) {
  const std::string spec = R"(
    name: "a<b>"
    graph {
      vertices { name: "node" } vertices { name: "say \"hi\" \\N" }
      links { a: "node" b: "say \"hi\" \\N" link { bandwidth: "25GB/s" latency: "1us" kind: PCIE } }
    })";
  const std::string text = dot_of(parse_topology_spec(spec, "names.textproto", false));
  EXPECT_CONTAINS(text, "0 [label=\"node\", tooltip=\"node\", pos=");
  EXPECT_CONTAINS(text, "1 [label=\"say \\\"hi\\\" \\\\N\"");
  EXPECT_CONTAINS(text, "<b>a&lt;b&gt;</b>");
}

// Two topologies built apart from the same parameters print the same bytes.
TEST(Graphviz, SameTopologySameBytes) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 8;
  c.gpus_per_node = 8;
  c.leaf_size = 2;
  EXPECT_EQ(dot_of(build_topology(c)), dot_of(build_topology(c)));
}

}  // namespace
}  // namespace commsim
