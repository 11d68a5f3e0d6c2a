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

}  // namespace
}  // namespace commsim
