#include "topology/spec_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "../expect_contains.h"
#include "base/error.h"
#include "topology/builders.h"
#include "topology/spec_message.h"

namespace commsim {
namespace {

const std::string kTopologies = std::string(COMMSIM_SOURCE_DIR) + "/topologies/";

std::string error_of(const std::string& text, bool json = false) {
  try {
    parse_topology_spec(text, "spec.textproto", json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SpecFile, ShippedSystemsLoad) {
  struct Case {
    const char* file;
    std::size_t npus, switches, links;
    double min_bandwidth;
  };
  for (const Case& c : std::vector<Case>{
           // Single nodes at NCCL's sustained NVLink figures (src/graph/topo.h).
           {"h100-nvswitch-node.textproto", 8, 1, 8, 370.8e9},
           {"h200-nvswitch-node.textproto", 8, 1, 8, 370.8e9},
           {"a100-nvswitch-node.textproto", 8, 1, 8, 240e9},
           {"b200-nvswitch-node.textproto", 8, 1, 8, 721.8e9},
           // Clusters: 2 nodes x 8 GPUs, 8 NVLinks and 8 NICs per node, one network switch or
           // a leaf per rail (rail-optimised); the NIC is the slowest.
           {"h100-2node-ib.textproto", 16, 3, 32, 50e9},
           {"h100-ib-cluster.textproto", 16, 10, 32, 48.5e9},
           {"b200-ib-cluster.textproto", 16, 10, 32, 48.5e9},
           {"a100-ib-cluster.textproto", 16, 10, 32, 23.5e9},
           {"pcie-4gpu-box.textproto", 4, 3, 6, 31.5e9},
           {"pcie-2080ti-pair-no-p2p.textproto", 2, 1, 2, 11.09e9},
           {"torus-4x4x4.textproto", 64, 0, 192, 50e9},
       }) {
    SCOPED_TRACE(c.file);
    const Topology t = load_topology_file(kTopologies + c.file);
    EXPECT_EQ(t.npu_count(), c.npus);
    EXPECT_EQ(t.switch_count(), c.switches);
    EXPECT_EQ(t.link_count(), c.links);
    double min_bw = 1e300;
    for (const Link& l : t.links()) min_bw = std::min(min_bw, l.params.bandwidth_Bps);
    EXPECT_DOUBLE_EQ(min_bw, c.min_bandwidth);
  }
}

TEST(SpecFile, ShippedLibrariesParse) {
  // Each preset's library block: its name and LL's rate cap (NCCL's llMaxBws entry for that
  // system); presets without a block run the ideal library.
  struct Case {
    const char* file;
    const char* library;
    std::size_t protocols;
    double ll_max_rate;
  };
  for (const Case& c : std::vector<Case>{
           {"h100-nvswitch-node.textproto", "nccl", 3, 141e9},
           {"h200-nvswitch-node.textproto", "nccl", 3, 141e9},
           {"a100-nvswitch-node.textproto", "nccl-ampere", 3, 87.7e9},
           {"b200-nvswitch-node.textproto", "nccl-blackwell", 3, 282e9},
           {"h100-ib-cluster.textproto", "nccl-hopper-multinode", 3, 20.4e9},
           {"b200-ib-cluster.textproto", "nccl-blackwell-multinode", 3, 20.4e9},
           {"a100-ib-cluster.textproto", "nccl-ampere-multinode", 3, 19e9},
           {"pcie-2080ti-pair-no-p2p.textproto", "nccl-pcie-turing", 2, 39e9},
       }) {
    SCOPED_TRACE(c.file);
    const LibraryProfile library = load_topology_file(kTopologies + c.file).library();
    EXPECT_EQ(library.name, c.library);
    EXPECT_EQ(library.protocols.size(), c.protocols);
    const ProtocolCosts ll = library.costs(Protocol::kLL);
    EXPECT_DOUBLE_EQ(ll.max_rate_Bps, c.ll_max_rate);
    EXPECT_DOUBLE_EQ(ll.efficiency, 0.5);
    EXPECT_EQ(ll.call_latency_ps, ps_from_ns(6600));
    EXPECT_EQ(library.costs(Protocol::kSimple).step_latency(LinkClass::kNet), ps_from_us(14));
  }
  // NCCL's network post overhead raises a multi-node ring's intra-node steps: 1 us on an
  // Intel host (LL), 2 us on an AMD one, tripled for Simple.
  EXPECT_EQ(load_topology_file(kTopologies + "h100-ib-cluster.textproto")
                .library()
                .costs(Protocol::kLL)
                .step_latency(LinkClass::kNvlink),
            ps_from_us(1));
  EXPECT_EQ(load_topology_file(kTopologies + "a100-ib-cluster.textproto")
                .library()
                .costs(Protocol::kSimple)
                .step_latency(LinkClass::kNvlink),
            ps_from_us(6));
  // Across nodes of 8 H100s NCCL_DEBUG=INFO counts 16 collective channels (nccl issues 1453,
  // 1357, 1752): the preset says so, the built-in multi-node profile does not know it; NVLS
  // keeps its own 16 either way. A 1 GiB ring AllGather runs on all 16, 32 KiB of LL on 1.
  const LibraryProfile cluster = load_topology_file(kTopologies + "h100-ib-cluster.textproto").library();
  EXPECT_EQ(cluster.collective_channels, 16u);
  EXPECT_EQ(library_by_name("nccl-hopper-multinode", "--library").collective_channels, 0u);
  EXPECT_EQ(cluster.call_channels(Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple, 16), 16u);
  EXPECT_EQ(cluster.call_channels(Bytes{32} << 10, AlgorithmKind::kRing, Protocol::kLL, 16), 1u);
  // Without peer access the pair pays PCIe steps, and has no LL128 (NCCL enables it only
  // over NVLink).
  const Topology pcie = load_topology_file(kTopologies + "pcie-2080ti-pair-no-p2p.textproto");
  EXPECT_EQ(pcie.library().costs(Protocol::kSimple).step_latency(LinkClass::kPcie), ps_from_ns(5700));
  EXPECT_THROW(pcie.library().costs(Protocol::kLL128), InputError);
  // The measured pair ran one process for both GPUs (-g 2), and so does its preset; so did
  // the published A100 node tables (-g 8), and so does the A100 node's preset. The H100
  // node's tables ran a process a GPU, as its preset does (no such bound).
  EXPECT_EQ(pcie.library().gpus_per_thread, 2u);
  EXPECT_EQ(load_topology_file(kTopologies + "a100-nvswitch-node.textproto").library().gpus_per_thread, 8u);
  EXPECT_EQ(load_topology_file(kTopologies + "h100-nvswitch-node.textproto").library().gpus_per_thread, 0u);
  for (const Link& l : pcie.links()) {
    EXPECT_EQ(l.params.duplex, Duplex::kHalf);
    EXPECT_EQ(l.params.both_ways_efficiency, 0.72);
  }
  for (const char* file : {"h100-2node-ib.textproto", "pcie-4gpu-box.textproto", "torus-4x4x4.textproto"}) {
    SCOPED_TRACE(file);
    EXPECT_TRUE(load_topology_file(kTopologies + file).library().ideal());
  }
}

TEST(SpecFile, ClusterPresetScalesToTenSingleGpuNodes) {
  // As the 10-node H100 measurements: --nodes 10 --gpus-per-node 1.
  SpecScale scale;
  scale.nodes = 10;
  scale.gpus_per_node = 1;
  const Topology t = load_topology_file(kTopologies + "h100-ib-cluster.textproto", scale);
  EXPECT_EQ(t.npu_count(), 10u);
  EXPECT_EQ(t.library().name, "nccl-hopper-multinode");
  double min_bw = 1e300;
  for (const Link& l : t.links()) min_bw = std::min(min_bw, l.params.bandwidth_Bps);
  EXPECT_DOUBLE_EQ(min_bw, 48.5e9);
  // Every GPU reaches every other through its NIC and the network switch.
  EXPECT_EQ(t.route_class(t.route(0, 9)), LinkClass::kNet);
}

TEST(SpecFile, ClusterPresetsAreScalableUnitsUnderASpine) {
  // The DGX SuperPOD's scalable units: 32 nodes (h100-ib-cluster, b200-ib-cluster), 20
  // (a100-ib-cluster). Two units are a leaf per rail each (16 leaves) joined by the spine;
  // one unit is its rail leaves alone (as the presets always were up to there).
  for (const auto& [file, unit] : std::vector<std::pair<std::string, std::uint32_t>>{
           {"h100-ib-cluster.textproto", 32}, {"b200-ib-cluster.textproto", 32}, {"a100-ib-cluster.textproto", 20}}) {
    SCOPED_TRACE(file);
    SpecScale scale;
    scale.nodes = 2 * unit;
    const Topology t = load_topology_file(kTopologies + file, scale);
    EXPECT_EQ(t.switch_count(), 2 * unit + 16u + 1u);
    EXPECT_NE(t.description().find(std::to_string(2 * unit) + " nodes x 8 GPUs, " + std::to_string(unit) +
                                   " nodes per leaf, rail-optimised"),
              std::string::npos);
    // GPU 0 of node 0 to GPU 0 of the unit's last node: its rail leaf; of the next unit's
    // first node: through the spine.
    EXPECT_EQ(t.route(0, (unit - 1) * 8).size(), 2u);
    const Route across = t.route(0, unit * 8);
    ASSERT_EQ(across.size(), 4u);
    EXPECT_EQ(t.vertex(t.channel_target(across[1])).name, "spine");
    // The spine is non-blocking: a leaf's uplink carries its unit's NICs of that rail.
    EXPECT_DOUBLE_EQ(t.link(link_of(across[1])).params.bandwidth_Bps,
                     unit * t.link(link_of(across[0])).params.bandwidth_Bps);
    scale.nodes = unit;
    EXPECT_EQ(load_topology_file(kTopologies + file, scale).switch_count(), unit + 8u);
  }
}

TEST(SpecFile, H100FileIsTheBuiltInDefault) {
  const Topology file = load_topology_file(kTopologies + "h100-nvswitch-node.textproto");
  const Topology builtin = build_topology(default_topology_config());
  EXPECT_EQ(file.name(), builtin.name());
  ASSERT_EQ(file.link_count(), builtin.link_count());
  for (LinkId l = 0; l < file.link_count(); ++l) {
    EXPECT_EQ(file.link(l).params.bandwidth_Bps, builtin.link(l).params.bandwidth_Bps);
    EXPECT_EQ(file.link(l).params.latency_ps, builtin.link(l).params.latency_ps);
    EXPECT_EQ(file.link(l).params.kind, builtin.link(l).params.kind);
  }
  EXPECT_EQ(file.library().name, builtin.library().name);
  EXPECT_EQ(file.library().protocols, builtin.library().protocols);
  EXPECT_EQ(file.library().collective_bandwidth, builtin.library().collective_bandwidth);
  EXPECT_DOUBLE_EQ(builtin.library().bandwidth_factor(CollectiveKind::kAllToAll), 0.96);
}

TEST(SpecFile, PcieBoxCrossesTheRootComplexBetweenSwitches) {
  const Topology t = load_topology_file(kTopologies + "pcie-4gpu-box.textproto");
  EXPECT_EQ(t.route(0, 1).size(), 2u);
  EXPECT_EQ(t.route(0, 2).size(), 4u);
}

TEST(SpecFile, SyntaxErrorNamesFileAndLine) {
  const std::string text = "name: \"x\"\nbuilder {\n  kind: RING\n  npus: 8 8\n}\n";
  const std::string error = error_of(text);
  EXPECT_CONTAINS(error, "spec.textproto");
  EXPECT_CONTAINS(error, "line 4");
}

TEST(SpecFile, UnknownFieldAndEnumAreErrors) {
  EXPECT_NE(error_of("name: \"x\" colour: 3").find("line 1"), std::string::npos);
  EXPECT_NE(error_of("name: \"x\"\nbuilder { kind: HYPERCUBE }").find("line 2"),
            std::string::npos);
}

TEST(SpecFile, LinkToAMissingVertexIsNamed) {
  const std::string text = R"(name: "x"
graph {
  vertices { name: "gpu0" }
  vertices { name: "gpu1" }
  links { a: "gpu0" b: "gpu9" link { bandwidth: "1GB/s" latency: "1us" } }
})";
  const std::string error = error_of(text);
  EXPECT_CONTAINS(error, "graph.links[0].b");
  EXPECT_CONTAINS(error, "'gpu9' does not exist");
}

TEST(SpecFile, BadValuesNameTheField) {
  const std::string zero_bw = R"(name: "x" builder { kind: RING npus: 4
    link { bandwidth: "0GB/s" latency: "1us" } })";
  EXPECT_NE(error_of(zero_bw).find("builder.link.bandwidth"), std::string::npos);
  const std::string no_latency = R"(name: "x" builder { kind: RING npus: 4
    link { bandwidth: "1GB/s" } })";
  EXPECT_NE(error_of(no_latency).find("builder.link.latency is missing"), std::string::npos);
  const std::string bad_dims = R"(name: "x" builder { kind: TORUS dims: "4x0"
    link { bandwidth: "1GB/s" latency: "1us" } })";
  EXPECT_NE(error_of(bad_dims).find("builder.dims"), std::string::npos);
  EXPECT_NE(error_of("name: \"x\"").find("builder { ... } or a graph"), std::string::npos);
  const std::string full_both_ways = R"(name: "x" builder { kind: RING npus: 4
    link { bandwidth: "1GB/s" latency: "1us" both_ways_efficiency: 0.5 } })";
  EXPECT_NE(error_of(full_both_ways).find("builder.link.both_ways_efficiency applies to half-duplex links only"),
            std::string::npos);
  const std::string above_one = R"(name: "x" builder { kind: RING npus: 4
    link { bandwidth: "1GB/s" latency: "1us" duplex: HALF both_ways_efficiency: 1.5 } })";
  EXPECT_NE(error_of(above_one).find("builder.link.both_ways_efficiency must be in (0, 1], got 1.5"),
            std::string::npos);
  const std::string disconnected = R"(name: "x" graph {
    vertices { name: "a" } vertices { name: "b" } })";
  EXPECT_NE(error_of(disconnected).find("not connected"), std::string::npos);
  const std::string duplicate = R"(name: "x" graph {
    vertices { name: "a" } vertices { name: "a" } })";
  EXPECT_NE(error_of(duplicate).find("used twice"), std::string::npos);
}

