#include "study/measurement_csv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;
using testing::kValidationDir;

const std::string kHeader =
    "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,"
    "oop_algbw_GBps,oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n";

std::string error_of(const std::string& text) {
  return input_error_of([&] { parse_measurement_csv(text, "t.csv"); });
}

bool is_nccl_tests_table(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  return file.extension() == ".csv" && !name.starts_with("p2p_matrix_") &&
         name != "busbw_factors.csv";
}

TEST(MeasurementCsv, EveryPublishedTableReads) {
  SKIP_WITHOUT_VALIDATION_DIR();
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kValidationDir)) {
    if (!is_nccl_tests_table(entry.path())) continue;
    SCOPED_TRACE(entry.path().string());
    const MeasurementSet set = read_measurement_csv(entry.path().string());
    EXPECT_FALSE(set.rows.empty());
    EXPECT_FALSE(set.comments.empty());  // each starts with its source
    for (const Measurement& row : set.rows) {
      EXPECT_GT(row.ranks, 0u) << row.source;
      EXPECT_GT(row.out_of_place.time_us, 0) << row.source;
    }
    ++files;
  }
  EXPECT_EQ(files, 10);
}

TEST(MeasurementCsv, TableWithoutCountsOrInPlaceTimes) {
  SKIP_WITHOUT_VALIDATION_DIR();
  // stas00's A100 table: the author kept only size, time, algbw and busbw.
  const MeasurementSet set =
      read_measurement_csv(kValidationDir + "a100_1node_8gpu_allreduce_stas00.csv");
  ASSERT_EQ(set.rows.size(), 20u);
  const Measurement& eight_gib = set.rows[18];
  EXPECT_EQ(eight_gib.size_bytes, 8589934592u);
  EXPECT_EQ(eight_gib.operation, MeasuredOperation::of(CollectiveKind::kAllReduce));
  EXPECT_FALSE(eight_gib.count_elements.has_value());
  EXPECT_DOUBLE_EQ(eight_gib.out_of_place.time_us, 64074);
  EXPECT_DOUBLE_EQ(eight_gib.out_of_place.algbw_GBps, 134.06);
  EXPECT_DOUBLE_EQ(eight_gib.out_of_place.busbw_GBps.value(), 234.61);
  EXPECT_FALSE(eight_gib.in_place.has_value());
  EXPECT_EQ(eight_gib.source, kValidationDir + "a100_1node_8gpu_allreduce_stas00.csv:24");
  EXPECT_TRUE(set.nccl_version.empty());  // "nccl=not stated"
  EXPECT_EQ(eight_gib.gpus_per_thread, 8u);  // "system: ..., single process -g 8"
}

TEST(MeasurementCsv, TableOfFiveCollectivesWithRoots) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const MeasurementSet set =
      read_measurement_csv(kValidationDir + "pcie_2080ti_2gpu_noP2P_collectives.csv");
  EXPECT_EQ(set.rows.size(), 136u);
  std::set<std::string> names;
  for (const Measurement& row : set.rows) {
    names.insert(measured_operation_name(row.operation));
    const bool rooted = row.operation.collective == CollectiveKind::kBroadcast ||
                        row.operation.collective == CollectiveKind::kReduce;
    EXPECT_EQ(row.root, rooted ? 0 : -1) << row.source;
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"allgather", "allreduce", "alltoall", "broadcast", "reduce"}));
  // "reduce,2,1,2,1073741824,268435456,float,sum,0,96427,11.14,11.14,96450,11.13,11.13"
  const Measurement& reduce = set.rows[109];
  EXPECT_EQ(reduce.source, kValidationDir + "pcie_2080ti_2gpu_noP2P_collectives.csv:119");
  EXPECT_EQ(reduce.count_elements, 268435456u);
  EXPECT_DOUBLE_EQ(reduce.out_of_place.time_us, 96427);
  EXPECT_DOUBLE_EQ(reduce.in_place->busbw_GBps.value(), 11.13);
}

TEST(MeasurementCsv, OtherLayoutsOfTheFolderAreRefusedSayingWhatTheyAre) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const std::string matrix = kValidationDir + "p2p_matrix_2080ti_x2_pcie_noP2P.csv";
  EXPECT_CONTAINS(input_error_of([&] { read_measurement_csv(matrix); }),
                  matrix + ":4: a p2pBandwidthLatencyTest matrix file");
  const std::string factors = kValidationDir + "busbw_factors.csv";
  EXPECT_CONTAINS(input_error_of([&] { read_measurement_csv(factors); }),
                  factors + ":4: nccl-tests' bus-bandwidth factors per collective");
}

