// commsim replay: exit status 2 on deadlocks and bad options; CSV and timeline output.

#include <gtest/gtest.h>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::string kSamples = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/chakra-samples/";

TEST(CliReplay, BadInputAndDeadlocks) {
  expect_error({"replay"}, "give one of --trace FILE or --chakra PREFIX");
  expect_report({"replay", "--chakra", kSamples + "generator/one_comm_send_node"},
                "replay deadlock: 8 nodes wait on communication that never comes", "has no matching receive");
  expect_report({"replay", "--chakra", kSamples + "generator/one_comm_recv_node"},
                "replay deadlock: 8 nodes wait on communication that never comes", "has no matching send");
  expect_error({"replay", "--chakra", "/nonexistent/prefix"}, "/nonexistent/prefix.0.et");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--algorithm", "allreduce=butterfly"},
                "--algorithm 'allreduce=butterfly': unknown algorithm 'butterfly' (known: ring,");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--topology", "ring", "--npus", "4"},
                "rank");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_TO_ALL", "--algorithm", "alltoall=ring"},
                "algorithm 'ring' does not implement alltoall");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--link-tracks"}, "--link-tracks goes with --timeline");
  expect_error({"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto"), "--comm-groups", "g.json"},
                "--comm-groups goes with --chakra");
  expect_error({"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto"), "--bandwidth", "1GB/s"},
                "--bandwidth needs --topology KIND");
}

TEST(CliReplay, SendAndReceiveOfDifferentSizes) {
  const std::string trace = tmp_path("size-mismatch.textproto");
  write_file(trace,
             "ranks { nodes { id: 1 send { peer: 1 size: \"1M\" tag: 3 } } }\n"
             "ranks { nodes { id: 2 name: \"r\" recv { peer: 0 size: \"1K\" tag: 3 } } }\n");
  expect_error({"replay", "--trace", trace},
                "mismatched send and receive (0 -> 1 tag 3): send (" + trace + ": rank 0: node 1) is 1048576 B, but "
                "receive (" + trace + ": rank 1: node 2 (r)) is 1024 B");
}

TEST(CliReplay, LibraryCostsApplyToEveryCollective) {
  // The sample is one 64 MiB ring AllReduce on the 8-GPU node (datasheet): 267.979 us on the wire.
  // Under nccl the closed form picks Simple there (see collective), which adds its call
  // latency and 14 steps of 3.4 us: 8.4 + 47.6 = 56 us.
  const std::string trace = source_path("workloads/allreduce-8ranks.textproto");
  const CliResult ideal = run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100()});
  ASSERT_EQ(ideal.status, 0) << ideal.err;
  EXPECT_NE(ideal.out.find("# total time 267.979 us"), std::string::npos) << ideal.out;
  const CliResult nccl = run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library", "nccl"});
  ASSERT_EQ(nccl.status, 0) << nccl.err;
  EXPECT_NE(nccl.out.find("# total time 323.979 us"), std::string::npos) << nccl.out;
  // LL forced: 6.6 us + 14 steps of (0.6 + 0.5 us + 8 MiB at min(0.5 x 450, 141) GB/s, i.e.
  // 59.493674 us) = 6.6 + 15.4 + 832.911 = 854.911 us.
  const CliResult ll =
      run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library", "nccl", "--protocol", "ll"});
  ASSERT_EQ(ll.status, 0) << ll.err;
  EXPECT_NE(ll.out.find("# total time 854.911 us"), std::string::npos) << ll.out;
}

TEST(CliReplay, PipelineSampleCsvAndTimeline) {
  const std::string csv = tmp_path("replay.csv");
  const std::string timeline = tmp_path("replay.json");
  const CliResult r = run_commsim({"replay", "--chakra", kSamples + "pipeline-4stages-8micro-1MiB/pipe", "--topology",
                                   "ring", "--npus", "4", "--bandwidth", "50GiB/s", "--latency", "500ns", "--csv", csv,
                                   "--timeline", timeline, "--link-tracks"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# total time 1160.094 us"), std::string::npos) << r.out;
  // Stage 0 computes 8 x 100 us and sends its last activation: 800 + 20.03125 us, of which
  // the last send is exposed.
  const std::string rows = read_file(csv);
  EXPECT_EQ(rows.substr(0, rows.find('\n', rows.find('\n') + 1) + 1),
            "rank,finish_time_us,compute_us,exposed_comm_us\n0,820.031250,800.000000,20.031250\n");
  const std::string json = read_file(timeline);
  EXPECT_NE(json.find("\"name\": \"fwd_m0\", \"cat\": \"compute\""), std::string::npos) << json.substr(0, 800);
  EXPECT_NE(json.find("\"name\": \"npu0 -> npu1\""), std::string::npos);
  EXPECT_NE(json.find("\"cat\": \"link\""), std::string::npos);
}

}  // namespace
}  // namespace commsim::testing
