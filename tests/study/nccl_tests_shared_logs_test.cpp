// The two unmodified nccl-tests logs of ../shared/validation/nccl-tests-logs read to exactly
// the rows of the CSV tables transcribed from them (same sources, same numbers).

#include <gtest/gtest.h>

#include <vector>

#include "study/measurement_csv.h"
#include "study/nccl_tests_log.h"
#include "study_test_support.h"

namespace commsim {
namespace {

using testing::kNcclTestsLogDir;
using testing::kValidationDir;

std::vector<Measurement> rows_of(const MeasurementSet& set, const MeasuredOperation& op) {
  std::vector<Measurement> rows;
  for (const Measurement& row : set.rows) {
    if (row.operation == op) rows.push_back(row);
  }
  return rows;
}

// Both parse the same printed digits, so the doubles are equal, not just close. The CSVs
// have no #wrong column.
void expect_same_rows(const std::vector<Measurement>& log, const std::vector<Measurement>& csv) {
  ASSERT_EQ(log.size(), csv.size());
  for (std::size_t i = 0; i < log.size(); ++i) {
    SCOPED_TRACE(log[i].source + " against " + csv[i].source);
    const Measurement& a = log[i];
    const Measurement& b = csv[i];
    EXPECT_EQ(a.operation, b.operation);
    EXPECT_EQ(a.ranks, b.ranks);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.gpus_per_node, b.gpus_per_node);
    EXPECT_EQ(a.size_bytes, b.size_bytes);
    EXPECT_EQ(a.count_elements, b.count_elements);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.redop, b.redop);
    EXPECT_EQ(a.root, b.root);
    EXPECT_EQ(a.out_of_place.time_us, b.out_of_place.time_us);
    EXPECT_EQ(a.out_of_place.algbw_GBps, b.out_of_place.algbw_GBps);
    EXPECT_EQ(a.out_of_place.busbw_GBps.value(), b.out_of_place.busbw_GBps.value());
    ASSERT_TRUE(a.in_place && b.in_place);
    EXPECT_EQ(a.in_place->time_us, b.in_place->time_us);
    EXPECT_EQ(a.in_place->algbw_GBps, b.in_place->algbw_GBps);
    EXPECT_EQ(a.in_place->busbw_GBps.value(), b.in_place->busbw_GBps.value());
  }
}

void expect_log_matches_csvs(const std::string& log_name, const std::string& csv_prefix,
                             const std::vector<std::string>& tests) {
  const MeasurementSet log = read_nccl_tests_log(kNcclTestsLogDir + log_name);
  for (const std::string& test : tests) {
    SCOPED_TRACE(test);
    const MeasurementSet csv = read_measurement_csv(kValidationDir + csv_prefix + test + ".csv");
    expect_same_rows(rows_of(log, *measured_operation_from_name(test)), csv.rows);
    EXPECT_EQ(log.nccl_version, csv.nccl_version);
  }
}

TEST(NcclTestsSharedLogs, OneNodeLogHasTheRowsOfItsFiveTables) {
  SKIP_WITHOUT_VALIDATION_DIR();
  expect_log_matches_csvs("h100_1node_8gpu.log", "h100_1node_8gpu_xxrjun_",
                          {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "sendrecv"});
  EXPECT_EQ(read_nccl_tests_log(kNcclTestsLogDir + "h100_1node_8gpu.log").rows.size(), 50u);
}

TEST(NcclTestsSharedLogs, TenNodeLogHasTheRowsOfItsTwoTables) {
  SKIP_WITHOUT_VALIDATION_DIR();
  expect_log_matches_csvs("h100_10node_1gpu_per_node.log", "h100_10node_10gpu_1pernode_",
                          {"all_reduce", "sendrecv"});
}

TEST(NcclTestsSharedLogs, HeaderFacts) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const MeasurementSet one = read_nccl_tests_log(kNcclTestsLogDir + "h100_1node_8gpu.log");
  EXPECT_EQ(one.nccl_tests_version, "2.17.8");
  EXPECT_EQ(one.nccl_version, "2.29.2");  // nccl-library=22902
  EXPECT_EQ(one.device_name, "NVIDIA H100 80GB HBM3");
  // Eight MPI processes on one host (nGpus 1 each).
  EXPECT_EQ(one.rows.front().ranks, 8u);
  EXPECT_EQ(one.rows.front().nodes, 1u);
  EXPECT_EQ(one.rows.front().gpus_per_node, 8u);
  EXPECT_EQ(one.rows.front().source, kNcclTestsLogDir + "h100_1node_8gpu.log:20");
  // Ten hosts, cnode3-002 to cnode3-011, one rank each.
  const MeasurementSet ten =
      read_nccl_tests_log(kNcclTestsLogDir + "h100_10node_1gpu_per_node.log");
  EXPECT_EQ(ten.rows.front().ranks, 10u);
  EXPECT_EQ(ten.rows.front().nodes, 10u);
  EXPECT_EQ(ten.rows.front().gpus_per_node, 1u);
}

