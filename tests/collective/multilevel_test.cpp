// Hierarchical and dimensional collectives: hand-derived times on idle topologies.

#include <gtest/gtest.h>

#include "base/error.h"
#include "collective/simulate.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = 1 << 20;

// 2 nodes x 4 GPUs: NVSwitch links 100 GB/s (10 ps/B), 250 ns; NICs 25 GB/s (40 ps/B), 1 us.
Topology two_nodes() {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  c.link = {100e9, ps_from_ns(250), LinkKind::kNvlink, Duplex::kFull};
  c.nic = {25e9, ps_from_us(1), LinkKind::kInfiniband, Duplex::kFull};
  return build_topology(c);
}

TEST(Hierarchical, AllReduceIsIntraRingInterRingIntraRing) {
  // n = 8 MiB. Intra-node ReduceScatter: 3 ring steps of n/4 = 2 MiB through the NVSwitch,
  //   each 2 x 250 ns + 2 MiB x 10 ps = 21,471,520 ps (every GPU on its own links).
  // Inter-node AllReduce among same-index GPUs on their 2 MiB shard: a ring of 2, so one
  //   ReduceScatter and one AllGather step of 1 MiB over the NICs: 2 us + 1 MiB x 40 ps
  //   = 43,943,040 ps each (each GPU has its own NIC).
  // Intra-node AllGather: 3 more steps of 21,471,520 ps.
  const CollectiveResult r = simulate_collective(two_nodes(), CollectiveKind::kAllReduce,
                                                 AlgorithmKind::kHierarchical, 8 * kMiB, {});
  EXPECT_EQ(r.time_ps, 6 * 21'471'520 + 2 * 43'943'040);
}

TEST(Hierarchical, BroadcastCrossesNodesThenChainsInside) {
  // Root 0 sends 1 MiB to GPU 0 of node 1 (2 us + 1 MiB x 40 ps = 43,943,040 ps); then both
  // nodes chain 0 -> 1 -> 2 -> 3 inside: 3 x (500 ns + 1 MiB x 10 ps) = 32,957,280 ps.
  const CollectiveResult r = simulate_collective(two_nodes(), CollectiveKind::kBroadcast,
                                                 AlgorithmKind::kHierarchical, kMiB, {});
  EXPECT_EQ(r.time_ps, 43'943'040 + 32'957'280);
}

TEST(Dimensional, TorusAllReduceUsesBothDirectionsOfEachDimension) {
  // 4x4 torus, 50 GB/s (20 ps/B), 300 ns links; n = 16 MiB split over two rings per
  // dimension going opposite ways, so every step sends two messages on two different links.
  // x (size 4): ReduceScatter 3 steps of n/4/2 = 2 MiB: 300 ns + 2 MiB x 20 ps = 42,243,040 ps.
  // y (size 4): on the n/4 shard, 3 steps of n/16/2 = 512 KiB: 300 ns + 512 KiB x 20 ps =
  //   10,785,760 ps. The AllGather retraces both: total 2 x 3 x (42,243,040 + 10,785,760).
  TopologyConfig c;
  c.kind = TopologyKind::kTorus;
  c.dims = {4, 4};
  c.link = {50e9, ps_from_ns(300), LinkKind::kOther, Duplex::kFull};
  const CollectiveResult r = simulate_collective(build_topology(c), CollectiveKind::kAllReduce,
                                                 AlgorithmKind::kDimensional, 16 * kMiB, {});
  EXPECT_EQ(r.time_ps, 6 * (42'243'040 + 10'785'760));
}

TEST(Dimensional, MeshRingsAreCorrectButTheirWrapMessageCrossesTheLine) {
  // On a 3x3 mesh a ring along a row sends its wrap-around message back across the row,
  // sharing a link with the forward messages: slower than on a torus, still correct.
  TopologyConfig c;
  c.kind = TopologyKind::kMesh;
  c.dims = {3, 3};
  CollectiveConfig config;
  config.verify = true;
  const Topology mesh = build_topology(c);
  const CollectiveResult on_mesh = simulate_collective(mesh, CollectiveKind::kAllReduce,
                                                       AlgorithmKind::kDimensional, 9 * kMiB, config);
  EXPECT_EQ(on_mesh.verify_error, "");
  c.kind = TopologyKind::kTorus;
  const CollectiveResult on_torus = simulate_collective(build_topology(c), CollectiveKind::kAllReduce,
                                                        AlgorithmKind::kDimensional, 9 * kMiB, {});
  EXPECT_GT(on_mesh.time_ps, on_torus.time_ps);
}

TEST(Multilevel, NeedsTheMatchingTopology) {
  TopologyConfig c;  // an 8-NPU switch
  const Topology sw = build_topology(c);
  EXPECT_THROW(simulate_collective(sw, CollectiveKind::kAllReduce, AlgorithmKind::kDimensional, kMiB, {}),
               InputError);
  EXPECT_THROW(simulate_collective(sw, CollectiveKind::kAllReduce, AlgorithmKind::kHierarchical, kMiB, {}),
               InputError);
}

}  // namespace
}  // namespace commsim
