#include "topology/graphviz.h"

#include <gtest/gtest.h>

#include <sstream>

#include "topology/builders.h"

namespace commsim {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Graphviz, OneNodePerVertexAndOneEdgePerLink) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 2;
  const Topology t = build_topology(c);
  std::ostringstream dot;
  write_dot(dot, t);
  const std::string text = dot.str();
  EXPECT_EQ(text.rfind("graph G {", 0), 0u);
  EXPECT_EQ(count(text, "--"), t.link_count());  // edges print as "0--4"
  EXPECT_EQ(count(text, "shape=box"), 4u);
  EXPECT_EQ(count(text, "shape=ellipse"), 3u);
  EXPECT_NE(text.find("label=\"node1/gpu0\""), std::string::npos);
  EXPECT_NE(text.find("label=\"50 GB/s 1 us infiniband\""), std::string::npos);
}

}  // namespace
}  // namespace commsim
