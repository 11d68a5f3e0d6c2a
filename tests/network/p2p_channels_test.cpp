// A send to a peer spreads over the library's P2P channels (NCCL's calcP2pChannelCount),
// each moving at most its rate: the simulator and the closed form apply the same cap.

#include <gtest/gtest.h>

#include "model/p2p_model.h"
#include "network/concurrent_messages.h"
#include "topology/builders.h"
#include "topology/library.h"

namespace commsim {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;
const double kInf = std::numeric_limits<double>::infinity();

TEST(P2pChannels, DoubleWhileAChannelWouldCarryMoreThanItsShare) {
  // Among 8 ranks 4 channels to start (32 halved while x 8 exceeds 32), fewer while a
  // channel would carry less than 64 KiB, at most 16 MiB each, up to 32: 64 KiB runs on 1,
  // 64 KiB + 1 on 2, 256 KiB on 4, 64 MiB on 4 (16 each), 64 MiB + 1 on 8, 1 GiB would need
  // 64 and stops at 32. Across nodes: 4 per peer, fewer below 64 KiB a channel, and a send
  // to a network peer at most 25 GB/s: 4 x 7.6 = 30.4 GB/s is held to it, 2 x 7.6 is not.
  const P2pChannels c{1, 32, 16 * kMiB, 4, {20e9, kInf, 7.6e9}, 16 << 10, 32, 64 << 10, 25e9};
  EXPECT_EQ(c.channels(1, LinkClass::kNvlink, 8), 1u);
  EXPECT_EQ(c.channels(64 << 10, LinkClass::kNvlink, 8), 1u);
  EXPECT_EQ(c.channels((64 << 10) + 1, LinkClass::kNvlink, 8), 2u);
  EXPECT_EQ(c.channels(256 << 10, LinkClass::kNvlink, 8), 4u);
  EXPECT_EQ(c.channels(64 * kMiB, LinkClass::kNvlink, 8), 4u);
  EXPECT_EQ(c.channels(64 * kMiB + 1, LinkClass::kNvlink, 8), 8u);
  EXPECT_EQ(c.channels(256 * kMiB, LinkClass::kNvlink, 8), 16u);
  EXPECT_EQ(c.channels(1024 * kMiB, LinkClass::kNvlink, 8), 32u);
  EXPECT_EQ(c.channels(1024 * kMiB, LinkClass::kNet, 8), 4u);
  EXPECT_EQ(c.channels(128 << 10, LinkClass::kNet, 8), 2u);
  EXPECT_DOUBLE_EQ(c.rate_cap(128 * kMiB, LinkClass::kNvlink, 8), 160e9);
  EXPECT_DOUBLE_EQ(c.rate_cap(128 * kMiB, LinkClass::kNet, 8), 25e9);
  EXPECT_DOUBLE_EQ(c.rate_cap(128 << 10, LinkClass::kNet, 8), 15.2e9);
  EXPECT_DOUBLE_EQ(c.rate_cap(64 << 10, LinkClass::kNet, 8), 7.6e9);
  // The cap is the network's alone: 8 NVLink channels move 160 GB/s.
  EXPECT_EQ(c.rate_cap(128 * kMiB, LinkClass::kPcie, 8), kInf);
  // LL while each channel carries at most 16 KiB: 16 KiB on 1 channel, not 16 KiB + 1; and
  // since a channel carries at least 64 KiB before another is added, nothing larger.
  EXPECT_TRUE(c.runs_ll(16 << 10, LinkClass::kNvlink, 8));
  EXPECT_FALSE(c.runs_ll((16 << 10) + 1, LinkClass::kNvlink, 8));
  EXPECT_FALSE(c.runs_ll(128 << 10, LinkClass::kNvlink, 8));
  // Never to a peer in another node: NCCL's network P2P connections have no LL buffer.
  EXPECT_FALSE(c.runs_ll(8, LinkClass::kNet, 8));
  // The built-in nccl profile has these; the ideal one none.
  EXPECT_EQ(*library_by_name("nccl", "x").p2p, c);
  EXPECT_EQ(LibraryProfile{}.p2p_rate_cap(kMiB, LinkClass::kNvlink, 8), kInf);
}

TEST(P2pChannels, SimulatorAndClosedFormCapASendAtItsChannelsRate) {
  // 8 GPUs on a 400 GB/s switch, Simple costs, a ring of sends (nccl-tests sendrecv):
  // 128 MiB on 8 channels of 20 GB/s = 160 GB/s, below the link:
  //   T = 8.4 us call + 3.4 us step + 2 x 250 ns + 128 MiB / 160 GB/s.
  TopologyConfig config;
  config.link.bandwidth_Bps = 400e9;
  const Topology node = build_topology(config);
  const LibraryProfile nccl = library_by_name("nccl", "x");
  const ProtocolCosts simple = nccl.costs(Protocol::kSimple);
  std::vector<Message> ring;
  for (Rank r = 0; r < 8; ++r) ring.push_back({r, (r + 1) % 8, 128 * kMiB});
  const double expected = 12.3e-6 + 128.0 * kMiB / 160e9;
  const std::vector<TimePs> arrival = simulate_concurrent_messages(node, 0, ring, simple, nccl.p2p);
  for (const TimePs t : arrival) EXPECT_NEAR(seconds_from_ps(t), expected, 1e-12);
  const PathParams path = path_params(node, 0, 1);
  EXPECT_NEAR(p2p_time_s(path, 0, 128 * kMiB, simple, nccl.p2p_rate_cap(128 * kMiB, path.link_class, 8)), expected,
              1e-15);
  // 1 GiB on 32 channels (640 GB/s) is held by the link instead: 400 GB/s.
  ring.assign(1, {0, 1, 1024 * kMiB});
  EXPECT_NEAR(seconds_from_ps(simulate_concurrent_messages(node, 0, ring, simple, nccl.p2p)[0]),
              12.3e-6 + 1024.0 * kMiB / 400e9, 1e-12);
}

}  // namespace
}  // namespace commsim
