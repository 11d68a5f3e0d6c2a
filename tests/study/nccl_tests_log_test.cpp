#include "study/nccl_tests_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "study/text_table.h"
#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;
using testing::kTestDataDir;

// The 1-based number of the first line of `text` holding `fragment`.
std::string line_of(const std::string& text, const std::string& fragment) {
  const std::size_t at = text.find(fragment);
  EXPECT_NE(at, std::string::npos) << fragment;
  return std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::string device_lines(const std::vector<std::string>& hosts) {
  std::string lines;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    lines += "#  Rank " + std::to_string(r) + " Group  0 Pid  12345 on " + hosts[r] + " device  " +
             std::to_string(r) + " [0000:07:00] NVIDIA A100-SXM4-80GB\n";
  }
  return lines;
}

const std::vector<std::string> kOneHost(8, "node-a");

// The lines of one run as nccl-tests 2.17 prints them (src/common.cu) before the device
// lines, between them and the rows, and after the rows.
std::string run_start(const std::string& test) {
  return "# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902\n"
         "# Collective test starting: " + test + "_perf\n" + R"(# nThread 1 nGpus 8 minBytes 1024 maxBytes 1024 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
)";
}
constexpr const char* kColumnHeader = R"(#
#                                                              out-of-place                       in-place          
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong 
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         
)";
std::string run_end(const std::string& test) {
  return "# Out of bounds values : 0 OK\n"
         "# Avg bus bandwidth    : 0.09 \n"
         "#\n"
         "# Collective test concluded: " + test + "_perf\n#\n";
}

// One run of `test` on ranks on `hosts`, with `rows` as its table.
std::string run_of(const std::string& test, const std::string& rows,
                   const std::vector<std::string>& hosts = kOneHost) {
  return run_start(test) + device_lines(hosts) + kColumnHeader + rows + run_end(test);
}

// 1024 B / 20.15 us = 0.05 GB/s; busbw 2*7/8 of it.
const std::string kRow = R"(        1024           256     float     sum      -1    20.15    0.05    0.09       0    19.80    0.05    0.09       0
)";

std::string error_of(const std::string& text) {
  return input_error_of([&] { parse_nccl_tests_log(text, "t.log"); });
}

TEST(NcclTestsLog, ExcerptFileRows) {
  const std::string path = kTestDataDir + "nccl-tests-allgather-excerpt.log";
  const MeasurementSet set = read_nccl_tests_log(path);
  ASSERT_EQ(set.rows.size(), 10u);
  EXPECT_EQ(set.nccl_version, "2.29.2");
  EXPECT_EQ(set.nccl_tests_version, "2.17.8");
  // "33554400 419430 double none -1 721.94 46.48 41.83 0 687.61 48.80 43.92 0": the size is
  // 32 MiB rounded down to a multiple of 10 ranks x 8 B.
  const Measurement& first = set.rows.front();
  EXPECT_EQ(first.operation, MeasuredOperation::of(CollectiveKind::kAllGather));
  EXPECT_EQ(first.ranks, 10u);
  EXPECT_EQ(first.nodes, 10u);
  EXPECT_EQ(first.gpus_per_node, 1u);
  EXPECT_EQ(first.size_bytes, 33554400u);
  EXPECT_EQ(first.count_elements, 419430u);
  EXPECT_EQ(first.redop, "none");
  EXPECT_DOUBLE_EQ(first.out_of_place.time_us, 721.94);
  EXPECT_DOUBLE_EQ(first.out_of_place.algbw_GBps, 46.48);
  EXPECT_DOUBLE_EQ(first.out_of_place.busbw_GBps.value(), 41.83);
  EXPECT_DOUBLE_EQ(first.in_place->time_us, 687.61);
  EXPECT_EQ(first.source, path + ":23");
  // "8589934560 107374182 double none -1 161737 53.11 47.80 0 159364 53.90 48.51 0"
  const Measurement& eight_gib = set.rows[8];
  EXPECT_EQ(eight_gib.size_bytes, 8589934560u);
  EXPECT_DOUBLE_EQ(eight_gib.out_of_place.time_us, 161737);
  EXPECT_DOUBLE_EQ(eight_gib.out_of_place.busbw_GBps.value(), 47.80);
  EXPECT_DOUBLE_EQ(eight_gib.in_place->time_us, 159364);
  EXPECT_DOUBLE_EQ(eight_gib.in_place->busbw_GBps.value(), 48.51);
  // busbw = algbw * (n-1)/n for AllGather on 10 ranks.
  EXPECT_NEAR(eight_gib.out_of_place.algbw_GBps * 0.9, eight_gib.out_of_place.busbw_GBps.value(), 0.01);
  ASSERT_EQ(set.reported_averages.size(), 1u);
  EXPECT_DOUBLE_EQ(set.reported_averages[0].avg_busbw_GBps, 46.7949);
}

