// Every algorithm must be right, not only timed: for every collective it implements and a
// spread of rank counts (powers of two and not), the symbolic data tracker checks that each
// rank ends with exactly the data the collective defines, with no contribution reduced twice.

#include <gtest/gtest.h>

#include "collective/algorithms.h"
#include "collective/data_tracker.h"
#include "collective/simulate.h"
#include "collective_test_topologies.h"

namespace commsim::testing {
namespace {

struct Case {
  AlgorithmKind algorithm;
  CollectiveKind kind;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::string(algorithm_name(info.param.algorithm)) + "_" +
                     std::string(collective_name(info.param.kind));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

std::vector<Case> every_pair() {
  std::vector<Case> cases;
  for (const AlgorithmKind a : all_algorithms()) {
    for (const CollectiveKind k : all_collectives()) {
      const Topology t = topology_for(a, 8);
      if (!inapplicable_reason(k, a, t)) cases.push_back({a, k});
    }
  }
  return cases;
}

class ScheduleCorrectness : public ::testing::TestWithParam<Case> {};

TEST_P(ScheduleCorrectness, EveryRankEndsWithWhatTheCollectiveDefines) {
  const Case c = GetParam();
  for (const std::uint32_t p : {2u, 3u, 5u, 8u, 12u, 16u, 33u, 64u}) {
    const Topology topology = topology_for(c.algorithm, p);
    if (inapplicable_reason(c.kind, c.algorithm, topology)) continue;
    for (const std::size_t chunks : {std::size_t{1}, std::size_t{3}}) {
      for (const Rank root : {Rank{0}, Rank{p - 1}}) {
        SCOPED_TRACE("p = " + std::to_string(p) + ", chunks = " + std::to_string(chunks) +
                     ", root = " + std::to_string(root));
        CollectiveConfig config;
        config.chunks = chunks;
        config.root = root;
        config.verify = true;
        const Bytes size = nccl_size(c.kind, Bytes{p} * 4096, p);
        const CollectiveResult r = simulate_collective(topology, c.kind, c.algorithm, size, config);
        EXPECT_EQ(r.verify_error, "");
        if (c.kind != CollectiveKind::kBarrier) {
          EXPECT_GT(r.time_ps, 0);
        }
        if (c.kind != CollectiveKind::kBroadcast && c.kind != CollectiveKind::kReduce) break;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllAlgorithms, ScheduleCorrectness, ::testing::ValuesIn(every_pair()),
                         case_name);

TEST(DataTracker, CatchesAWrongSchedule) {
  // A "ring AllGather" that forwards the wrong block leaves holes: the tracker must see it.
  DataTracker tracker(CollectiveKind::kAllGather, 3, 3, 1, 0);
  tracker.apply(1, 0, tracker.take(0, 0, {{0, 1, 1}}), DataOp::kCopy);
  EXPECT_NE(tracker.verify(), "");
}

TEST(DataTracker, CatchesADoubleReduction) {
  DataTracker tracker(CollectiveKind::kAllReduce, 2, 1, 1, 0);
  const auto snapshot = tracker.take(0, 0, {{0, 1, 1}});
  tracker.apply(1, 0, snapshot, DataOp::kReduce);
  tracker.apply(1, 0, snapshot, DataOp::kReduce);  // rank 0's data added twice
  EXPECT_NE(tracker.verify().find("already holds"), std::string::npos) << tracker.verify();
}

}  // namespace
}  // namespace commsim::testing