TEST(SpecFile, JsonThroughProtobufsMapping) {
  const std::string json = R"({"name": "ring4", "builder": {"kind": "RING", "npus": 4,
    "link": {"bandwidth": "100GB/s", "latency": "1us", "kind": "NVLINK"}}})";
  const Topology t = parse_topology_spec(json, "ring4.json", true);
  EXPECT_EQ(t.npu_count(), 4u);
  EXPECT_EQ(t.link_count(), 4u);
  EXPECT_NE(error_of("{\"name\": ", true).find("spec.textproto"), std::string::npos);
}

TEST(SpecFile, FieldsTheKindDoesNotUseAreErrors) {
  // As strict as the command line, which refuses --dims with --topology ring.
  const std::string link = R"( link { bandwidth: "1GB/s" latency: "1us" } )";
  EXPECT_NE(error_of("name: \"x\" builder { kind: RING npus: 4 dims: \"2x2\"" + link + "}")
                .find("spec.textproto: builder.dims does not apply to a ring builder (only to mesh, torus)"),
            std::string::npos);
  EXPECT_NE(error_of("name: \"x\" builder { kind: RING npus: 4 oversubscription: 2" + link + "}")
                .find("builder.oversubscription does not apply to a ring builder (only to tree, hierarchical)"),
            std::string::npos);
  EXPECT_NE(error_of("name: \"x\" builder { kind: SWITCH npus: 4 nic { bandwidth: \"1GB/s\" }" + link + "}")
                .find("builder.nic does not apply to a switch builder"),
            std::string::npos);
  EXPECT_CONTAINS(error_of("name: \"x\" builder { kind: SWITCH npus: 4 rails: true" + link + "}"),
                  "builder.rails does not apply to a switch builder (only to hierarchical)");
  EXPECT_NE(error_of("name: \"x\" builder { kind: TORUS dims: \"4x4\" npus: 16" + link + "}")
                .find("builder.npus does not apply to a torus builder"),
            std::string::npos);
}

