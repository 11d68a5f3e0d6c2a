// Routes by construction (topology/routing.h) against the graph searches they replace, on
// every pair of small topologies of each built kind; and the memory they keep.

#include "topology/routing.h"

#include <gtest/gtest.h>

#include "topology/builders.h"
#include "topology/group_topology.h"

namespace commsim {
namespace {

TopologyConfig config(TopologyKind kind) {
  TopologyConfig c;
  c.kind = kind;
  return c;
}

void expect_routes_equal_dijkstra(const Topology& t) {
  SCOPED_TRACE(t.description());
  for (Rank src = 0; src < t.npu_count(); ++src) {
    for (Rank dst = 0; dst < t.npu_count(); ++dst) {
      ASSERT_EQ(t.route(src, dst), t.fastest_route(src, dst)) << src << " -> " << dst;
    }
  }
}

// Dimension order as the graph says it, one link looked up per hop: dimension 0 first, round
// a torus ring the shorter way, the positive way on a tie.
Route grid_reference(const Topology& t, Rank src, Rank dst) {
  const Grid& g = *t.grid();
  Route route;
  VertexId current = src;
  std::uint32_t stride = 1;
  for (const std::uint32_t size : g.dims) {
    const auto coord = [&](VertexId r) { return (r / stride) % size; };
    while (coord(current) != coord(dst)) {
      const std::uint32_t c = coord(current), forward = (coord(dst) + size - c) % size;
      const bool positive = g.wrap ? forward <= size - forward : coord(dst) > c;
      const VertexId next = current - c * stride + (positive ? (c + 1) % size : (c + size - 1) % size) * stride;
      route.push_back(t.channel_between(current, next));
      current = next;
    }
    stride *= size;
  }
  return route;
}

TEST(Routers, GridRoutesAreDimensionOrderOnEveryPair) {
  std::vector<TopologyConfig> configs;
  for (const std::uint32_t n : {1u, 2u, 3u, 4u, 7u}) {
    TopologyConfig ring = config(TopologyKind::kRing);
    ring.npus = n;
    configs.push_back(ring);
  }
  for (const std::vector<std::uint32_t>& dims : std::vector<std::vector<std::uint32_t>>{
           {1}, {2}, {5}, {2, 2}, {3, 4}, {4, 4}, {2, 3, 4}, {5, 1, 3}, {3, 2, 5}, {4, 4, 4}}) {
    for (const TopologyKind kind : {TopologyKind::kMesh, TopologyKind::kTorus}) {
      TopologyConfig c = config(kind);
      c.dims = dims;
      configs.push_back(c);
    }
  }
  for (const TopologyConfig& c : configs) {
    const Topology t = build_topology(c);
    SCOPED_TRACE(t.description());
    for (Rank src = 0; src < t.npu_count(); ++src) {
      for (Rank dst = 0; dst < t.npu_count(); ++dst) {
        ASSERT_EQ(t.route(src, dst), grid_reference(t, src, dst)) << src << " -> " << dst;
      }
    }
  }
}

TEST(Routers, SwitchFullyConnectedAndTreeEqualDijkstraOnEveryPair) {
  for (const std::uint32_t n : {1u, 2u, 3u, 5u, 8u, 13u}) {
    for (const TopologyKind kind : {TopologyKind::kSwitch, TopologyKind::kFullyConnected}) {
      TopologyConfig c = config(kind);
      c.npus = n;
      expect_routes_equal_dijkstra(build_topology(c));
    }
    for (const std::uint32_t arity : {2u, 3u, 4u}) {
      TopologyConfig c = config(TopologyKind::kTree);
      c.npus = n;
      c.arity = arity;
      c.oversubscription = {2};
      expect_routes_equal_dijkstra(build_topology(c));
    }
  }
  TopologyConfig big = config(TopologyKind::kTree);  // 4 levels, the last switch level partial
  big.npus = 27;
  big.arity = 2;
  expect_routes_equal_dijkstra(build_topology(big));
}

TEST(Routers, HierarchicalEqualsDijkstraOnEveryPair) {
  for (const std::uint32_t nodes : {1u, 2u, 5u}) {
    for (const std::uint32_t gpus : {1u, 2u, 4u}) {
      for (const std::uint32_t leaf : {0u, 1u, 2u, 9u}) {
        TopologyConfig c = config(TopologyKind::kHierarchical);
        c.nodes = nodes;
        c.gpus_per_node = gpus;
        c.leaf_size = leaf;
        c.oversubscription = {leaf == 2 ? 3.0 : 1.0};  // 5 nodes in leaves of 2: the last one thinner
        expect_routes_equal_dijkstra(build_topology(c));
      }
    }
  }
}

double weight_of(const Topology& t, const Route& route) {
  double weight = 0;
  for (const ChannelId channel : route) weight += route_weight(t.link(link_of(channel)).params);
  return weight;
}

// Rail-optimised: where two fastest paths weigh the same (PXN through either node's GPU of
// the other rail), the router may take the other one; each of its routes weighs what
// Dijkstra's does and is a path from the source to the destination.
void expect_route_weights_equal_dijkstra(const Topology& t) {
  SCOPED_TRACE(t.description());
  for (Rank src = 0; src < t.npu_count(); ++src) {
    for (Rank dst = 0; dst < t.npu_count(); ++dst) {
      if (src == dst) continue;
      const Route route = t.route(src, dst);
      ASSERT_DOUBLE_EQ(weight_of(t, route), weight_of(t, t.fastest_route(src, dst))) << src << " -> " << dst;
      ASSERT_EQ(t.channel_source(route.front()), src);
      for (std::size_t i = 1; i < route.size(); ++i) {
        ASSERT_EQ(t.channel_source(route[i]), t.channel_target(route[i - 1]));
      }
      ASSERT_EQ(t.channel_target(route.back()), dst);
    }
  }
}

TEST(Routers, RailsWeighWhatDijkstraWeighsOnEveryPair) {
  for (const std::uint32_t nodes : {2u, 3u, 5u}) {
    for (const std::uint32_t gpus : {1u, 2u, 4u}) {
      for (const std::uint32_t leaf : {0u, 1u, 2u}) {
        for (const double oversubscription : {1.0, 3.0}) {
          TopologyConfig c = config(TopologyKind::kHierarchical);
          c.nodes = nodes;
          c.gpus_per_node = gpus;
          c.leaf_size = leaf;
          c.rails = true;
          c.oversubscription = {oversubscription};
          expect_route_weights_equal_dijkstra(build_topology(c));
          // Uplinks lighter than NVLink hops: across rails of a group through the spine.
          c.link.latency_ps = ps_from_us(20);
          c.nic.latency_ps = 0;
          expect_route_weights_equal_dijkstra(build_topology(c));
        }
      }
    }
  }
}

// Inside a node the route takes whichever of the NVSwitch and the leaf is faster, and the
// NVSwitch on a tie, as Dijkstra does.
TEST(Routers, HierarchicalInsideANodeTakesTheFasterSwitchAndTheNvswitchOnATie) {
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 3;
  c.gpus_per_node = 4;
  c.leaf_size = 2;
  const auto intra_node_kind = [&](const Topology& t) { return t.link(link_of(t.route(1, 2).front())).params.kind; };

  const Topology nvlink_faster = build_topology(c);
  EXPECT_EQ(intra_node_kind(nvlink_faster), LinkKind::kNvlink);
  expect_routes_equal_dijkstra(nvlink_faster);

  c.nic.bandwidth_Bps = 2 * c.link.bandwidth_Bps;
  c.nic.latency_ps = c.link.latency_ps;
  const Topology nic_faster = build_topology(c);
  EXPECT_EQ(intra_node_kind(nic_faster), LinkKind::kInfiniband);
  EXPECT_EQ(nic_faster.route(1, 2).size(), 2u);
  expect_routes_equal_dijkstra(nic_faster);

  c.nic = c.link;  // the same weight, another kind of link
  c.nic.kind = LinkKind::kInfiniband;
  const Topology tie = build_topology(c);
  EXPECT_EQ(intra_node_kind(tie), LinkKind::kNvlink);
  expect_routes_equal_dijkstra(tie);
}

TEST(Routers, BuiltKindsKeepNoTablePerPairOrSource) {
  // 4,096 GPUs: 512 nodes x 8 under leaves of 32 nodes. Routing from every GPU (inside its
  // node, inside its leaf, across the spine) keeps a handful of numbers; per-source Dijkstra
  // trees, as before, kept 4,096 x 4,625 vertices = 18.9 M entries.
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 512;
  c.gpus_per_node = 8;
  c.leaf_size = 32;
  const Topology t = build_topology(c);
  const auto n = static_cast<Rank>(t.npu_count());
  ASSERT_EQ(n, 4096u);
  Route route;
  for (Rank src = 0; src < n; ++src) {
    for (const Rank step : {1u, 8u, 256u, 2048u, 4095u}) t.route_into(src, (src + step) % n, route);
  }
  EXPECT_LE(t.route_table_entries(), t.npu_count());  // O(N), here O(1)
  c.nodes = 256;
  EXPECT_EQ(build_topology(c).route_table_entries(), t.route_table_entries());  // independent of N

  for (const TopologyKind kind : {TopologyKind::kRing, TopologyKind::kSwitch, TopologyKind::kFullyConnected,
                                  TopologyKind::kTree, TopologyKind::kMesh, TopologyKind::kTorus}) {
    TopologyConfig k = config(kind);
    k.npus = kind == TopologyKind::kFullyConnected ? 256 : 4096;
    k.dims = {16, 16, 16};
    const Topology built = build_topology(k);
    for (Rank src = 0; src < built.npu_count(); ++src) built.route_into(src, (src * 7 + 3) % built.npu_count(), route);
    EXPECT_LE(built.route_table_entries(), 16u) << built.description();
  }
}

TEST(Routers, AnExplicitGraphKeepsTreesPerSourceWithinItsBound) {
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 4;
  c.gpus_per_node = 4;
  c.leaf_size = 2;
  const Topology built = build_topology(c);
  std::vector<Rank> everyone(built.npu_count());
  for (Rank r = 0; r < everyone.size(); ++r) everyone[r] = r;
  const Topology explicit_graph = group_topology(built, everyone);  // the same graph, no router
  const std::size_t vertices = explicit_graph.vertex_count();       // 16 GPUs + 4 + 2 + 1 switches

  FastestPathTrees bounded(3 * vertices);  // three trees; later sources are computed per use
  for (Rank src = 0; src < everyone.size(); ++src) {
    for (Rank dst = 0; dst < everyone.size(); ++dst) {
      if (src == dst) continue;
      Route route;
      ASSERT_TRUE(bounded.append_path(explicit_graph.graph(), explicit_graph.links(), src, dst, route));
      ASSERT_EQ(route, built.route(src, dst)) << src << " -> " << dst;
    }
  }
  // Three kept trees (sources 0, 1, 2, with a slot each) and the last source's.
  EXPECT_EQ(bounded.table_entries(), 4 * vertices + 3);

  // Unbounded here: a tree per source routed from, as many as there are sources.
  const auto n = static_cast<Rank>(everyone.size());
  for (Rank src = 0; src < n; ++src) explicit_graph.route(src, (src + 1) % n);
  EXPECT_EQ(explicit_graph.route_table_entries(), n * vertices + n);
}

}  // namespace
}  // namespace commsim
