#include "collective/footprint.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "topology/builders.h"

namespace commsim {
namespace {

Topology switch_of(std::uint32_t npus) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = npus;
  return build_topology(c);
}

TEST(Footprint, RingAllReduceCountsEveryMessage) {
  // Ring AllReduce on p ranks: every rank sends once in each of 2(p-1) steps, per chunk.
  const Topology t = switch_of(8);
  const auto ring = make_schedule(CollectiveKind::kAllReduce, AlgorithmKind::kRing, t, 0);
  const CollectiveFootprint f = estimate_footprint(*ring, 4);
  EXPECT_DOUBLE_EQ(f.messages, 8.0 * 14 * 4);
  EXPECT_DOUBLE_EQ(f.peak_flows, 8.0 * 4);  // 4 chunks in flight on each rank's ring
  EXPECT_DOUBLE_EQ(f.lanes, 8.0 * 4);
  // And the simulator sends exactly that many.
  CollectiveConfig config;
  config.chunks = 4;
  EXPECT_EQ(simulate_collective(t, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1 << 20, config).messages,
            8u * 14 * 4);
}

TEST(Footprint, DirectAllToAllIsQuadratic) {
  const Topology t = switch_of(64);
  const auto direct = make_schedule(CollectiveKind::kAllToAll, AlgorithmKind::kDirect, t, 0);
  const CollectiveFootprint f = estimate_footprint(*direct, 1);
  EXPECT_DOUBLE_EQ(f.messages, 64.0 * 63);
  EXPECT_DOUBLE_EQ(f.peak_flows, 64.0 * 63);
}

TEST(Footprint, RunsBeyondTheLimitsAreRefusedWithTheEstimate) {
  // 4,096 ranks all-to-all: 4096 x 4095 = 1.68e7 flows at once, ~10 GB.
  const Topology big = switch_of(4096);
  CollectiveConfig config;
  try {
    check_collective_footprint(big, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, config);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("direct alltoall on 4096 ranks with 1 chunk needs about 10.1 GB of "
                                         "memory (1.68e+07 messages in flight); the limit is 8.59 GB"),
              std::string::npos)
        << e.what();
  }
  // Half the ranks, a quarter of the flows: within the limit.
  EXPECT_NO_THROW(
      check_collective_footprint(switch_of(2048), CollectiveKind::kAllToAll, AlgorithmKind::kDirect, config));
  // 2^20 chunks of a ring AllReduce on 8 ranks: 8 x 14 x 2^20 = 1.2e8 messages, in range;
  // on 1,024 ranks 2^20 chunks would keep 2 million flows and 2^30 lanes.
  config.chunks = 1 << 20;
  EXPECT_THROW(check_collective_footprint(switch_of(1024), CollectiveKind::kAllReduce, AlgorithmKind::kRing,
                                          config),
               InputError);
}

TEST(Footprint, LanesAloneAreCheckedBeforeASchedule) {
  // 64 x 2^26 = 2^32 lanes of 64 B: 275 GB, refused; 64 x 1024 lanes: 4 MB, passes.
  EXPECT_NO_THROW(check_lanes(64, 1024, 1, "ring allreduce on 64 ranks in 1024 rings"));
  try {
    check_lanes(64, std::size_t{1} << 26, 1, "ring allreduce on 64 ranks in 67108864 rings");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "ring allreduce on 64 ranks in 67108864 rings with 1 chunk needs about 275 GB of memory (4.29e+09 rank "
              "x channel x chunk programs); the limit is 8.59 GB");
  }
}

}  // namespace
}  // namespace commsim
