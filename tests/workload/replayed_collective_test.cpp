// What replay reports of each collective: a hand-made trace with two groups on an idle ring,
// every time from the closed form, and identical collectives tallied as one row.

#include "workload/replayed_collective.h"

#include <gtest/gtest.h>

#include "topology/builders.h"
#include "workload/replay.h"
#include "workload/trace_file.h"

namespace commsim {
namespace {

const std::string kTwoGroups = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/two-groups.textproto";

// A ring of 4 NPUs, 100 GB/s (10 ps a byte) and 1 us a link, full duplex.
Topology ring4() {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 4;
  c.link = {100e9, ps_from_us(1), LinkKind::kOther, Duplex::kFull};
  return build_topology(c);
}

TEST(ReplayedCollective, TwoGroupsOnAnIdleRingTakeTheClosedForm) {
  const Workload w = load_trace_file(kTwoGroups);
  const ReplayResult r = replay_workload(w, ring4(), {});
  // Ring AllReduce of S on p ranks: 2(p-1) steps of (a + S/p x 10 ps); ring AllGather of the
  // gathered S: p-1 steps. Each group has its own links, so nothing contends.
  //   left  AllReduce 1 MiB, p 2: 2 x (1 us + 5.24288 us)            = 12.48576 us, twice
  //   right AllGather 4 MiB, p 2: 1 x (1 us + 20.97152 us)           = 21.97152 us, from 10 us
  //   all   AllReduce 4 MiB, p 4: 6 x (1 us + 10.48576 us)           = 68.91456 us, from
  //         31.97152 us, when right's members arrive (left's were there at 24.97152 us)
  ASSERT_EQ(r.collectives.size(), 4u);
  const CollectiveCall left{CollectiveKind::kAllReduce, 0, 2, 1 << 20, AlgorithmKind::kRing, std::nullopt};
  const CollectiveCall right{CollectiveKind::kAllGather, 1, 2, 4 << 20, AlgorithmKind::kRing, std::nullopt};
  const CollectiveCall all{CollectiveKind::kAllReduce, std::nullopt, 4, 4 << 20, AlgorithmKind::kRing, std::nullopt};
  // In the order they started: left at 0, right at 10 us, left again, then all.
  EXPECT_EQ(r.collectives[0].call, left);
  EXPECT_EQ(r.collectives[0].start_ps, 0);
  EXPECT_EQ(r.collectives[0].end_ps, 12'485'760);
  EXPECT_EQ(r.collectives[1].call, right);
  EXPECT_EQ(r.collectives[1].start_ps, 10'000'000);
  EXPECT_EQ(r.collectives[1].end_ps, 31'971'520);
  EXPECT_EQ(r.collectives[1].first_rank, 2u);  // right's first member, at its node 1 ("ag")
  EXPECT_EQ(r.collectives[1].first_node, 1u);
  EXPECT_EQ(r.collectives[2].call, left);
  EXPECT_EQ(r.collectives[2].start_ps, 12'485'760);
  EXPECT_EQ(r.collectives[2].time_ps(), 12'485'760);
  EXPECT_EQ(r.collectives[3].call, all);
  EXPECT_EQ(r.collectives[3].start_ps, 31'971'520);
  EXPECT_EQ(r.collectives[3].time_ps(), 68'914'560);
  EXPECT_EQ(r.total_ps, 100'886'080);
  // algbw = S / t; busbw = algbw x 2(p-1)/p for AllReduce, (p-1)/p for AllGather.
  EXPECT_DOUBLE_EQ(algbw_GBps(left, 12'485'760), 1048576 / 12485.76);
  EXPECT_DOUBLE_EQ(busbw_GBps(left, 12'485'760), 1048576 / 12485.76 * 1.0);
  EXPECT_DOUBLE_EQ(busbw_GBps(right, 21'971'520), 4194304 / 21971.52 * 0.5);
  EXPECT_DOUBLE_EQ(busbw_GBps(all, 68'914'560), 4194304 / 68914.56 * 1.5);
}

TEST(ReplayedCollective, IdenticalCallsAreTalliedMostTotalTimeFirst) {
  const CollectiveCall a{CollectiveKind::kAllReduce, 0, 4, 1000, AlgorithmKind::kRing, Protocol::kSimple};
  CollectiveCall b = a;
  b.protocol = Protocol::kLL;  // the same but for the protocol: a row of its own
  const auto run = [](const CollectiveCall& call, TimePs start_us, TimePs time_us) {
    return ReplayedCollective{call, 0, 0, ps_from_us(start_us), ps_from_us(start_us + time_us)};
  };
  CollectiveCall c = a;
  c.bytes = 2000;  // 10 us in all, as b: after b, which came first
  const std::vector<CollectiveTally> rows =
      tally_collectives({run(b, 0, 5), run(c, 1, 10), run(a, 1, 10), run(a, 2, 30), run(b, 3, 5), run(a, 4, 20)});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].call, a);  // 60 us in all
  EXPECT_EQ(rows[0].count, 3u);
  EXPECT_DOUBLE_EQ(rows[0].total_us, 60);
  EXPECT_DOUBLE_EQ(rows[0].mean_us(), 20);
  EXPECT_EQ(rows[0].min_ps, ps_from_us(10));
  EXPECT_EQ(rows[0].max_ps, ps_from_us(30));
  // At the mean time: 1000 B in 20 us is 0.05 GB/s; busbw x 2(4-1)/4.
  EXPECT_DOUBLE_EQ(rows[0].algbw_GBps(), 0.05);
  EXPECT_DOUBLE_EQ(rows[0].busbw_GBps(), 0.075);
  EXPECT_EQ(rows[1].call, b);
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[2].call, c);
  EXPECT_EQ(rows[2].count, 1u);
  EXPECT_TRUE(tally_collectives({}).empty());
}

}  // namespace
}  // namespace commsim