TEST(SpecFile, ALinkGivenTwiceIsAnError) {
  // Routing takes one link per hop: a second link between the same vertices was counted by
  // `topo` but never carried a byte.
  const std::string text = R"(name: "x" graph {
    vertices { name: "a" } vertices { name: "b" }
    links { a: "a" b: "b" link { bandwidth: "1GB/s" latency: "1us" } }
    links { a: "b" b: "a" link { bandwidth: "1GB/s" latency: "1us" } } })";
  EXPECT_NE(error_of(text).find("graph.links[1]: 'b' and 'a' are already linked by graph.links[0]"),
            std::string::npos)
      << error_of(text);
}

TEST(SpecFile, JsonKeysGivenTwiceAreErrors) {
  // protobuf's JSON parser keeps the last of two equal keys; a spec must not say two things.
  const std::string twice = R"({"name": "ring4", "builder": {"kind": "RING", "npus": 4, "npus": 8,
    "link": {"bandwidth": "100GB/s", "latency": "1us"}}})";
  EXPECT_NE(error_of(twice, true).find("spec.textproto: key 'npus' is given twice in 'builder'"),
            std::string::npos)
      << error_of(twice, true);
  const std::string top = R"({"name": "a", "name": "b", "builder": {"kind": "RING", "npus": 4,
    "link": {"bandwidth": "100GB/s", "latency": "1us"}}})";
  EXPECT_NE(error_of(top, true).find("key 'name' is given twice in the top-level object"), std::string::npos);
  const std::string in_array = R"({"name": "g", "graph": {"vertices": [{"name": "a", "name": "b"}]}})";
  EXPECT_NE(error_of(in_array, true).find("key 'name' is given twice in 'graph.vertices[]'"), std::string::npos)
      << error_of(in_array, true);
}

