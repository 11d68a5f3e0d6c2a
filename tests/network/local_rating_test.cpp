// Local rating (network/local_rating.cpp) against rating the whole component: the same
// arrivals, to rounding, on random traffic over every kind of contention, for less work.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "network/network.h"
#include "topology/builders.h"

namespace commsim {
namespace {

struct TrafficRun {
  std::vector<TimePs> arrivals;
  std::uint64_t evaluations = 0;
  std::uint64_t local_ratings = 0;
};

// 400 messages between random NPUs of 1 KiB to 4 MiB, a quarter capped at 5-40 GB/s, sent
// at random times in the first 50 us; each arrival of the first 200 sends a follow-up from
// its destination (so rates change at many instants, as in a pipeline).
TrafficRun random_traffic(const Topology& t, std::size_t local_rating_min_flows, unsigned seed) {
  Engine engine;
  Network network(engine, t);
  network.set_local_rating_min_flows(local_rating_min_flows);
  std::mt19937 rng(seed);
  const auto npu = [&] { return static_cast<Rank>(rng() % t.npu_count()); };
  const auto bytes = [&] { return Bytes{1024} << (rng() % 13); };
  const auto options = [&] { return rng() % 4 == 0 ? SendOptions{5e9 * (1 + rng() % 8)} : SendOptions{}; };
  constexpr std::size_t kMessages = 400;
  TrafficRun run;
  run.arrivals.assign(kMessages + kMessages / 2, -1);
  for (std::size_t m = 0; m < kMessages; ++m) {
    const Rank src = npu();
    const Rank dst = npu();
    const Bytes size = bytes();
    const SendOptions first = options();
    const Rank next = npu();
    const Bytes next_size = bytes();
    engine.schedule_at(static_cast<TimePs>(rng() % 50'000'000), [&, m, src, dst, size, first, next, next_size] {
      network.send(
          src, dst, size,
          [&, m, dst, next, next_size] {
            run.arrivals[m] = engine.now();
            if (m >= kMessages / 2) return;
            network.send(dst, next, next_size, [&, m] { run.arrivals[kMessages + m] = engine.now(); });
          },
          first);
    });
  }
  engine.run();
  run.evaluations = network.flow_rate_evaluations();
  run.local_ratings = network.local_ratings();
  return run;
}

std::vector<TopologyConfig> contended_kinds() {
  const LinkParams link{50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull};
  const LinkParams nic{25e9, ps_from_ns(700), LinkKind::kInfiniband, Duplex::kFull};
  std::vector<TopologyConfig> configs(5);
  for (TopologyConfig& c : configs) {
    c.link = link;
    c.nic = nic;
  }
  configs[0].kind = TopologyKind::kSwitch;
  configs[0].npus = 32;
  configs[1].kind = TopologyKind::kTree;  // leaf uplinks 2 x 50 / 8 = 12.5 GB/s
  configs[1].npus = 32;
  configs[1].oversubscription = {8};
  configs[2].kind = TopologyKind::kHierarchical;
  configs[2].nodes = 8;
  configs[2].gpus_per_node = 4;
  configs[3].kind = TopologyKind::kTorus;  // half-duplex links, 0.8 of the link both ways
  configs[3].dims = {4, 8};
  configs[3].link.duplex = Duplex::kHalf;
  configs[4].kind = TopologyKind::kMesh;
  configs[4].dims = {4, 8};
  return configs;
}

TEST(LocalRating, ArrivesAsRatingTheWholeComponentDoesOnRandomTraffic) {
  for (const TopologyConfig& config : contended_kinds()) {
    Topology t = build_topology(config);
    if (config.link.duplex == Duplex::kHalf) t.set_both_ways_efficiency(0.8);
    for (const unsigned seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(t.name() + " seed " + std::to_string(seed));
      const TrafficRun whole = random_traffic(t, std::numeric_limits<std::size_t>::max(), seed);
      const TrafficRun local = random_traffic(t, 0, seed);
      EXPECT_EQ(whole.local_ratings, 0u);
      EXPECT_GT(local.local_ratings, 0u);
      EXPECT_LT(local.evaluations, whole.evaluations);  // the point of it
      ASSERT_EQ(local.arrivals.size(), whole.arrivals.size());
      for (std::size_t m = 0; m < whole.arrivals.size(); ++m) {
        ASSERT_GT(whole.arrivals[m], 0) << "message " << m << " never arrived";
        // Rates equal to rounding. Each rate change rounds a due time to the picosecond, and
        // the two ways advance a flow's bytes over different instants: 99% of arrivals are
        // equal, the rest within 4 ps; a rate off by 1e-6 would move one by ~100 ps.
        const double slack = std::max(8.0, 1e-9 * static_cast<double>(whole.arrivals[m]));
        EXPECT_LE(std::abs(static_cast<double>(local.arrivals[m] - whole.arrivals[m])), slack) << "message " << m;
      }
    }
  }
}

TEST(LocalRating, ABusyNetworkRatesLocallyByDefault) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 64;
  const Topology t = build_topology(c);
  // NPU 2i sends 10 flows of k MiB + i KiB (k = 1..10) to NPU 2i + 1: they share the pair's
  // links and finish one by one, each finish a change near it alone.
  const auto local_ratings = [&](Rank pairs) {
    Engine engine;
    Network network(engine, t);
    EXPECT_EQ(network.local_rating_min_flows(), Network::kLocalRatingMinFlows);
    for (Rank i = 0; i < pairs; ++i) {
      for (Bytes k = 1; k <= 10; ++k) network.send(2 * i, 2 * i + 1, (k << 20) + (i << 10), [] {});
    }
    engine.run();
    return network.local_ratings();
  };
  EXPECT_EQ(local_ratings(16), 0u);  // 160 flows: each change rates its pair whole
  EXPECT_GT(local_ratings(32), 0u);  // 320: while 256 or more are active, changes are rated near them
}

}  // namespace
}  // namespace commsim