TEST(NcclTestsLog, OneProcessDrivingEightGpusIsOneNode) {
  const MeasurementSet set = parse_nccl_tests_log(run_of("all_reduce", kRow), "t.log");
  ASSERT_EQ(set.rows.size(), 1u);
  EXPECT_EQ(set.rows[0].ranks, 8u);
  EXPECT_EQ(set.rows[0].nodes, 1u);
  EXPECT_EQ(set.rows[0].gpus_per_node, 8u);
  EXPECT_EQ(set.rows[0].gpus_per_thread, 8u);  // "nThread 1 nGpus 8": one thread drives 8
  EXPECT_EQ(set.device_name, "NVIDIA A100-SXM4-80GB");
  // One GPU a process (mpirun, srun): "nGpus 1".
  const std::string one = std::string(run_of("all_reduce", kRow)).replace(run_of("all_reduce", kRow).find("nGpus 8"), 7, "nGpus 1");
  EXPECT_EQ(parse_nccl_tests_log(one, "t.log").rows.at(0).gpus_per_thread, 1u);
}

// A table pasted with its command line and no parameter line: the command's -g says how many
// GPUs a thread drives, in each of getopt's spellings; a value that is no count is an error
// naming its line.
TEST(NcclTestsLog, ACommandLinesGpusOptionIsTheGpusAThread) {
  const std::string table = kColumnHeader + kRow;
  for (const auto& [option, gpus] : {std::pair{"-g 8", 8u}, {"-g4", 4u}, {"--ngpus 2", 2u}, {"--ngpus=8", 8u}}) {
    const std::string log = "mpirun -np 8 ./build/all_reduce_perf -b 1K -e 1K " + std::string(option) + "\n" + table;
    EXPECT_EQ(parse_nccl_tests_log(log, "t.log").rows.at(0).gpus_per_thread, gpus) << option;
  }
  EXPECT_EQ(parse_nccl_tests_log("./build/all_reduce_perf -b 1K\n" + table, "t.log").rows.at(0).gpus_per_thread, 0u);
  const std::string error = error_of("./build/all_reduce_perf -b 1K -g eight\n" + table);
  EXPECT_CONTAINS(error, "t.log:1: -g (GPUs a thread)");
  EXPECT_CONTAINS(error, "eight");
}

TEST(NcclTestsLog, MpiRanksCountNodesByHost) {
  const auto row_on = [](const std::vector<std::string>& hosts) {
    return parse_nccl_tests_log(run_of("all_reduce", kRow, hosts), "t.log").rows.at(0);
  };
  const Measurement even = row_on({"a", "a", "a", "a", "b", "b", "b", "b"});
  EXPECT_EQ(even.ranks, 8u);
  EXPECT_EQ(even.nodes, 2u);
  EXPECT_EQ(even.gpus_per_node, 4u);
  const Measurement uneven = row_on({"a", "a", "a", "b"});
  EXPECT_EQ(uneven.ranks, 4u);
  EXPECT_EQ(uneven.nodes, 2u);
  EXPECT_EQ(uneven.gpus_per_node, 0u);  // no one number of GPUs per node
}