// Three GPUs on a host bridge; `pairs` is what graph.no_peer_access lists.
std::string peer_spec(const std::string& pairs) {
  return R"(name: "x" graph {
    vertices { name: "gpu0" } vertices { name: "gpu1" } vertices { name: "gpu2" }
    vertices { name: "host" kind: SWITCH host_memory: true }
    links { a: "gpu0" b: "host" link { bandwidth: "24GB/s" latency: "150ns" kind: PCIE } }
    links { a: "gpu1" b: "host" link { bandwidth: "24GB/s" latency: "150ns" kind: PCIE } }
    links { a: "gpu2" b: "host" link { bandwidth: "24GB/s" latency: "150ns" kind: PCIE } } )" +
         pairs + " }";
}

TEST(SpecFile, PeerAccessIsEveryPairButThoseListed) {
  const Topology all = parse_topology_spec(peer_spec(""), "spec.textproto", false);
  EXPECT_TRUE(all.peer_access(0, 2));
  EXPECT_TRUE(all.no_peer_access().empty());
  const Topology some = parse_topology_spec(peer_spec(R"(no_peer_access { a: "gpu2" b: "gpu0" })"), "spec.textproto", false);
  EXPECT_FALSE(some.peer_access(0, 2));
  EXPECT_FALSE(some.peer_access(2, 0));
  EXPECT_TRUE(some.peer_access(0, 1));
  EXPECT_TRUE(some.peer_access(2, 2));
  EXPECT_EQ(some.no_peer_access(), (std::vector<std::pair<Rank, Rank>>{{0, 2}}));
  // Built topologies have peer access everywhere.
  EXPECT_TRUE(load_topology_file(kTopologies + "pcie-4gpu-box.textproto").no_peer_access().empty());
}