TEST(MeasurementCsv, ColumnsAreFoundByName) {
  // Reordered, with a derived column the reader does not use, and no in-place columns.
  const MeasurementSet set = parse_measurement_csv(
      "# a comment; nccl=2.18.3\n"
      "size_bytes,collective,time_us_derived,nranks,nodes,gpus_per_node,count,type,redop,root,"
      "oop_busbw_GBps,oop_algbw_GBps,oop_time_us\n"
      "1048576,all_gather,99.0,8,1,8,32768,float,none,,33.98,38.83,27.0\n",
      "t.csv");
  ASSERT_EQ(set.rows.size(), 1u);
  const Measurement& row = set.rows[0];
  EXPECT_EQ(row.operation, MeasuredOperation::of(CollectiveKind::kAllGather));
  EXPECT_EQ(row.size_bytes, 1048576u);
  EXPECT_EQ(row.root, -1);  // empty
  EXPECT_DOUBLE_EQ(row.out_of_place.time_us, 27.0);  // oop_time_us before a derived time
  EXPECT_DOUBLE_EQ(row.out_of_place.algbw_GBps, 38.83);
  EXPECT_DOUBLE_EQ(row.out_of_place.busbw_GBps.value(), 33.98);
  EXPECT_FALSE(row.in_place.has_value());
  EXPECT_EQ(row.source, "t.csv:3");
  EXPECT_EQ(set.nccl_version, "2.18.3");
  EXPECT_EQ(set.comments, std::vector<std::string>{"a comment; nccl=2.18.3"});
  EXPECT_EQ(row.gpus_per_thread, 0u);  // no comment says how the GPUs were driven
}

TEST(MeasurementCsv, ATableOfSizesAndTimesAloneDerivesTheRest) {
  // collective, size_bytes and a time: ranks unknown (0), algbw = size / time, busbw only
  // once the ranks are known; a time_us_derived stands in for oop_time_us.
  const MeasurementSet set = parse_measurement_csv(
      "# published busbw, times derived\ncollective,size_bytes,time_us_derived\nall_gather,8000000,100\n", "t.csv");
  ASSERT_EQ(set.rows.size(), 1u);
  const Measurement& row = set.rows[0];
  EXPECT_EQ(row.ranks, 0u);
  EXPECT_EQ(row.root, -1);
  EXPECT_FALSE(row.count_elements.has_value());
  EXPECT_DOUBLE_EQ(row.out_of_place.time_us, 100.0);
  EXPECT_DOUBLE_EQ(row.out_of_place.algbw_GBps, 80.0);  // 8e6 B / 100 us
  EXPECT_FALSE(row.out_of_place.busbw_GBps.has_value());
  // On 8 ranks (a validation's topology): busbw = 80 x 7/8.
  const Measurement on_eight = complete_for(row, 8);
  EXPECT_EQ(on_eight.ranks, 8u);
  EXPECT_DOUBLE_EQ(on_eight.out_of_place.busbw_GBps.value(), 70.0);
  // A rank count in the table is kept, and busbw derived at it.
  const Measurement given =
      parse_measurement_csv("collective,nranks,size_bytes,oop_time_us\nall_reduce,4,8000000,100\n", "t.csv").rows[0];
  EXPECT_FALSE(given.out_of_place.busbw_GBps.has_value());
  EXPECT_DOUBLE_EQ(complete_for(given, 8).out_of_place.busbw_GBps.value(), 120.0);  // 80 x 2 x 3/4
  EXPECT_EQ(complete_for(given, 8).ranks, 4u);
  // A row whose measured time is empty takes the derived one; its empty bandwidths are derived.
  const Measurement derived =
      parse_measurement_csv(
          "collective,nranks,size_bytes,oop_time_us,oop_algbw_GBps,oop_busbw_GBps,time_us_derived\n"
          "all_gather,8,8000000,,,,100\n",
          "t.csv")
          .rows[0];
  EXPECT_DOUBLE_EQ(derived.out_of_place.time_us, 100.0);
  EXPECT_DOUBLE_EQ(complete_for(derived, 8).out_of_place.busbw_GBps.value(), 70.0);
}

TEST(MeasurementCsv, GpusPerThreadFromTheSystemComment) {
  // nccl-tests -g G: one thread drove G GPUs; "-gpu" or "-g" without a count is no such word.
  const auto gpus_per_thread = [](const std::string& comment) {
    return parse_measurement_csv("# " + comment +
                                     "\ncollective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,"
                                     "oop_time_us,oop_algbw_GBps,oop_busbw_GBps\n"
                                     "all_reduce,2,1,2,8,2,float,sum,-1,12.25,0.00,0.00\n",
                                 "t.csv")
        .rows.at(0)
        .gpus_per_thread;
  };
  EXPECT_EQ(gpus_per_thread("system: 2x RTX 2080 Ti; single process -g 2; CUDA 12.4"), 2u);
  EXPECT_EQ(gpus_per_thread("system: one node (./all_reduce_perf -b 8 -e 1G -g 8)"), 8u);
  EXPECT_EQ(gpus_per_thread("system: mpirun -np 8, -gpu 1"), 0u);
  EXPECT_EQ(gpus_per_thread("system: -g unknown"), 0u);
}