TEST(NcclTestsLog, SeveralRunsInOneLog) {
  const std::string broadcast_row = R"(        1024           256     float    none       0    10.07    0.10    0.10       0    10.01    0.10    0.10       0
)";
  const MeasurementSet set = parse_nccl_tests_log(
      run_of("all_reduce", kRow) + "\n" + run_of("broadcast", broadcast_row), "t.log");
  ASSERT_EQ(set.rows.size(), 2u);
  EXPECT_EQ(set.rows[0].operation, MeasuredOperation::of(CollectiveKind::kAllReduce));
  EXPECT_EQ(set.rows[0].root, -1);
  EXPECT_EQ(set.rows[1].operation, MeasuredOperation::of(CollectiveKind::kBroadcast));
  EXPECT_EQ(set.rows[1].root, 0);
  EXPECT_DOUBLE_EQ(set.rows[1].out_of_place.time_us, 10.07);
  EXPECT_EQ(set.reported_averages.size(), 2u);
}

TEST(NcclTestsLog, NotApplicableFields) {
  // #wrong N/A: not checked. An in-place group all N/A: not measured.
  const std::string row = R"(        1024           256     float     sum      -1    20.15    0.05    0.09     N/A        N/A     N/A     N/A     N/A
)";
  const Measurement read = parse_nccl_tests_log(run_of("sendrecv", row), "t.log").rows.at(0);
  EXPECT_TRUE(read.operation.is_p2p());
  EXPECT_DOUBLE_EQ(read.out_of_place.time_us, 20.15);
  EXPECT_FALSE(read.out_of_place.wrong_elements.has_value());
  EXPECT_FALSE(read.in_place.has_value());
}

TEST(NcclTestsLog, SkipsNcclDebugLinesAndReadsTheirVersion) {
  const std::string info = "node-a:12345:12345 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n";
  const std::string channel =
      "node-a:12345:12390 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n";
  const MeasurementSet set =
      parse_nccl_tests_log(info + run_of("all_reduce", channel + kRow + kRow), "t.log");
  EXPECT_EQ(set.rows.size(), 2u);
  EXPECT_EQ(set.nccl_version, "2.18.3");  // the NCCL line, before nccl-library=22902
}

// Open MPI counts the help messages it did not repeat in a line of its own, wherever the run
// is (orte/util/show_help.c, "%d more process%s sent help message %s / %s"), as in a -g 1 run
// of 8 A100s under mpirun: between the header and the first row, and between two rows.
TEST(NcclTestsLog, SkipsOpenMpisCountOfHelpMessages) {
  const std::string many = "8 more processes have sent help message help-mtl-ofi.txt / OFI call fail\n";
  const std::string one = "1 more process has sent help message help-mtl-ofi.txt / OFI call fail\n";
  const MeasurementSet set = parse_nccl_tests_log(one + run_of("all_reduce", many + kRow + one + kRow), "t.log");
  ASSERT_EQ(set.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(set.rows[1].out_of_place.time_us, 20.15);
  // A line of the same start that is not Open MPI's is still a row, and a bad one.
  const std::string other = "8 more rows follow\n";
  EXPECT_CONTAINS(
      error_of(run_of("all_reduce", kRow + other)),
      "t.log:" + line_of(run_of("all_reduce", kRow + other), "8 more rows") + ": 4 fields where a row has 13");
}
// Before its version line, nccl-tests printed no "Collective test starting" and no Group;
// its oldest releases no root column, and an "error" column (the largest deviation) where
// #wrong is now. The program is named by the command line before the output. The layout is
// nccl-tests' of that time; the numbers are made up to fit it (algbw = size / time,
// busbw = 1.75 algbw on 8 ranks).
TEST(NcclTestsLog, OldestLayoutWithoutRootColumn) {
  std::string devices;
  for (int r = 0; r < 8; ++r) {
    devices += "#   Rank  " + std::to_string(r) + " Pid  21330 on     dgx-01 device  " +
               std::to_string(r) + " [0x07] Tesla V100-SXM2-32GB\n";
  }
  const std::string log = R"(./build/all_reduce_perf -b 8 -e 32M -f 2 -g 8
# nThread 1 nGpus 8 minBytes 8 maxBytes 33554432 step: 2(factor) warmup iters: 5 iters: 20 validation: 1 
#
# Using devices
)" + devices + R"(#
#                                                     out-of-place                       in-place
#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           8             2   float     sum    42.86    0.00    0.00  2e-07    42.18    0.00    0.00  1e-07
    33554432       8388608   float     sum    390.7   85.88  150.29  5e-07    389.9   86.06  150.60  5e-07
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 75.2225 
)";
  const MeasurementSet set = parse_nccl_tests_log(log, "old.log");
  ASSERT_EQ(set.rows.size(), 2u);
  const Measurement& row = set.rows[1];
  EXPECT_EQ(row.operation, MeasuredOperation::of(CollectiveKind::kAllReduce));
  EXPECT_EQ(row.ranks, 8u);
  EXPECT_EQ(row.nodes, 1u);
  EXPECT_EQ(row.root, -1);
  EXPECT_DOUBLE_EQ(row.out_of_place.time_us, 390.7);
  EXPECT_DOUBLE_EQ(row.in_place->busbw_GBps.value(), 150.60);
  EXPECT_FALSE(row.out_of_place.wrong_elements.has_value());  // a deviation, not a count
  EXPECT_EQ(set.device_name, "Tesla V100-SXM2-32GB");
  EXPECT_TRUE(set.nccl_version.empty());
  EXPECT_DOUBLE_EQ(set.reported_averages.at(0).avg_busbw_GBps, 75.2225);
}