TEST(SpecFile, PeerPairsNameTwoDistinctNpusOnce) {
  EXPECT_EQ(error_of(peer_spec(R"(no_peer_access { a: "gpu0" b: "gpu9" })")),
            "spec.textproto: graph.no_peer_access[0].b: vertex 'gpu9' does not exist");
  EXPECT_EQ(error_of(peer_spec(R"(no_peer_access { a: "host" b: "gpu1" })")),
            "spec.textproto: graph.no_peer_access[0].a: 'host' is a switch, not an NPU");
  EXPECT_EQ(error_of(peer_spec(R"(no_peer_access { a: "gpu1" b: "gpu1" })")),
            "spec.textproto: graph.no_peer_access[0]: pairs NPU 'gpu1' with itself");
  EXPECT_EQ(error_of(peer_spec(R"(no_peer_access { a: "gpu0" b: "gpu1" } no_peer_access { a: "gpu1" b: "gpu0" })")),
            "spec.textproto: graph.no_peer_access[1]: 'gpu1' and 'gpu0' are already given in graph.no_peer_access[0]");
}

// Two GPUs under one PCIe switch, whose uplink goes to the CPU and its memory.
std::string switch_spec(const std::string& cpu_traits, const std::string& pairs) {
  return R"(name: "x" graph {
    vertices { name: "gpu0" } vertices { name: "gpu1" }
    vertices { name: "plx" kind: SWITCH } vertices { name: "cpu" kind: SWITCH )" + cpu_traits + R"( }
    links { a: "gpu0" b: "plx" link { bandwidth: "16GB/s" latency: "100ns" kind: PCIE } }
    links { a: "gpu1" b: "plx" link { bandwidth: "16GB/s" latency: "100ns" kind: PCIE } }
    links { a: "plx" b: "cpu" link { bandwidth: "16GB/s" latency: "100ns" kind: PCIE } } )" +
         pairs + " }";
}

