// Every bad input gets "commsim: error: <what, where, which value>" and exit status 2.

#include <gtest/gtest.h>

#include "run_cli.h"

namespace commsim::testing {
namespace {

TEST(CliErrors, CommandsAndOptions) {
  expect_error({"frobnicate"}, "unknown command 'frobnicate'");
  expect_error({"p2p", "--bogus"}, "unrecognised option '--bogus'");
  expect_error({"p2p", "stray"}, "unexpected argument 'stray'");
  expect_error({"p2p", "--size"}, "--size");
}

TEST(CliErrors, NoCommand) {
  const CliResult r = run_commsim({});
  EXPECT_EQ(r.status, 2);
  EXPECT_CONTAINS(r.err, "commsim: error: no command given");
}

TEST(CliErrors, TopologyOptions) {
  expect_error({"topo", "--topology", "hypercube"}, "unknown topology kind 'hypercube'");
  expect_error({"topo", "--topology", "ring", "--bandwidth", "0GB/s"},
               "--bandwidth: bandwidth must be positive, got '0GB/s'");
  expect_error({"topo", "--topology", "ring", "--bandwidth", "-5GB/s"},
               "--bandwidth: bandwidth must be positive, got '-5GB/s'");
  expect_error({"topo", "--topology", "ring", "--bandwidth", "fast"}, "--bandwidth: cannot parse 'fast'");
  expect_error({"topo", "--topology", "mesh", "--dims", "4x0"}, "--dims: '4x0' has a dimension of size 0");
  expect_error({"topo", "--topology", "torus"}, "needs --dims");
  expect_error({"topo", "--topology", "ring", "--dims", "4x4"}, "--dims does not apply to --topology ring");
  expect_error({"topo", "--npus", "4"}, "--npus needs --topology KIND");
  expect_error({"topo", "--topology", "ring", "--npus", "-4"}, "--npus: expected a whole number, got '-4'");
  expect_error({"topo", "--topology", "ring", "--npus", "0"}, "--npus: '0' is out of range");
  expect_error({"topo", "--topology", "ring", "--latency", "5"}, "--latency: time needs a unit: '5'");
  expect_error({"topo", "--topology", "ring", "--duplex", "quarter"}, "--duplex: expected full or half, got 'quarter'");
  expect_error({"topo", "--topology", "tree", "--oversubscription", "0"}, "--oversubscription: ratio must be positive");
  expect_error({"topo", "--topology", "ring", "--link-kind", "carrier-pigeon"}, "unknown link kind 'carrier-pigeon'");
  expect_error({"topo", "--topology", "ring", "--topology-file", "x"}, "either --topology-file or --topology");
  expect_error({"topo", "--topology", "ring", "--nvls"}, "--nvls does not apply to --topology ring (only to switch, hierarchical)");
  expect_error({"topo", "--topology", "switch", "--rails"},
               "--rails does not apply to --topology switch (only to hierarchical)");
  expect_error({"topo", "--topology-file", source_path("topologies/h100-ib-cluster.textproto"), "--rails"},
               "--rails needs --topology KIND");
  expect_error({"collective", "--topology", "switch", "--algorithm", "nvls"},
               "algorithm 'nvls': topology 'switch-8' has no switch that reduces");
  expect_error({"collective", "--algorithm", "nvls", "--protocol", "ll"}, "algorithm 'nvls' runs the simple protocol only, not ll");
  expect_error({"collective", "--algorithm", "nvls-tree"}, "nvls-tree joins several (use nvls)");
  expect_error({"collective", "--algorithm", "nvls", "--collective", "allgather"},
               "algorithm 'nvls' does not implement allgather (it implements allreduce)");
  expect_error({"collective", "--topology", "switch", "--nvls", "--algorithm", "nvls", "--library", "ideal", "--protocol", "ll"},
               "--protocol");
}

TEST(CliErrors, SpecFiles) {
  expect_error({"topo", "--topology-file", "/nonexistent.textproto"},
               "/nonexistent.textproto: cannot open topology file");

  const std::string syntax = tmp_path("bad_syntax.textproto");
  write_file(syntax, "name: \"broken\"\nbuilder { kind: RING npus: }\n");
  expect_error({"topo", "--topology-file", syntax}, syntax + ": line 2");

  const std::string missing_vertex = tmp_path("missing_vertex.textproto");
  write_file(missing_vertex, R"(name: "x"
graph {
  vertices { name: "gpu0" }
  links { a: "gpu0" b: "nvswitch" link { bandwidth: "1GB/s" latency: "1us" } }
})");
  expect_error({"topo", "--topology-file", missing_vertex},
               missing_vertex + ": graph.links[0].b: vertex 'nvswitch' does not exist");

  const std::string zero_bw = tmp_path("zero_bandwidth.textproto");
  write_file(zero_bw, R"(name: "x" builder { kind: SWITCH npus: 4 link { bandwidth: "0Gbps" latency: "1us" } })");
  expect_error({"topo", "--topology-file", zero_bw}, zero_bw + ": builder.link.bandwidth");

  // A node spec scales to its GPUs, not to more nodes.
  const std::string node = source_path("topologies/h100-nvswitch-node.textproto");
  expect_error({"collective", "--topology-file", node, "--nodes", "2"},
               node + ": a switch builder spec is one node, not 2");
  expect_error({"collective", "--topology-file", node, "--gpus-per-node", "0"}, "--gpus-per-node");
  expect_error({"collective", "--topology-file", node, "--npus", "4", "--gpus-per-node", "4"},
               "--npus and --gpus-per-node both give a one-node spec's GPUs: give one of them");
  // A cluster spec's --npus is its GPUs in all: whole nodes, and as many as --nodes says.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  expect_error({"collective", "--topology-file", cluster, "--npus", "84"},
               "--npus 84 is not whole nodes of 8 GPUs (cluster spec " + cluster +
                   "): give --nodes N, or --gpus-per-node G that divides it");
  expect_error({"collective", "--topology-file", cluster, "--npus", "16", "--gpus-per-node", "3"},
               "--npus 16 is not whole nodes of 3 GPUs");
  expect_error({"collective", "--topology-file", cluster, "--npus", "80", "--nodes", "8"},
               "--npus 80 is 10 nodes of 8 GPUs, not --nodes 8");
  expect_error({"collective", "--topology-file", cluster, "--npus", "0"}, "--npus");
  // A torus spec does not scale.
  expect_error({"collective", "--topology-file", source_path("topologies/torus-4x4x4.textproto"), "--npus", "16"},
               "--npus needs --topology KIND (a spec file gives its own parameters; --nodes N and "
               "--gpus-per-node G, or --npus N, scale a cluster spec, --gpus-per-node G a one-node one)");
}

TEST(CliErrors, P2pOptions) {
  expect_error({"p2p", "--src", "8"},
               "--src 8 is out of range: topology 'h100-nvswitch-node' has 8 NPUs (ranks 0-7)");
  expect_error({"p2p", "--dst", "100"}, "--dst 100 is out of range");
  expect_error({"p2p", "--src", "3", "--dst", "3"}, "--src and --dst are both 3");
  expect_error({"p2p", "--sizes", "1G:1K"}, "--sizes: MIN is larger than MAX in '1G:1K'");
  expect_error({"p2p", "--sizes", "0:1K"}, "MIN must be at least 1 byte");
  expect_error({"p2p", "--sizes", "1K"}, "--sizes: expected MIN:MAX");
  expect_error({"p2p", "--size", "12Q"}, "--size: unknown size unit in '12Q'");
  expect_error({"p2p", "--size", "1K", "--sizes", "1:2"}, "either --size or --sizes");
  expect_error({"p2p", "--pattern", "zigzag"}, "--pattern: unknown pattern 'zigzag'");
  expect_error({"p2p", "--pattern", "shift:8"}, "every rank would send to itself on 8 NPUs");
  expect_error({"p2p", "--pattern", "shift:x"}, "--pattern shift:K: expected a whole number");
  expect_error({"p2p", "--pattern", "all-pairs", "--src", "1"}, "--src and --dst do not apply");
  expect_error({"p2p", "--overhead", "-1us"}, "--overhead: time must not be negative");
  expect_error({"p2p", "--size", "1K", "--csv", "/nonexistent/dir/out.csv"},
               "cannot write /nonexistent/dir/out.csv: No such file or directory");
}

}  // namespace
}  // namespace commsim::testing
