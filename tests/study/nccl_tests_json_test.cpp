#include "study/nccl_tests_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "study/read_measurements.h"
#include "study_test_support.h"

namespace commsim {
namespace {

using testing::input_error_of;

// The devices of a run, as writeDeviceReport (src/util.cu) writes each one.
std::string devices(const std::vector<std::string>& hosts, int gpus_per_host) {
  std::string out;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    out += std::string(r ? "," : "") + R"({"rank":)" + std::to_string(r) + R"(,"group":0,"pid":12345,"hostname":")" +
           hosts[r] + R"(","device":)" + std::to_string(static_cast<int>(r) % gpus_per_host) +
           R"(,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"})";
  }
  return out;
}

// A report as nccl-tests -J writes it (src/util.cu, JSON_FILE_VERSION 2): no white space,
// doubles as %lf, the root as "%6i", booleans as the strings "true" and "false", null where
// a value was not measured. `results` goes between the brackets of "results".
std::string report(const std::string& program, const std::string& results,
                   const std::vector<std::string>& hosts = std::vector<std::string>(8, "node-a"), int ngpus = 8) {
  return R"({"version":2,"start_time":"2026-09-26 10:00:00","args":[")" + program +
         R"(","-b","1K","-e","2K","-g","8","-J","r.json"],"env":["PATH=/usr/bin"],"nccl_version":22902,)"
         R"("config":{"nthreads":1,"ngpus":)" +
         std::to_string(ngpus) +
         R"(,"minimum_bytes":1024,"maximum_bytes":2048,"step_factor":2,"warmup_iters":5,"iterations":20,)"
         R"("aggregated_iterations":1,"validation":1,"graph":0,"blocking_collectives":"false",)"
         R"("per_iter_timing":"false","parallel_init":"false","devices":[)" +
         devices(hosts, ngpus) + R"(]},"results":[)" + results +
         R"(],"out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":0.090000,)"
         R"("okay":"unchecked"},"errors":[],"end_time":"2026-09-26 10:00:05"})";
}

const std::string kTwoRows =
    R"({"size":1024,"count":256,"type":"float","redop":"sum","root":"    -1",)"
    R"("out_of_place":{"time":20.150000,"alg_bw":0.050000,"bus_bw":0.090000,"nwrong":0.000000},)"
    R"("in_place":{"time":19.800000,"alg_bw":0.050000,"bus_bw":0.090000,"nwrong":null},)"
    R"("actual_iterations":20,"experiment_name":""},)"
    R"({"size":2048,"count":512,"type":"float","redop":"sum","root":"    -1",)"
    R"("out_of_place":{"time":21.000000,"alg_bw":0.100000,"bus_bw":0.170000,"nwrong":0.000000},)"
    R"("in_place":null,"actual_iterations":20,"experiment_name":""})";

std::string error_of(const std::string& json) {
  return input_error_of([&] { parse_nccl_tests_json(json, "r.json"); });
}

