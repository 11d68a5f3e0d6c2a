#include "study/p2p_profile_log.h"

#include <gtest/gtest.h>

#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;

const std::string kHeader =
    "config_id,src,dst,size,repetition,timestamp_start_ns,timestamp_end_ns,duration_ns\n";

// Config 0 (GPU 0 -> 1, 1 KiB) three times, config 1 (GPU 1 -> 0, 2 KiB) four times, in the
// shuffled order a profiling run takes them.
const std::string kLog = "# execution log of a profiling run\n" + kHeader +
                         "0,0,1,1024,0,1000000,1050000,50000\n"
                         "1,1,0,2048,0,2000000,2000010,10\n"
                         "0,0,1,1024,1,3000000,3052000,52000\n"
                         "1,1,0,2048,1,4000000,4000040,40\n"
                         "1,1,0,2048,2,5000000,5000020,20\n"
                         "0,0,1,1024,2,6000000,6051000,51000\n"
                         "1,1,0,2048,3,7000000,7000030,30\n";

std::string error_of(const std::string& rows) {
  return input_error_of([&] { parse_p2p_profile_log(kHeader + rows, "p.csv"); });
}

TEST(P2pProfileLog, MedianOfTheRepetitionsOfEachTransfer) {
  const std::vector<P2pTransferTiming> timings = parse_p2p_profile_log(kLog, "p.csv");
  ASSERT_EQ(timings.size(), 2u);
  // Sorted by (src, dst, size): 0 -> 1 first.
  const P2pTransferTiming& forward = timings[0];
  EXPECT_EQ(forward.config_id, 0u);
  EXPECT_EQ(forward.src_rank, 0u);
  EXPECT_EQ(forward.dst_rank, 1u);
  EXPECT_EQ(forward.size_bytes, 1024u);
  EXPECT_EQ(forward.repetitions, 3u);
  EXPECT_DOUBLE_EQ(forward.median_duration_ns, 51000);  // of 50000, 52000, 51000
  EXPECT_EQ(forward.min_duration_ns, 50000u);
  EXPECT_EQ(forward.max_duration_ns, 52000u);
  EXPECT_EQ(forward.source, "p.csv:3");
  // An even count: the mean of the middle two of 10, 20, 30, 40.
  const P2pTransferTiming& backward = timings[1];
  EXPECT_EQ(backward.repetitions, 4u);
  EXPECT_DOUBLE_EQ(backward.median_duration_ns, 25);
  EXPECT_EQ(backward.source, "p.csv:4");
}

TEST(P2pProfileLog, TimingsAsMeasurements) {
  const MeasurementSet set =
      p2p_profile_measurements(parse_p2p_profile_log(kLog, "p.csv"), "p.csv");
  ASSERT_EQ(set.rows.size(), 2u);
  const Measurement& row = set.rows[0];
  EXPECT_TRUE(row.operation.is_p2p());
  EXPECT_EQ(row.src_rank, 0u);
  EXPECT_EQ(row.dst_rank, 1u);
  EXPECT_EQ(row.repetitions, 3u);
  EXPECT_EQ(row.size_bytes, 1024u);
  EXPECT_DOUBLE_EQ(row.out_of_place.time_us, 51.0);
  // 1024 B / 51000 ns = 0.0200784 GB/s; a send's bus factor is 1.
  EXPECT_DOUBLE_EQ(row.out_of_place.algbw_GBps, 1024.0 / 51000.0);
  EXPECT_DOUBLE_EQ(row.out_of_place.busbw_GBps.value(), row.out_of_place.algbw_GBps);
  EXPECT_FALSE(row.in_place.has_value());
  EXPECT_EQ(row.ranks, 0u);  // unknown
}

TEST(P2pProfileLog, DurationMustBeEndMinusStart) {
  EXPECT_CONTAINS(
      error_of("0,0,1,1024,0,1000000,1050000,50000\n0,0,1,1024,1,3000000,3052000,52001\n"),
      "p.csv:3: duration_ns 52001 is not timestamp_end_ns - timestamp_start_ns = 52000");
  EXPECT_CONTAINS(error_of("0,0,1,1024,0,1050000,1000000,50000\n"),
                  "p.csv:2: timestamp_end_ns 1000000 is before timestamp_start_ns 1050000");
}

TEST(P2pProfileLog, FieldsMustBeWholeNonNegativeNumbers) {
  EXPECT_CONTAINS(error_of("0,0,1,1024,0,1000000,1050000,-50000\n"),
                  "p.csv:2: duration_ns '-50000' is negative");
  EXPECT_CONTAINS(error_of("0,0,1,1KB,0,1000000,1050000,50000\n"),
                  "p.csv:2: size: expected a whole number, got '1KB'");
  EXPECT_CONTAINS(error_of("0,0,one,1024,0,1000000,1050000,50000\n"),
                  "p.csv:2: dst: expected a whole number, got 'one'");
  EXPECT_CONTAINS(error_of("0,0,1,1024,0,1000000.5,1050000,50000\n"),
                  "p.csv:2: timestamp_start_ns: expected a whole number, got '1000000.5'");
  EXPECT_CONTAINS(error_of("0,0,1,1024,0,1000000,1050000\n"),
                  "p.csv:2: 7 fields, the header (p.csv:1) has 8");
}

TEST(P2pProfileLog, EachRepetitionOnceAndOneTransferPerConfig) {
  EXPECT_CONTAINS(
      error_of("0,0,1,1024,0,1000000,1050000,50000\n0,0,1,1024,0,2000000,2050000,50000\n"),
      "p.csv:3: repetition 0 of 0->1 1024 B again (first at line 2)");
  EXPECT_CONTAINS(
      error_of("0,0,1,1024,0,1000000,1050000,50000\n0,0,2,1024,1,2000000,2050000,50000\n"),
      "p.csv:3: config_id 0 is 0->2 1024 B here but 0->1 1024 B at line 2");
  EXPECT_CONTAINS(
      error_of("0,0,1,1024,0,1000000,1050000,50000\n7,0,1,1024,1,2000000,2050000,50000\n"),
      "p.csv:3: 0->1 1024 B has config_id 7 here but 0 at line 2");
}

TEST(P2pProfileLog, HeaderAndRowsAreRequired) {
  EXPECT_CONTAINS(
      input_error_of([] { parse_p2p_profile_log("config_id,src,dst,size\n0,0,1,8\n", "p.csv"); }),
      "p.csv:1: no column 'repetition' in the header");
  EXPECT_CONTAINS(error_of(""), "p.csv:1: no rows after the header");
  EXPECT_CONTAINS(input_error_of([] { parse_p2p_profile_log("", "p.csv"); }),
                  "p.csv:1: no header row");
}

}  // namespace
}  // namespace commsim