// Later releases printed a root column, left empty for root -1. Each program's run follows
// its command line.
TEST(NcclTestsLog, EmptyRootFieldOfReleasesBeforeTheVersionLine) {
  const std::string log = R"(mpirun -np 8 ./build/all_reduce_perf_mpi -b 1M -e 1M
#       size         count      type   redop    root     time   algbw   busbw  error     time   algbw   busbw  error
     1048576        262144     float     sum             27.04   38.78   67.86  5e-07    26.91   38.97   68.19  5e-07
# Avg bus bandwidth    : 68.025 
mpirun -np 8 ./build/broadcast_perf_mpi -b 1M -e 1M
#       size         count      type   redop    root     time   algbw   busbw  error     time   algbw   busbw  error
     1048576        262144     float    none       0    19.66   53.34   53.34  0e+00    19.50   53.77   53.77  0e+00
)";
  const MeasurementSet set = parse_nccl_tests_log(log, "mid.log");
  ASSERT_EQ(set.rows.size(), 2u);
  EXPECT_EQ(set.rows[0].root, -1);
  EXPECT_DOUBLE_EQ(set.rows[0].out_of_place.time_us, 27.04);
  EXPECT_DOUBLE_EQ(set.rows[0].in_place->busbw_GBps.value(), 68.19);
  EXPECT_EQ(set.rows[1].operation, MeasuredOperation::of(CollectiveKind::kBroadcast));
  EXPECT_EQ(set.rows[1].root, 0);
  EXPECT_DOUBLE_EQ(set.rows[1].out_of_place.algbw_GBps, 53.34);
}

TEST(NcclTestsLog, NcclVersionFromItsCode) {
  EXPECT_EQ(nccl_version_from_code(22902), "2.29.2");
  EXPECT_EQ(nccl_version_from_code(21803), "2.18.3");
  EXPECT_EQ(nccl_version_from_code(2708), "2.7.8");  // before 2.9: X*1000 + Y*100 + Z
}