TEST(SpecFile, PairsWithoutPeerAccessMeetInHostMemory) {
  // With peer access gpu0 -> plx -> gpu1; without it the data goes up to the CPU's memory and
  // back down: gpu0 -> plx -> cpu -> plx -> gpu1, crossing the uplink both ways.
  const Topology direct = parse_topology_spec(switch_spec("host_memory: true", ""), "spec.textproto", false);
  EXPECT_EQ(direct.route(0, 1), (Route{0, 3}));  // link 0 up, link 1 down
  const Topology staged = parse_topology_spec(
      switch_spec("host_memory: true", R"(no_peer_access { a: "gpu0" b: "gpu1" })"), "spec.textproto", false);
  EXPECT_EQ(staged.route(0, 1), (Route{0, 4, 5, 3}));
  EXPECT_EQ(staged.route(1, 0), (Route{2, 4, 5, 1}));
  EXPECT_EQ(error_of(switch_spec("", R"(no_peer_access { a: "gpu0" b: "gpu1" })")),
            "spec.textproto: pairs without peer access need a host_memory vertex to exchange data through");
  EXPECT_EQ(error_of(R"(name: "x" graph { vertices { name: "gpu0" host_memory: true } })"),
            "spec.textproto: graph.vertices[0].host_memory: only a switch (a CPU's root complex) has it, and "
            "'gpu0' is an NPU");
}

TEST(SpecFile, MissingFileIsAnInputError) {
  EXPECT_THROW(load_topology_file("/nonexistent/topology.textproto"), InputError);
}

}  // namespace
}  // namespace commsim
