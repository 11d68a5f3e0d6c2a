#include "topology/spec_file.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace commsim {
namespace {

TopologyConfig config(TopologyKind kind) {
  TopologyConfig c;
  c.kind = kind;
  return c;
}

TEST(Builders, CountsOfEveryKind) {
  struct Case {
    TopologyConfig config;
    std::size_t npus, switches, links;
  };
  TopologyConfig ring = config(TopologyKind::kRing);
  ring.npus = 8;
  TopologyConfig ring2 = ring;
  ring2.npus = 2;  // one link, not two parallel ones
  TopologyConfig sw = config(TopologyKind::kSwitch);
  sw.npus = 16;
  TopologyConfig fc = config(TopologyKind::kFullyConnected);
  fc.npus = 6;
  TopologyConfig tree = config(TopologyKind::kTree);
  tree.npus = 16;
  tree.arity = 4;  // 4 leaf switches + 1 root
  TopologyConfig tree5 = config(TopologyKind::kTree);
  tree5.npus = 5;
  tree5.arity = 2;  // levels: 3 + 2 + 1 switches
  TopologyConfig hier = config(TopologyKind::kHierarchical);
  hier.nodes = 4;
  hier.gpus_per_node = 8;  // 4 NVSwitches + 1 net switch; 32 NVLink + 32 NIC links
  TopologyConfig leaf_spine = hier;
  leaf_spine.leaf_size = 2;  // 4 NVSwitches + 2 leaves + 1 spine; + 2 uplinks
  TopologyConfig mesh = config(TopologyKind::kMesh);
  mesh.dims = {4, 4};  // 2 * 4 * 3 links
  TopologyConfig torus = config(TopologyKind::kTorus);
  torus.dims = {4, 4, 4};  // 3 * 64 links
  TopologyConfig torus2 = config(TopologyKind::kTorus);
  torus2.dims = {2, 3};  // dim of 2: one link per pair; dim of 3: a ring of 3 links
  const std::vector<Case> cases{
      {ring, 8, 0, 8},          {ring2, 2, 0, 1},          {sw, 16, 1, 16},
      {fc, 6, 0, 15},           {tree, 16, 5, 20},         {tree5, 5, 6, 10},
      {hier, 32, 5, 64},        {leaf_spine, 32, 7, 66},   {mesh, 16, 0, 24},
      {torus, 64, 0, 192},      {torus2, 6, 0, 3 + 2 * 3},
  };
  for (const Case& c : cases) {
    const Topology t = build_topology(c.config);
    SCOPED_TRACE(t.name());
    EXPECT_EQ(t.npu_count(), c.npus);
    EXPECT_EQ(t.switch_count(), c.switches);
    EXPECT_EQ(t.link_count(), c.links);
  }
}

TEST(Builders, DefaultIsTheH100Node) {
  const Topology t = build_topology(default_topology_config());
  EXPECT_EQ(t.name(), "h100-nvswitch-node");
  EXPECT_EQ(t.npu_count(), 8u);
  EXPECT_EQ(t.switch_count(), 1u);
  // As NCCL sees it: 18 NVLink4 links x 20.6 GB/s, and NCCL's library.
  EXPECT_DOUBLE_EQ(t.link(0).params.bandwidth_Bps, 370.8e9);
  EXPECT_EQ(t.link(0).params.kind, LinkKind::kNvlink);
  EXPECT_EQ(t.library().name, "nccl");
}

TEST(Builders, TreeUplinksCarryLeavesBelowOverOversubscription) {
  TopologyConfig c = config(TopologyKind::kTree);
  c.npus = 16;
  c.arity = 4;
  c.link.bandwidth_Bps = 100e9;
  c.oversubscription = {4};
  const Topology t = build_topology(c);
  // Links 0..15 join NPUs to leaf switches; 16..19 are the leaves' uplinks:
  // 4 NPUs * 100 GB/s / 4 = 100 GB/s.
  EXPECT_DOUBLE_EQ(t.link(0).params.bandwidth_Bps, 100e9);
  EXPECT_DOUBLE_EQ(t.link(16).params.bandwidth_Bps, 100e9);
  c.oversubscription = {1};
  EXPECT_DOUBLE_EQ(build_topology(c).link(16).params.bandwidth_Bps, 400e9);
}

TEST(Builders, HierarchicalLeafUplinksAggregateTheirNics) {
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 4;
  c.gpus_per_node = 2;
  c.leaf_size = 2;
  c.oversubscription = {2};
  const Topology t = build_topology(c);
  const Link& uplink = t.link(t.link_count() - 1);
  EXPECT_EQ(t.vertex(uplink.second).name, "spine");
  // 2 nodes * 2 GPUs * 50 GB/s / 2.
  EXPECT_DOUBLE_EQ(uplink.params.bandwidth_Bps, 100e9);
}

TEST(Builders, RailsPutEachGpuIndexOnItsOwnLeaf) {
  // 5 nodes x 4 GPUs in groups of 2 nodes: a leaf per rail of each group (3 x 4 = 12), and a
  // spine joining them, each leaf's uplink the NICs below it, one a node: 2 x 50 GB/s (the
  // last group's 1 x 50 GB/s).
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 5;
  c.gpus_per_node = 4;
  c.leaf_size = 2;
  c.rails = true;
  const Topology t = build_topology(c);
  EXPECT_EQ(t.name(), "hierarchical-5x4-rails");
  EXPECT_EQ(t.switch_count(), 5u + 12u + 1u);
  EXPECT_EQ(t.link_count(), 20u + 20u + 12u);
  const Link& first_uplink = t.link(40);
  EXPECT_EQ(t.vertex(first_uplink.first).name, "leaf0/rail0");
  EXPECT_EQ(t.vertex(first_uplink.second).name, "spine");
  EXPECT_DOUBLE_EQ(first_uplink.params.bandwidth_Bps, 100e9);
  EXPECT_DOUBLE_EQ(t.link(51).params.bandwidth_Bps, 50e9);
  const auto kinds = [&](Rank src, Rank dst) {
    std::vector<LinkKind> k;
    for (const ChannelId channel : t.route(src, dst)) k.push_back(t.link(link_of(channel)).params.kind);
    return k;
  };
  using K = LinkKind;
  // GPU 1 of node 0 to GPU 1 of node 1: its rail's leaf.
  EXPECT_EQ(kinds(1, 5), (std::vector<K>{K::kInfiniband, K::kInfiniband}));
  // To GPU 2 of node 1, across rails: NVSwitch to GPU 2 of node 0, then rail 2 (NCCL's PXN),
  // the two NVLink hops lighter than the 100 GB/s uplinks.
  EXPECT_EQ(kinds(1, 6), (std::vector<K>{K::kNvlink, K::kNvlink, K::kInfiniband, K::kInfiniband}));
  EXPECT_EQ(t.vertex(t.channel_target(t.route(1, 6)[1])).name, "node0/gpu2");
  // To node 2, another group: through the spine, rail to rail.
  EXPECT_EQ(kinds(1, 10), (std::vector<K>{K::kInfiniband, K::kInfiniband, K::kInfiniband, K::kInfiniband}));
  // One group has no spine: 8 leaves, one per rail (rail-only).
  c.leaf_size = 0;
  c.nodes = 2;
  c.gpus_per_node = 8;
  const Topology one = build_topology(c);
  EXPECT_EQ(one.switch_count(), 2u + 8u);
  EXPECT_EQ(one.vertex(one.channel_target(one.route(0, 8).front())).name, "rail0");
  // Uplinks lighter than two NVLink hops: across rails of a group through the spine.
  c.nodes = 4;
  c.gpus_per_node = 2;
  c.leaf_size = 2;
  c.link.latency_ps = ps_from_us(20);
  const Topology fat = build_topology(c);
  EXPECT_EQ(fat.route(0, 3).size(), 4u);
  EXPECT_EQ(fat.vertex(fat.channel_target(fat.route(0, 3)[1])).name, "spine");
}

TEST(Builders, BadParametersAreInputErrors) {
  TopologyConfig mesh = config(TopologyKind::kMesh);
  EXPECT_THROW(build_topology(mesh), InputError);  // no dims
  mesh.dims = {4, 0};
  EXPECT_THROW(build_topology(mesh), InputError);
  mesh.dims = {2, 2, 2, 2};
  EXPECT_THROW(build_topology(mesh), InputError);
  TopologyConfig tree = config(TopologyKind::kTree);
  tree.arity = 1;
  EXPECT_THROW(build_topology(tree), InputError);
  tree.arity = 2;
  tree.oversubscription = {1, 2, 3, 4, 5};  // 8 NPUs, arity 2: 3 levels
  EXPECT_THROW(build_topology(tree), InputError);
  tree.oversubscription = {0};
  EXPECT_THROW(build_topology(tree), InputError);
  TopologyConfig ring = config(TopologyKind::kRing);
  ring.npus = 0;
  EXPECT_THROW(build_topology(ring), InputError);
}

TEST(Builders, DiameterByFormulaEqualsTheSearch) {
  // Each builder states its diameter by formula (O(1), so `topo` on 10^6 NPUs is quick);
  // a breadth-first search from every NPU must agree on every kind and small size.
  std::vector<TopologyConfig> configs;
  for (const std::uint32_t n : {1u, 2u, 3u, 4u, 7u, 8u, 9u}) {
    for (const TopologyKind kind : {TopologyKind::kRing, TopologyKind::kSwitch,
                                    TopologyKind::kFullyConnected, TopologyKind::kTree}) {
      TopologyConfig c = config(kind);
      c.npus = n;
      c.arity = n % 2 ? 3 : 2;
      configs.push_back(c);
    }
  }
  for (const std::vector<std::uint32_t>& dims : std::vector<std::vector<std::uint32_t>>{
           {1}, {2}, {5}, {2, 2}, {3, 4}, {4, 4}, {2, 3, 4}, {5, 1, 3}}) {
    for (const TopologyKind kind : {TopologyKind::kMesh, TopologyKind::kTorus}) {
      TopologyConfig c = config(kind);
      c.dims = dims;
      configs.push_back(c);
    }
  }
  for (const std::uint32_t nodes : {1u, 2u, 5u}) {
    for (const std::uint32_t gpus : {1u, 4u}) {
      for (const std::uint32_t leaf : {0u, 1u, 2u, 9u}) {
        for (const bool rails : {false, true}) {
          TopologyConfig c = config(TopologyKind::kHierarchical);
          c.nodes = nodes;
          c.gpus_per_node = gpus;
          c.leaf_size = leaf;
          c.rails = rails;
          configs.push_back(c);
        }
      }
    }
  }
  for (const TopologyConfig& c : configs) {
    const Topology t = build_topology(c);
    SCOPED_TRACE(t.description());
    ASSERT_TRUE(t.shape().diameter_hops.has_value());
    EXPECT_EQ(t.diameter_hops(), t.searched_diameter_hops());
  }
}

TEST(Builders, LeafLargerThanTheClusterIsOneLeaf) {
  // nodes + leaf_size - 1 once overflowed 32 bits, left no leaf switch and crashed.
  TopologyConfig c = config(TopologyKind::kHierarchical);
  c.nodes = 4;
  c.leaf_size = 4294967295u;
  const Topology t = build_topology(c);
  EXPECT_EQ(t.switch_count(), 4u + 1u);  // an NVSwitch per node and one network switch
  EXPECT_EQ(t.link_count(), 4u * 8 * 2);  // every GPU: NVSwitch link and NIC link
  EXPECT_EQ(t.diameter_hops(), 2u);
  // The description names the leaf size only where there are several leaves to a spine.
  EXPECT_EQ(t.description(), "hierarchical, 4 nodes x 8 GPUs");
  c.leaf_size = 2;
  EXPECT_EQ(build_topology(c).description(), "hierarchical, 4 nodes x 8 GPUs, 2 nodes per leaf");
  c.leaf_size = 4;
  EXPECT_EQ(build_topology(c).description(), "hierarchical, 4 nodes x 8 GPUs");
}

std::string build_error(const TopologyConfig& c) {
  try {
    build_topology(c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Builders, FullyConnectedBeyondReasonIsRefusedWithAnEstimate) {
  TopologyConfig c = config(TopologyKind::kFullyConnected);
  c.npus = 10000;
  // 10,000 x 9,999 / 2 links at ~320 B each.
  EXPECT_NE(build_error(c).find("10000 NPUs need 49995000 links, about 16.0 GB of memory; the limit "
                                "is 4096 NPUs (for a large non-blocking fabric, use a switch topology)"),
            std::string::npos)
      << build_error(c);
}

TEST(Builders, RatiosAndDerivedBandwidthsStayInRange) {
  TopologyConfig tree = config(TopologyKind::kTree);
  tree.npus = 16;
  tree.oversubscription = {1e-300};
  EXPECT_NE(build_error(tree).find("oversubscription 1e-300 is outside [0.001, 1e6]"), std::string::npos);
  tree.oversubscription = {1e30};
  EXPECT_NE(build_error(tree).find("oversubscription 1e+30 is outside"), std::string::npos);
  // In range, but an uplink of 8 NPUs x 1e18 B/s / 0.001 would leave the bandwidth range:
  // the builder names the link instead of building an infinite one.
  tree.oversubscription = {0.001};
  tree.link.bandwidth_Bps = 1e17;
  EXPECT_NE(build_error(tree).find("link sw1.0 -- sw2.0: bandwidth 2e+20 B/s is outside"), std::string::npos)
      << build_error(tree);
}

TEST(Builders, ParseDims) {
  EXPECT_EQ(parse_dims("4x4x4", "--dims"), (std::vector<std::uint32_t>{4, 4, 4}));
  EXPECT_EQ(parse_dims("8", "--dims"), (std::vector<std::uint32_t>{8}));
  EXPECT_THROW(parse_dims("4x0", "--dims"), InputError);
  EXPECT_THROW(parse_dims("4x", "--dims"), InputError);
  EXPECT_THROW(parse_dims("axb", "--dims"), InputError);
  EXPECT_THROW(parse_dims("2x2x2x2", "--dims"), InputError);
  EXPECT_THROW(parse_topology_kind("hypercube", "--topology"), InputError);
}

}  // namespace
}  // namespace commsim