TEST(NcclTestsJson, RowsAndTheRunTheyCameFrom) {
  const std::string json = report("./build/all_reduce_perf", kTwoRows);
  EXPECT_EQ(detect_measurement_format("\n  " + json, "r.json"), MeasurementFormat::kNcclTestsJson);
  const MeasurementSet set = parse_measurements(json, "r.json");
  ASSERT_EQ(set.rows.size(), 2u);
  const Measurement& first = set.rows[0];
  EXPECT_EQ(first.operation.collective, CollectiveKind::kAllReduce);
  EXPECT_EQ(first.ranks, 8u);
  EXPECT_EQ(first.nodes, 1u);
  EXPECT_EQ(first.gpus_per_node, 8u);
  EXPECT_EQ(first.gpus_per_thread, 8u);
  EXPECT_EQ(first.size_bytes, 1024u);
  EXPECT_EQ(first.count_elements, 256u);
  EXPECT_EQ(first.type, "float");
  EXPECT_EQ(first.redop, "sum");
  EXPECT_EQ(first.root, -1);
  EXPECT_DOUBLE_EQ(first.out_of_place.time_us, 20.15);
  EXPECT_DOUBLE_EQ(first.out_of_place.algbw_GBps, 0.05);
  EXPECT_DOUBLE_EQ(*first.out_of_place.busbw_GBps, 0.09);
  EXPECT_EQ(first.out_of_place.wrong_elements, 0u);
  ASSERT_TRUE(first.in_place);
  EXPECT_DOUBLE_EQ(first.in_place->time_us, 19.8);
  EXPECT_FALSE(first.in_place->wrong_elements);  // null: not checked
  EXPECT_EQ(first.source, "r.json: results[0]");
  EXPECT_FALSE(set.rows[1].in_place);  // null: not measured
  EXPECT_EQ(set.nccl_version, "2.29.2");
  EXPECT_EQ(set.device_name, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(set.reported_averages.size(), 1u);
  EXPECT_DOUBLE_EQ(set.reported_averages[0].avg_busbw_GBps, 0.09);
}

TEST(NcclTestsJson, MpiRanksCountNodesByHost) {
  std::vector<std::string> hosts(4, "node-a");
  hosts.insert(hosts.end(), 4, "node-b");
  const MeasurementSet set = parse_nccl_tests_json(report("all_gather_perf_mpi", kTwoRows, hosts, 1), "r.json");
  EXPECT_EQ(set.rows[0].operation.collective, CollectiveKind::kAllGather);
  EXPECT_EQ(set.rows[0].ranks, 8u);
  EXPECT_EQ(set.rows[0].nodes, 2u);
  EXPECT_EQ(set.rows[0].gpus_per_node, 4u);
  EXPECT_EQ(set.rows[0].gpus_per_thread, 1u);
}

// nccl-tests 2.18's reports (JSON_FILE_VERSION 3) add per-iteration timing (-I 1: an
// "out_of_place_per_iter" object beside each placement, its "times_us" a list) and bitwise
// repeatability (-B N: "bitwise" inside each placement); the rows read as before.
TEST(NcclTestsJson, VersionThreeReadsAsTwo) {
  std::string rows = kTwoRows;
  const std::string bitwise =
      R"(,"bitwise":{"repeats":2,"different_elements":0,"different_bits":0,"first_repeat":null,)"
      R"("first_rank":null,"first_element":null,"first_bit":null})";
  rows.insert(rows.find(R"(},"in_place")"), bitwise);
  rows.insert(rows.find(R"(,"actual_iterations")"),
              R"(,"out_of_place_per_iter":{"skipped_iterations":0,"min_us":19.9,"max_us":20.6,"avg_us":20.15,)"
              R"("p50_us":20.1,"p95_us":20.5,"p99_us":20.6,"stdev_us":0.2,"cv_pct":1.0,"times_us":[19.9,20.6]})");
  std::string three = report("all_reduce_perf", rows);
  three.replace(three.find(R"("version":2)"), 11, R"("version":3)");
  const MeasurementSet set = parse_nccl_tests_json(three, "r.json");
  const MeasurementSet two = parse_nccl_tests_json(report("all_reduce_perf", kTwoRows), "r.json");
  ASSERT_EQ(set.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(set.rows[0].out_of_place.time_us, two.rows[0].out_of_place.time_us);
  EXPECT_EQ(set.rows[0].out_of_place.wrong_elements, 0u);
  EXPECT_DOUBLE_EQ(set.rows[1].out_of_place.time_us, 21.0);
}

TEST(NcclTestsJson, BlockingCallsAndGraphLaunchesAreNoted) {
  EXPECT_TRUE(parse_nccl_tests_json(report("all_reduce_perf", kTwoRows), "r.json").timing_notes.empty());
  std::string json = report("all_reduce_perf", kTwoRows);
  json.replace(json.find(R"("graph":0)"), 9, R"("graph":1)");
  json.replace(json.find(R"("blocking_collectives":"false")"), 30, R"("blocking_collectives":"true")");
  json.replace(json.find(R"("aggregated_iterations":1)"), 25, R"("aggregated_iterations":8)");
  const MeasurementSet set = parse_nccl_tests_json(json, "r.json");
  ASSERT_EQ(set.timing_notes.size(), 3u);
  EXPECT_CONTAINS(set.timing_notes[2], "8 calls aggregated in one group (nccl-tests -m 8): ");
  EXPECT_CONTAINS(set.timing_notes[0], "blocking calls (nccl-tests -z: blocking_collectives true): ");
  EXPECT_CONTAINS(set.timing_notes[0], " (r.json)");
  EXPECT_CONTAINS(set.timing_notes[1], "calls launched from CUDA graphs (nccl-tests -G 1): ");
}

TEST(NcclTestsJson, BadReportsSayWhatAndWhere) {
  EXPECT_CONTAINS(error_of("{\"version\":2,"), "r.json: not an nccl-tests JSON report: ");
  EXPECT_CONTAINS(error_of(R"({"name":"h100-nvswitch-node","builder":{"kind":"SWITCH"}})"),
                  "r.json: JSON, but no nccl-tests report: it has neither args nor results");
  EXPECT_CONTAINS(error_of(R"({"version":2,"results":[{"size":8}]})"),
                  "r.json: the report has no args, so no program names its test");
  EXPECT_CONTAINS(error_of(report("./run.sh", kTwoRows)), "r.json: args[0] './run.sh' is no nccl-tests program");
  EXPECT_CONTAINS(error_of(report("./build/gather_perf", kTwoRows)),
                  "r.json: no rows of an operation commsim predicts: its runs are of gather (2 rows, r.json) "
                  "(operations: allreduce, ");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", "")), "r.json: no results in the report");
  std::string cpu = kTwoRows;
  cpu.replace(cpu.find("\"time\":21"), 6, "\"cpu_time\"");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", cpu)),
                  "r.json: results[1].out_of_place: 'cpu_time' is the host's time to launch an iteration "
                  "(nccl-tests -C 1), not the collective's; measure without -C");
  std::string rootless = kTwoRows;
  rootless.replace(rootless.find("\"    -1\""), 8, "\"x\"");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", rootless)),
                  "r.json: results[0]: root: expected -1 (no root) or a rank, got 'x'");
  // Times and bandwidths are held to what a log's are.
  const auto with = [](std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
  };
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", with(kTwoRows, R"("time":21.000000)", R"("time":0.000000)"))),
                  "r.json: results[1]: out_of_place time (us): 0 is not positive");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", with(kTwoRows, R"("bus_bw":0.170000)", R"("bus_bw":-0.170000)"))),
                  "r.json: results[1]: out_of_place busbw (GB/s): -0.17 is negative");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", with(kTwoRows, R"("nwrong":0.000000)", R"("nwrong":0.500000)"))),
                  "r.json: results[0].out_of_place.nwrong: 0.5 is not a count of elements");
  std::string unmeasured = kTwoRows;
  const std::string measured = R"("out_of_place":{"time":21.000000,"alg_bw":0.100000,"bus_bw":0.170000,"nwrong":0.000000})";
  unmeasured.replace(unmeasured.find(measured), measured.size(), R"("out_of_place":null)");
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", unmeasured)), "r.json: results[1]: no out_of_place result");
  // A time that is not a number, as jsonDouble writes it ("nan", a string).
  EXPECT_CONTAINS(error_of(report("all_reduce_perf", with(kTwoRows, R"("time":21.000000)", R"("time":"nan")"))),
                  "r.json: not an nccl-tests JSON report: ");
}

}  // namespace
}  // namespace commsim