TEST(MeasurementCsv, BadRowsNameTheirLineAndValue) {
  const std::string good =
      "all_reduce,8,1,8,1024,256,float,sum,-1,20.15,0.05,0.09,19.80,0.05,0.09\n";
  EXPECT_CONTAINS(error_of(kHeader + good + "allreduse,8,1,8,1024,256,float,sum,-1,20,0.05,0.05,,,\n"),
                  "t.csv:3: unknown collective 'allreduse'");
  EXPECT_CONTAINS(error_of(kHeader + "all_reduce,8,1,8,1K,256,float,sum,-1,20.15,0.05,0.09,,,\n"),
                  "t.csv:2: size (bytes): expected a whole number, got '1K'");
  EXPECT_CONTAINS(error_of(kHeader + "all_reduce,8,1,8,1024,256,float,sum,-1,20.15,0.05\n"),
                  "t.csv:2: 11 fields, the header (t.csv:1) has 15");
  EXPECT_CONTAINS(error_of(kHeader + "all_reduce,8,1,8,1024,256,float,sum,-1,20.15,0.05,0.09,19.80,x,\n"),
                  "t.csv:2: in-place algbw (GB/s): cannot parse 'x'");
  EXPECT_CONTAINS(error_of(kHeader + "all_reduce,8,1,8,1024,256,float,sum,-1,0,0.05,0.09,,,\n"),
                  "t.csv:2: out-of-place time (us): '0' is not positive");
  EXPECT_CONTAINS(error_of(kHeader + "all_reduce,8,1,8,1024,256,float,sum,-2,20.15,0.05,0.09,,,\n"),
                  "t.csv:2: root: expected -1 (no root) or a rank, got '-2'");
  EXPECT_CONTAINS(
      error_of(kHeader + "all_reduce,eight,1,8,1024,256,float,sum,-1,20.15,0.05,0.09,,,\n"),
      "t.csv:2: nranks: expected a whole number, got 'eight'");
}

// A table of every nccl-tests program holds rows of gather, scatter and hypercube too, which
// commsim does not model: they are left out as a log's runs are, each run named once with its
// rows and first line; a table of nothing else is an error naming them.
TEST(MeasurementCsv, RowsOfOperationsWithoutAModelAreLeftOut) {
  const std::string reduce = "all_reduce,8,1,8,1024,256,float,sum,-1,20.15,0.05,0.09,,,\n";
  const std::string gather = "gather,8,1,8,1024,256,float,none,0,20,0.05,0.05,,,\n";
  const std::string scatter = "Scatter,8,1,8,1024,256,float,none,0,21,0.05,0.05,,,\n";
  const MeasurementSet set = parse_measurement_csv(kHeader + gather + gather + reduce + scatter + gather, "t.csv");
  ASSERT_EQ(set.rows.size(), 1u);
  EXPECT_EQ(set.rows[0].source, "t.csv:4");
  ASSERT_EQ(set.left_out.size(), 3u);
  EXPECT_EQ(left_out_text(set.left_out), "gather (2 rows, t.csv:2), Scatter (1 row, t.csv:5), gather (1 row, t.csv:6)");
  EXPECT_CONTAINS(error_of(kHeader + gather + gather),
                  "t.csv: no rows of an operation commsim predicts: its runs are of gather (2 rows, t.csv:2) "
                  "(operations: allreduce, allgather, reducescatter");
}

TEST(MeasurementCsv, BadHeadersAndFilesWithoutRows) {
  EXPECT_CONTAINS(error_of("# c\ncollective,nranks,size_bytes\nall_reduce,8,1024\n"),
                  "t.csv:2: no column 'oop_time_us' in the header (columns: collective,nranks,size_bytes)");
  EXPECT_CONTAINS(error_of("# c\ncollective,oop_time_us\nall_reduce,20\n"),
                  "t.csv:2: no column 'size_bytes' in the header (columns: collective,oop_time_us)");
  EXPECT_CONTAINS(error_of("# c\n" + kHeader), "t.csv:2: no rows after the header");
  EXPECT_CONTAINS(error_of("# only\n# comments\n"), "t.csv:2: no header row");
  EXPECT_CONTAINS(error_of("config_id,src,dst,size,repetition,timestamp_start_ns,"
                           "timestamp_end_ns,duration_ns\n0,0,1,8,0,10,20,10\n"),
                  "t.csv:1: a P2P profile log");
}

}  // namespace
}  // namespace commsim
