// Chrome trace JSON: lanes for overlapping slices, the nanosecond grid, ids and args; and
// the checker the command tests use (chrome_trace_check.h) catches a partial overlap.

#include "report/chrome_trace.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "chrome_trace_check.h"

namespace commsim::testing {
namespace {

using Spans = std::vector<std::pair<std::int64_t, std::int64_t>>;

// Two spans may share a lane when one ends by the time the other starts.
bool conflict(const std::pair<std::int64_t, std::int64_t>& a, const std::pair<std::int64_t, std::int64_t>& b) {
  return !(a.second <= b.first || b.second <= a.first);
}

TEST(AssignLanes, DisjointSpansShareOneLane) {
  // Back to back, in any order: [0,10] [10,20] [25,30].
  EXPECT_EQ(assign_lanes({{25, 30}, {0, 10}, {10, 20}}), (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_TRUE(assign_lanes({}).empty());
}

TEST(AssignLanes, PartialOverlapsGoToNewLanes) {
  // By start: [0,10] lane 0; [5,15] overlaps it: lane 1; [10,20] starts as lane 0 ends:
  // lane 0; [12,13] overlaps [10,20] and [5,15]: lane 2.
  EXPECT_EQ(assign_lanes({{0, 10}, {5, 15}, {10, 20}, {12, 13}}), (std::vector<std::uint32_t>{0, 1, 0, 2}));
  // Three identical spans are three lanes (one inside another would claim they nest).
  EXPECT_EQ(assign_lanes({{2, 4}, {2, 4}, {2, 4}}), (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(AssignLanes, TheLowestFreeLaneIsReused) {
  // [0,10] 0; [1,3] 1; [2,20] 2; [4,6]: lane 1 is free since 3: 1; [11,12]: lanes 0 (since
  // 10) and 1 (since 6) are free: the lowest, 0.
  EXPECT_EQ(assign_lanes({{0, 10}, {1, 3}, {2, 20}, {4, 6}, {11, 12}}), (std::vector<std::uint32_t>{0, 1, 2, 1, 0}));
}

TEST(AssignLanes, ZeroLengthSpans) {
  // At an instant where others end or start they touch them: all on lane 0.
  EXPECT_EQ(assign_lanes({{5, 5}, {5, 5}, {0, 5}, {5, 8}}), (std::vector<std::uint32_t>{0, 0, 0, 0}));
  // Inside a longer one it would be a nested slice: a lane of its own.
  EXPECT_EQ(assign_lanes({{0, 10}, {5, 5}}), (std::vector<std::uint32_t>{0, 1}));
}

TEST(AssignLanes, RandomSpansNeverConflictOnALane) {
  std::mt19937 random(7);
  std::uniform_int_distribution<std::int64_t> start(0, 1000), length(0, 60);
  Spans spans;
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t s = start(random);
    spans.emplace_back(s, s + length(random));
  }
  const std::vector<std::uint32_t> lane = assign_lanes(spans);
  ASSERT_EQ(lane.size(), spans.size());
  // Greedy partitioning is optimal: the lanes are as many as the most spans in conflict at
  // the start of one of them (the spans containing that instant, zero-length ones too).
  std::size_t deepest = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    std::size_t depth = 0;
    for (std::size_t j = 0; j < spans.size(); ++j) {
      if (i != j && lane[i] == lane[j]) {
        ASSERT_FALSE(conflict(spans[i], spans[j])) << i << " and " << j;
      }
      const bool before = spans[j] < spans[i] || (spans[j] == spans[i] && j < i);
      depth += j == i || (before && conflict(spans[i], spans[j]));
    }
    deepest = std::max(deepest, depth);
  }
  EXPECT_EQ(*std::max_element(lane.begin(), lane.end()) + 1, deepest);
}

TEST(ChromeTrace, NanosecondGridLanesIdsAndArgs) {
  // One process with tracks "compute" (no slices) and "send" (two overlapping sends).
  // Times round to the nanosecond: 1499 ps -> 1 ns, 1500 ps -> 2 ns, 2000499 ps -> 2000 ns:
  // send 1 is [1, 2000] ns, send 0 [2, 1000] ns inside it, on a lane of its own.
  const std::vector<TraceTrack> tracks{{0, "rank 0", "compute"}, {0, "rank 0", "send"}};
  const std::vector<TraceSlice> slices{{1, 1500, 1'000'000}, {1, 1499, 2'000'499}};
  std::ostringstream out;
  write_chrome_trace(out, tracks, slices, [](std::size_t i) {
    return TraceEvent{"send " + std::to_string(i), "send", {TraceArg::of("bytes", Bytes{1} << 40), TraceArg::of("peer", "a\"b")}};
  });
  EXPECT_EQ(out.str(),
            "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
            "  {\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"rank 0\"}},\n"
            "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"compute\"}},\n"
            "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 1, \"tid\": 2, \"args\": {\"name\": \"send\"}},\n"
            "  {\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 1, \"tid\": 3, \"args\": {\"name\": \"send #2\"}},\n"
            "  {\"name\": \"send 1\", \"cat\": \"send\", \"ph\": \"X\", \"ts\": 0.001, \"dur\": 1.999, \"pid\": 1, "
            "\"tid\": 2, \"args\": {\"bytes\": 1099511627776, \"peer\": \"a\\\"b\"}},\n"
            "  {\"name\": \"send 0\", \"cat\": \"send\", \"ph\": \"X\", \"ts\": 0.002, \"dur\": 0.998, \"pid\": 1, "
            "\"tid\": 3, \"args\": {\"bytes\": 1099511627776, \"peer\": \"a\\\"b\"}}\n"
            "]}\n");
  const ParsedTrace trace = check_chrome_trace(out.str());
  ASSERT_EQ(trace.slices.size(), 2u);
  EXPECT_EQ(trace.slices[1].end_ns, 1000);
}

// The checker itself: a partial overlap on one thread fails it; the same slices on two
// threads pass.
constexpr const char* kOverlapping =
    "{\"traceEvents\": [{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": 1, \"tid\": 1, "
    "\"args\": {\"name\": \"t\"}},"
    "{\"name\": \"a\", \"cat\": \"c\", \"ph\": \"X\", \"ts\": 0, \"dur\": 2, \"pid\": 1, \"tid\": 1, \"args\": {}},"
    "{\"name\": \"b\", \"cat\": \"c\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"pid\": 1, \"tid\": 1, \"args\": {}}]}";

TEST(ChromeTraceCheck, CatchesPartialOverlapAndMissingBytes) {
  EXPECT_FATAL_FAILURE(check_chrome_trace(kOverlapping), "overlaps a slice ending at 2000 partially");
  std::string nested = kOverlapping;
  nested.replace(nested.rfind("\"dur\": 2"), 8, "\"dur\": 1");  // b = [1, 2] inside a = [0, 2]
  EXPECT_EQ(check_chrome_trace(nested).slices.size(), 2u);
  EXPECT_NONFATAL_FAILURE(check_chrome_trace(kOverlapping, {"c"}), "a has no bytes");
}

}  // namespace
}  // namespace commsim::testing
