// The protocol a library's P2P runs a pattern with.

#include "study/p2p_study.h"

#include <gtest/gtest.h>

#include "topology/builders.h"

namespace commsim {
namespace {

TEST(P2pProtocol, NcclRunsLLUnderItsThresholdPerChannelElseSimple) {
  // nccl: 2 channels inside a node, LL while each carries at most 16 KiB (NCCL_P2P_LL_THRESHOLD):
  // a 32 KiB send is LL, 32 KiB + 1 is Simple, though LL would be faster by the closed form
  // there (its lower latency, and the 80 GB/s of 2 channels binding either way).
  const Topology node = build_topology(default_topology_config());
  const LibraryProfile nccl = library_by_name("nccl", "test");
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 32 << 10), 0, nccl), Protocol::kLL);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, (32 << 10) + 1), 0, nccl), Protocol::kSimple);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, nccl), Protocol::kSimple);
  // Without a threshold, the least closed-form time: LL at 64 MiB (both capped at 80 GB/s).
  LibraryProfile by_time = nccl;
  by_time.p2p->ll_max_bytes_per_channel = 0;
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, by_time), Protocol::kLL);
  EXPECT_EQ(p2p_protocol(node, sendrecv_ring(node, 64 << 20), 0, LibraryProfile{}), std::nullopt);
}

}  // namespace
}  // namespace commsim