// nccl-tests also ships gather_perf, scatter_perf and hypercube_perf, which a script that runs
// every test puts in one log: their runs are left out, each named once with its rows, and the
// rest read. A log of nothing else is an error that names them.
TEST(NcclTestsLog, RunsOfOperationsWithoutAModelAreLeftOutAndSaidSo) {
  const std::string gather = "./build/gather_perf -b 1K -e 1K -g 8\n" + run_of("gather", kRow + kRow);
  const std::string log = run_of("all_reduce", kRow) + gather + run_of("scatter", kRow);
  const MeasurementSet set = parse_nccl_tests_log(log, "t.log");
  ASSERT_EQ(set.rows.size(), 1u);
  EXPECT_EQ(set.rows[0].operation.collective, CollectiveKind::kAllReduce);
  ASSERT_EQ(set.left_out.size(), 2u);
  EXPECT_EQ(set.left_out[0].test, "gather");
  EXPECT_EQ(set.left_out[0].rows, 2u);
  EXPECT_EQ(set.left_out[0].source, "t.log:" + line_of(log, "./build/gather_perf"));  // its first line
  EXPECT_EQ(left_out_text(set.left_out), "gather (2 rows, t.log:" + line_of(log, "./build/gather_perf") +
                                             "), scatter (1 row, t.log:" + line_of(log, "starting: scatter_perf") +
                                             ")");
  // Logs older than the "Collective test starting" line name each program by its command
  // line alone, and may have no footer between runs.
  const std::string old_layout = "./build/gather_perf -g 8\n" + kRow + kRow + "./build/all_reduce_perf -g 8\n" + kRow;
  const MeasurementSet old_set = parse_nccl_tests_log(old_layout, "t.log");
  ASSERT_EQ(old_set.rows.size(), 1u);
  EXPECT_EQ(old_set.rows[0].operation.collective, CollectiveKind::kAllReduce);
  ASSERT_EQ(old_set.left_out.size(), 1u);
  EXPECT_EQ(old_set.left_out[0].rows, 2u);
  const std::string alone = run_of("gather", kRow);
  EXPECT_CONTAINS(error_of(alone),
                  "t.log: no rows of an operation commsim predicts: its runs are of gather "
                  "(1 row, t.log:" +
                      line_of(alone, "starting: gather_perf") + ") (operations: allreduce, allgather, reducescatter");
}

// Runs whose times hold more or less than calls issued back to back say so: blocking calls
// (-z, the header's "Blocking Enabled" line, src/util.cu writeDeviceReport), CUDA graph
// launches (-G, "graph: N" of the parameter line) and aggregated calls (-m, "agg iters: N").
// Each is noted once, where it first shows.
TEST(NcclTestsLog, BlockingCallsAndGraphLaunchesAreNoted) {
  std::string blocking = run_of("all_reduce", kRow);
  blocking.insert(blocking.find("#\n# Using devices"),
                  "# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
  std::string graphs = run_of("all_gather", kRow);
  graphs.replace(graphs.find("graph: 0"), 8, "graph: 2");
  const std::string log = blocking + graphs + blocking;
  const MeasurementSet set = parse_nccl_tests_log(log, "t.log");
  EXPECT_EQ(set.rows.size(), 3u);
  ASSERT_EQ(set.timing_notes.size(), 2u);
  EXPECT_EQ(set.timing_notes[0],
            "blocking calls (nccl-tests -z: wait and barrier after each inner iteration (-m)): each time holds the "
            "host's wait on the call, which commsim does not predict (t.log:" +
                line_of(log, "Blocking Enabled") + ")");
  EXPECT_EQ(set.timing_notes[1],
            "calls launched from CUDA graphs (nccl-tests -G 2): their launch costs less than the library's thread "
            "term commsim adds (t.log:" +
                line_of(log, "graph: 2") + ")");
  EXPECT_TRUE(parse_nccl_tests_log(run_of("all_reduce", kRow), "t.log").timing_notes.empty());
  std::string aggregated = run_of("all_reduce", kRow);
  aggregated.replace(aggregated.find("agg iters: 1"), 12, "agg iters: 4");
  const MeasurementSet grouped = parse_nccl_tests_log(aggregated, "t.log");
  ASSERT_EQ(grouped.timing_notes.size(), 1u);
  EXPECT_EQ(grouped.timing_notes[0],
            "4 calls aggregated in one group (nccl-tests -m 4): one launch serves them all, where commsim adds the "
            "library's thread term to each (t.log:3)");
  graphs.replace(graphs.find("graph: 2"), 8, "graph: x");
  EXPECT_CONTAINS(error_of(graphs), "t.log:3: graph: ");
  aggregated.replace(aggregated.find("agg iters: 4"), 12, "agg iters: 0");
  EXPECT_CONTAINS(error_of(aggregated), "t.log:3: agg iters: ");
}

// The layouts of newer nccl-tests, as src/util.cu's writeResultHeader and
// writeBenchmarkLineBody print them (the header's first line, "out-of-place  in-place", left
// out): -S 1 ends each row with its local time, two fields; the per-iteration report adds
// i_min, i_max, i_p99 and i_cv% after each group. The times are the groups' own.
TEST(NcclTestsLog, TimestampAndPerIterationColumns) {
  const std::string timestamped = run_start("all_reduce") + device_lines(kOneHost) + R"(#
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong           timestamp
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)           %Y-%m-%d %H:%M:%S
        1024           256     float     sum      -1    20.15    0.05    0.09       0    19.80    0.05    0.09       0  2026-09-26 10:00:00
)" + run_end("all_reduce");
  const std::string per_iteration = run_start("all_reduce") + device_lines(kOneHost) + R"(#
