#include "study/read_measurements.h"

#include <gtest/gtest.h>

#include "study/nccl_tests_log.h"
#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;
using testing::kNcclTestsLogDir;
using testing::kTestDataDir;
using testing::kValidationDir;

MeasurementFormat format_of(const std::string& text) {
  return detect_measurement_format(text, "f");
}

TEST(ReadMeasurements, FormatIsReadFromTheContent) {
  EXPECT_EQ(format_of("# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902\n"),
            MeasurementFormat::kNcclTestsLog);
  EXPECT_EQ(format_of("./build/all_reduce_perf -g 8\n# Using devices\n"),
            MeasurementFormat::kNcclTestsLog);
  EXPECT_EQ(format_of("# source: nccl-tests, all_reduce_perf\ncollective,nranks,size_bytes\n"),
            MeasurementFormat::kMeasurementCsv);
  EXPECT_EQ(format_of("config_id,src,dst,size,repetition,timestamp_start_ns,timestamp_end_ns,"
                      "duration_ns\n"),
            MeasurementFormat::kP2pProfileLog);
  EXPECT_EQ(measurement_format_name(MeasurementFormat::kP2pProfileLog), "P2P profile log");
  // A log whose every line a launcher tagged with its rank (Open MPI --tag-output).
  EXPECT_EQ(format_of("[1,0]<stdout>:# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902\n"),
            MeasurementFormat::kNcclTestsLog);
}

TEST(ReadMeasurements, FilesOfNoKnownFormat) {
  EXPECT_CONTAINS(input_error_of([] { format_of("hello\nworld\n"); }),
                  "f: not a file of measurements");
  EXPECT_CONTAINS(
      input_error_of([] { parse_measurements("matrix,src_gpu,dst_gpu,value\nbw,0,0,1\n", "f"); }),
      "f:1: a p2pBandwidthLatencyTest matrix file (matrix,src_gpu,dst_gpu,value), not "
      "nccl-tests rows: read it with read_p2p_matrices");
  EXPECT_CONTAINS(input_error_of([] { read_measurements("/nonexistent/m.log"); }),
                  "/nonexistent/m.log: cannot open measurement file");
}

TEST(ReadMeasurements, LogGivesTheLogReadersRows) {
  const std::string path = kTestDataDir + "nccl-tests-allgather-excerpt.log";
  const MeasurementSet set = read_measurements(path);
  const MeasurementSet direct = read_nccl_tests_log(path);
  ASSERT_EQ(set.rows.size(), direct.rows.size());
  EXPECT_DOUBLE_EQ(set.rows[8].out_of_place.time_us, 161737);
  EXPECT_EQ(set.rows[8].source, direct.rows[8].source);
}

TEST(ReadMeasurements, PublishedFilesOfBothNcclTestsFormats) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const MeasurementSet log = read_measurements(kNcclTestsLogDir + "h100_1node_8gpu.log");
  EXPECT_EQ(log.rows.size(), 50u);
  const MeasurementSet csv =
      read_measurements(kValidationDir + "h100_1node_8gpu_xxrjun_all_reduce.csv");
  ASSERT_EQ(csv.rows.size(), 10u);
  EXPECT_DOUBLE_EQ(csv.rows[8].out_of_place.time_us, log.rows[8].out_of_place.time_us);
}

TEST(ReadMeasurements, ProfileLogGivesPointToPointRows) {
  const MeasurementSet set = parse_measurements(
      "config_id,src,dst,size,repetition,timestamp_start_ns,timestamp_end_ns,duration_ns\n"
      "3,2,5,1048576,0,100,40100,40000\n"
      "3,2,5,1048576,1,200000,242000,42000\n",
      "p.csv");
  ASSERT_EQ(set.rows.size(), 1u);
  EXPECT_TRUE(set.rows[0].operation.is_p2p());
  EXPECT_EQ(set.rows[0].src_rank, 2u);
  EXPECT_EQ(set.rows[0].dst_rank, 5u);
  EXPECT_EQ(set.rows[0].repetitions, 2u);
  EXPECT_DOUBLE_EQ(set.rows[0].out_of_place.time_us, 41.0);  // median of 40 and 42 us
  EXPECT_EQ(set.origin, "p.csv");
}

}  // namespace
}  // namespace commsim