TEST(NcclTestsSharedLogs, EightGiBRows) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const auto row_of = [](const MeasurementSet& set, CollectiveKind kind) {
    for (const Measurement& row : set.rows) {
      if (row.operation.collective == kind && row.size_bytes == 8589934592u) return row;
    }
    ADD_FAILURE() << "no 8 GiB row";
    return Measurement{};
  };
  // "8589934592 1073741824 double sum -1 31226.8 275.08 481.39 0 31239.3 274.97 481.20 0"
  const Measurement one = row_of(read_nccl_tests_log(kNcclTestsLogDir + "h100_1node_8gpu.log"),
                                 CollectiveKind::kAllReduce);
  EXPECT_EQ(one.count_elements, 1073741824u);
  EXPECT_EQ(one.type, "double");
  EXPECT_EQ(one.redop, "sum");
  EXPECT_EQ(one.root, -1);
  EXPECT_DOUBLE_EQ(one.out_of_place.time_us, 31226.8);
  EXPECT_DOUBLE_EQ(one.out_of_place.algbw_GBps, 275.08);
  EXPECT_DOUBLE_EQ(one.out_of_place.busbw_GBps.value(), 481.39);
  EXPECT_EQ(one.out_of_place.wrong_elements, 0u);
  ASSERT_TRUE(one.in_place.has_value());
  EXPECT_DOUBLE_EQ(one.in_place->time_us, 31239.3);
  EXPECT_DOUBLE_EQ(one.in_place->busbw_GBps.value(), 481.20);
  // algbw = size / time: 8589934592 B / 31226.8 us = 275.08 GB/s.
  EXPECT_NEAR(8589934592.0 / (one.out_of_place.time_us * 1e3), one.out_of_place.algbw_GBps, 0.005);
  // "8589934592 1073741824 double sum -1 316930 27.10 48.79 0 318527 26.97 48.54 0"
  const Measurement ten =
      row_of(read_nccl_tests_log(kNcclTestsLogDir + "h100_10node_1gpu_per_node.log"),
             CollectiveKind::kAllReduce);
  EXPECT_DOUBLE_EQ(ten.out_of_place.time_us, 316930);
  EXPECT_DOUBLE_EQ(ten.out_of_place.busbw_GBps.value(), 48.79);
  EXPECT_DOUBLE_EQ(ten.in_place->time_us, 318527);
}

// busbw = algbw * nccl-tests' factor for the ranks the log's device lines name
// (base/collectives.h; 1 for sendrecv): up to the rounding of two printed decimals.
TEST(NcclTestsSharedLogs, BusBandwidthIsAlgbwTimesTheFactorOfTheRanksRead) {
  SKIP_WITHOUT_VALIDATION_DIR();
  for (const char* log : {"h100_1node_8gpu.log", "h100_10node_1gpu_per_node.log"}) {
    for (const Measurement& row : read_nccl_tests_log(kNcclTestsLogDir + log).rows) {
      SCOPED_TRACE(row.source);
      const double factor =
          row.operation.is_p2p() ? 1.0 : busbw_factor(*row.operation.collective, row.ranks);
      EXPECT_NEAR(row.out_of_place.algbw_GBps * factor, row.out_of_place.busbw_GBps.value(), 0.02);
      EXPECT_NEAR(row.in_place->algbw_GBps * factor, row.in_place->busbw_GBps.value(), 0.02);
    }
  }
}

// "# Avg bus bandwidth" is the mean busbw over every row, out of place and in place.
TEST(NcclTestsSharedLogs, FooterAverageIsTheMeanBusbwOfItsRun) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const MeasurementSet set = read_nccl_tests_log(kNcclTestsLogDir + "h100_1node_8gpu.log");
  ASSERT_EQ(set.reported_averages.size(), 5u);
  EXPECT_EQ(set.reported_averages[0].operation, MeasuredOperation::of(CollectiveKind::kAllReduce));
  EXPECT_DOUBLE_EQ(set.reported_averages[0].avg_busbw_GBps, 437.957);
  EXPECT_EQ(set.reported_averages[0].source, kNcclTestsLogDir + "h100_1node_8gpu.log:31");
  for (const ReportedAverage& average : set.reported_averages) {
    SCOPED_TRACE(average.source);
    double sum = 0;
    int values = 0;
    for (const Measurement& row : rows_of(set, average.operation)) {
      sum += row.out_of_place.busbw_GBps.value() + row.in_place->busbw_GBps.value();
      values += 2;
    }
    EXPECT_NEAR(sum / values, average.avg_busbw_GBps, 0.005);
  }
}

// alltoall and sendrecv do not check their in-place result: #wrong is N/A there.
TEST(NcclTestsSharedLogs, UncheckedInPlaceResultsHaveNoWrongCount) {
  SKIP_WITHOUT_VALIDATION_DIR();
  for (const Measurement& row :
       read_nccl_tests_log(kNcclTestsLogDir + "h100_1node_8gpu.log").rows) {
    const bool unchecked =
        row.operation.is_p2p() || row.operation.collective == CollectiveKind::kAllToAll;
    EXPECT_EQ(row.out_of_place.wrong_elements, 0u) << row.source;
    EXPECT_EQ(row.in_place->wrong_elements.has_value(), !unchecked) << row.source;
  }
}

}  // namespace
}  // namespace commsim