#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv% 
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%)     (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%) 
        1024           256     float     sum      -1    20.15    0.05    0.09       0    18.90    25.10    24.80     6.20    19.80    0.05    0.09       0    18.70    24.00    23.90     5.10
)" + run_end("all_reduce");
  for (const std::string& log : {timestamped, per_iteration}) {
    const MeasurementSet set = parse_nccl_tests_log(log, "t.log");
    ASSERT_EQ(set.rows.size(), 1u);
    EXPECT_EQ(set.rows[0].size_bytes, 1024u);
    EXPECT_DOUBLE_EQ(set.rows[0].out_of_place.time_us, 20.15);
    ASSERT_TRUE(set.rows[0].in_place);
    EXPECT_DOUBLE_EQ(set.rows[0].in_place->time_us, 19.80);
  }
  // A row cut before its time of day is short of the header's fields.
  const std::string cut = timestamped.substr(0, timestamped.find(" 10:00:00")) + "\n" + run_end("all_reduce");
  EXPECT_CONTAINS(error_of(cut), "14 fields where a row has 15");
  EXPECT_CONTAINS(error_of(cut), "#wrong date time-of-day)");
}

// -C 1 prints the host's time to launch an iteration (common.cu: cputimeSec is read before
// the collective completes), which no model of the collective predicts.
TEST(NcclTestsLog, CpuTimeTablesAreRefused) {
  const std::string log = run_start("all_reduce") + device_lines(kOneHost) + R"(#
#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong 
        1024           256     float     sum      -1     4.15    0.05    0.09       0     4.10    0.05    0.09       0
)" + run_end("all_reduce");
  EXPECT_CONTAINS(error_of(log), "t.log:" + line_of(log, "cputime") +
                                     ": the table's times are 'cputime': the host's time to launch an iteration "
                                     "(nccl-tests -C 1), not the collective's");
}

TEST(NcclTestsLog, SizeThatIsNotANumber) {
  const std::string log = run_of("all_reduce", R"(       1024x           256     float     sum      -1    20.15    0.05    0.09       0    19.80    0.05    0.09       0
)");
  EXPECT_CONTAINS(error_of(log), "t.log:" + line_of(log, "1024x") +
                                     ": size (bytes): expected a whole number, got '1024x'");
}

TEST(NcclTestsLog, TruncatedRows) {
  const std::string cut = "        1024           256     float     sum      -1    20.15    0.05\n";
  const std::string log = run_of("all_reduce", kRow + cut);
  EXPECT_CONTAINS(error_of(log), "t.log:" + line_of(log, "0.05\n") +
                                     ": 7 fields where a row has 13 (size count type redop root "
                                     "time algbw busbw #wrong time algbw busbw #wrong)");
  // One field short: a release with the version line prints the root always, so this is no
  // empty root field but a cut row.
  const std::string short_row = kRow.substr(0, kRow.rfind('0')) + "\n";
  EXPECT_CONTAINS(error_of(run_of("all_reduce", short_row)), "12 fields where a row has 13");
}

