// commsim pipeline: bad input, closed-form agreement through the CLI, compare, timeline.

#include <gtest/gtest.h>

#include "run_cli.h"

namespace commsim::testing {
namespace {

TEST(CliPipeline, LibraryCostsEveryBoundaryTransfer) {
  // 1F1B, 4 stages on the default ring of 4 NPUs (450 GB/s, 250 ns), 32 MiB activations.
  // Under nccl each transfer is one call; the closed form picks Simple: 8.4 + 3.4 + 0.25 us
  // + 33554432 B / 450 GB/s = 86.6155 us (LL128: 97.2 us; LL: 245.4 us). With P2P the model
  // adds 2(p - 1) = 6 of them to 33,000 us: 33,519.69 us.
  const CliResult r = run_commsim({"pipeline", "--stages", "4", "--microbatches", "8", "--library", "nccl"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "; library nccl, protocol simple\n");
  EXPECT_CONTAINS(r.out, "model 33000.00 us without communication, 33519.69 us with P2P");
}

TEST(CliPipeline, SpreadPutsAStageOnEachNode) {
  // 4 stages on 4 nodes of 8 GPUs: NPUs 0, 8, 16, 24, each boundary across the network, GPU
  // to NIC to switch to NIC to GPU: 2 x 1 us + 33554432 B / 50 GB/s = 673.09 us, six of them
  // on 1F1B's 33,000 us: 37,038.53 us (linear keeps them in node 0, on NVLink).
  const CliResult r =
      run_commsim({"pipeline", "--topology", "hierarchical", "--nodes", "4", "--stages", "4", "--placement", "spread"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "model 33000.00 us without communication, 37038.53 us with P2P");
  for (const char* npu : {"\n      0      0 ", "\n      1      8 ", "\n      2     16 ", "\n      3     24 "}) {
    EXPECT_CONTAINS(r.out, npu);
  }
  const CliResult linear = run_commsim({"pipeline", "--topology", "hierarchical", "--nodes", "4", "--stages", "4"});
  EXPECT_CONTAINS(linear.out, "\n      3      3 ");
}

TEST(CliPipeline, BadInput) {
  expect_error({"pipeline", "--microbatches", "0"}, "--microbatches: '0' is out of range");
  expect_error({"pipeline", "--stages", "9", "--topology", "switch"},
                "--stages 9 is more than the 8 NPUs of topology 'switch-8'");
  expect_error({"pipeline", "--forward-time", "-1ms"}, "--forward-time: time must not be negative");
  expect_error({"pipeline", "--backward-time", "1ms,2ms"}, "--backward-time: 2 times for 4 stages");
  expect_error({"pipeline", "--schedule", "zigzag"}, "--schedule: unknown schedule 'zigzag'");
  expect_error({"pipeline", "--p2p-mode", "telepathy"}, "--p2p-mode: unknown mode 'telepathy'");
  expect_error({"pipeline", "--schedule", "interleaved", "--microbatches", "6"},
                "needs micro-batches (6) to be a multiple of stages (4)");
  expect_error({"pipeline", "--virtual-stages", "2"}, "--virtual-stages applies to the interleaved schedule only");
  expect_error({"pipeline", "--activation-size", "1M", "--hidden-size", "8"}, "either --activation-size");
  expect_error({"pipeline", "--schedule", "all"}, "--schedule all needs --compare");
  const std::string placement = tmp_path("placement.txt");
  write_file(placement, "0 1 1 3\n");
  expect_error({"pipeline", "--placement", placement}, placement + ":1: NPU 1 is repeated");
  // Builder options need --topology here as everywhere; the default ring is not silently
  // kept at its default bandwidth.
  expect_error({"pipeline", "--bandwidth", "1GB/s"}, "--bandwidth needs --topology KIND");
  expect_error({"pipeline", "--compare", "--p2p-mode", "batched"}, "--compare runs every P2P mode; drop --p2p-mode");
  expect_error({"pipeline", "--p2p-order", "random"}, "--p2p-order: expected megatron or send-first, got 'random'");
  expect_report({"pipeline", "--p2p-mode", "sequential", "--p2p-order", "send-first"},
                "pipeline deadlock: 4 stages wait on communication that never comes", "stage 0 (NPU 0) waits");
}

TEST(CliPipeline, FreeCommunicationMatchesTheClosedForm) {
  // No latency and empty activations: (m + p - 1)(tf + tb) = 11 x 300 us, bubble 3/11.
  // Each stage idles (p - 1)(tf + tb) = 900 us, all of it waiting in receives except the
  // s x tb after stage s has finished: mean P2P wait 900 - 300 = 600 us.
  const std::string csv = tmp_path("pipeline.csv");
  const CliResult r = run_commsim({"pipeline", "--stages", "4", "--microbatches", "8", "--forward-time", "100us",
                                   "--backward-time", "200us", "--activation-size", "0", "--topology", "ring",
                                   "--npus", "4", "--latency", "0", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# step time 3300.00 us; model 3300.00 us");
  EXPECT_CONTAINS(r.out, "# bubble fraction 0.2727; model 0.2727");
  // The row of commsim sweep --pipeline.
  EXPECT_EQ(read_file(csv),
            "point,topology,kind,npus,shape,link_GBps,link_latency_us,nic_GBps,nic_latency_us,library,rank_order,"
            "overhead_us,schedule,p2p_mode,protocol,stages,microbatches,virtual_stages,forward_us,backward_us,"
            "activation_bytes,step_time_us,model_step_time_us,sim_over_model,bubble_fraction,model_bubble_fraction,"
            "p2p_wait_us,peak_activations\n"
            "0,ring-4,ring,4,4,450.000,0.000,-,-,ideal,linear,0.000,1f1b,overlapped,-,4,8,1,100.000,200.000,0,"
            "3300.000000,3300.000000,1.000000000,0.272727,0.272727,600.000000,4\n");
}

TEST(CliPipeline, CompareRunsEveryModeAndSchedule) {
  const CliResult r = run_commsim({"pipeline", "--schedule", "all", "--compare", "--activation-size", "24MB"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* row : {"gpipe  sequential", "1f1b  overlapped", "1f1b     batched", "interleaved     batched"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
  // Blocking sends cannot run the interleaved schedule: a row says so, with the reason.
  EXPECT_CONTAINS(r.out, "interleaved  sequential     deadlock");
}

TEST(CliPipeline, TimelineIsChromeTraceJson) {
  const std::string path = tmp_path("timeline.json");
  const CliResult r = run_commsim({"pipeline", "--stages", "2", "--microbatches", "2", "--timeline", path});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string json = read_file(path);
  EXPECT_EQ(json.rfind("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", 0), 0u);
  EXPECT_CONTAINS(json,
                  "{\"name\": \"F0\", \"cat\": \"forward\", \"ph\": \"X\", \"ts\": 0.000, \"dur\": 1000.000, "
                  "\"pid\": 1, \"tid\": 1, \"args\": {\"stage\": 0, \"microbatch\": 0, \"chunk\": 0, "
                  "\"schedule\": \"1f1b\"}}");
  EXPECT_CONTAINS(json, "\"cat\": \"send\"");
  EXPECT_CONTAINS(json, "\"name\": \"stage 1 (NPU 1)\"");
}

}  // namespace
}  // namespace commsim::testing
