#include "model/p2p_model.h"

#include <gtest/gtest.h>

#include "topology/builders.h"

namespace commsim {
namespace {

TEST(P2pModel, AlphaBetaOverTheRoute) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 2;
  const Topology t = build_topology(c);  // NVLink 450 GB/s 250 ns; NIC 50 GB/s 1 us
  const PathParams intra = path_params(t, 0, 1);
  EXPECT_EQ(intra.hops, 2u);
  EXPECT_EQ(intra.latency_ps, ps_from_ns(500));
  EXPECT_DOUBLE_EQ(intra.bottleneck_Bps, 450e9);
  const PathParams inter = path_params(t, 0, 3);
  EXPECT_EQ(inter.latency_ps, ps_from_us(2));
  EXPECT_DOUBLE_EQ(inter.bottleneck_Bps, 50e9);
  // T = 5 us + 2 us + 1e9 B / 50e9 B/s = 20.007 ms.
  EXPECT_DOUBLE_EQ(p2p_time_s(inter, 5e-6, 1'000'000'000), 5e-6 + 2e-6 + 0.02);
  EXPECT_DOUBLE_EQ(p2p_time_s(path_params(t, 2, 2), 5e-6, 1 << 20), 5e-6);
}

TEST(P2pModel, ASendRunsOnItsRoutesP2pChannels) {
  // Hopper's P2P channels among 4 ranks: inside a node 32 halved while x 4 ranks exceeds 32,
  // so 8, doubled while a channel would carry more than 16 MiB, to at most 32 (1 GiB: 32);
  // to a peer across nodes 4 (one 400 Gb/s NIC: ceil(50 / 14)) from 256 KiB up. The ideal
  // library has none.
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 2;
  const Topology t = build_topology(c);
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  EXPECT_EQ(p2p_send_channels(t, 0, 1, 1 << 20, nccl), 8u);
  EXPECT_EQ(p2p_send_channels(t, 0, 3, 1 << 20, nccl), 4u);
  EXPECT_EQ(p2p_send_channels(t, 0, 3, 128 << 10, nccl), 2u);
  EXPECT_EQ(p2p_send_channels(t, 0, 1, Bytes{1} << 30, nccl), 32u);
  EXPECT_EQ(p2p_send_channels(t, 0, 3, Bytes{1} << 30, nccl), 4u);
  EXPECT_EQ(p2p_send_channels(t, 0, 1, 1 << 20, LibraryProfile{}), std::nullopt);
}

}  // namespace
}  // namespace commsim