TEST(NcclTestsLog, BadFieldValues) {
  const std::string not_measured = run_of("all_reduce", R"(        1024           256     float     sum      -1      N/A     N/A     N/A     N/A    19.80    0.05    0.09       0
)");
  EXPECT_CONTAINS(error_of(not_measured),
                  "t.log:" + line_of(not_measured, "N/A") + ": the out-of-place time is N/A");
  const std::string fast = run_of("all_reduce", R"(        1024           256     float     sum      -1     fast    0.05    0.09       0    19.80    0.05    0.09       0
)");
  EXPECT_CONTAINS(error_of(fast), "t.log:" + line_of(fast, "fast") +
                                      ": out-of-place time (us): cannot parse 'fast'");
  const std::string gpus = std::string(run_of("all_reduce", kRow)).replace(run_of("all_reduce", kRow).find("nGpus 8"), 7,
                                                                          "nGpus eight");
  EXPECT_CONTAINS(error_of(gpus), "t.log:3: nGpus");
  const std::string wrong = run_of("all_reduce", R"(        1024           256     float     sum      -1    20.15    0.05    0.09       0    19.80    0.05    0.09      x1
)");
  EXPECT_CONTAINS(error_of(wrong), "t.log:" + line_of(wrong, "x1") +
                                       ": in-place #wrong: expected a whole number, got 'x1'");
  EXPECT_CONTAINS(
      error_of("# Collective test starting: all_reduce_perf\n#  Rank  0 Group  0 Pid  12345\n"),
      "t.log:2: device line of rank 0 without 'on HOST'");
}

// Every line of `text` with `tag` before it, as a launcher labels a rank's output.
std::string tagged(const std::string& text, const std::string& tag) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    out += tag + text.substr(start, end - start + 1);
  }
  return out;
}

TEST(NcclTestsLog, ReadsPastALaunchersTagOnEachLine) {
  const std::string plain = run_of("all_reduce", kRow);
  const MeasurementSet expected = parse_nccl_tests_log(plain, "t.log");
  ASSERT_EQ(expected.rows.size(), 1u);
  // Open MPI --tag-output, MPICH -prepend-rank / Intel MPI -l, Slurm srun --label.
  for (const std::string tag : {"[1,0]<stdout>:", "[0] ", "  0: ", "12: "}) {
    SCOPED_TRACE(tag);
    const MeasurementSet set = parse_nccl_tests_log(tagged(plain, tag), "t.log");
    ASSERT_EQ(set.rows.size(), 1u);
    EXPECT_EQ(set.rows[0].operation.collective, CollectiveKind::kAllReduce);
    EXPECT_EQ(set.rows[0].size_bytes, 1024u);
    EXPECT_EQ(set.rows[0].ranks, 8u);
    EXPECT_DOUBLE_EQ(set.rows[0].out_of_place.time_us, 20.15);
    EXPECT_EQ(set.nccl_tests_version, expected.nccl_tests_version);
  }
}

TEST(NcclTestsLog, ATagIsOnlyARankNumberInBracketsOrBeforeAColon) {
  EXPECT_EQ(without_launcher_tag("[3]         1024   256"), "         1024   256");
  EXPECT_EQ(without_launcher_tag("[2,5]<stderr>:# Using devices"), "# Using devices");
  EXPECT_EQ(without_launcher_tag("  7:         1024"), "         1024");
  // Not tags: a data row, NCCL's own line, a bracket that is no rank, a word before a colon.
  for (const char* line : {"        1024           256     float", "host:12:34 [0] NCCL INFO x", "[x] 1024",
                           "[] 1024", "# Out of bounds values : 0 OK", "1024"}) {
    EXPECT_EQ(without_launcher_tag(line), line) << line;
  }
}

TEST(NcclTestsLog, LogsWithoutRowsOrWithoutATestName) {
  // The message names the last line: where the log ended without a row.
  const std::string empty_run = run_of("all_reduce", "");
  const auto last_line = std::count(empty_run.begin(), empty_run.end(), '\n');
  EXPECT_CONTAINS(error_of(empty_run),
                  "t.log:" + std::to_string(last_line) + ": no data rows in the log");
  EXPECT_CONTAINS(error_of(""), "t.log:1: no data rows in the log");
  EXPECT_CONTAINS(error_of(kRow), "t.log:1: a data row, but no line before it names the test");
}

}  // namespace
}  // namespace commsim
