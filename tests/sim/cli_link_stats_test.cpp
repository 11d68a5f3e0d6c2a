// --link-stats and the hottest links of the report (sim/link_stats_output.h), with values
// derived by hand. Links of 100 GB/s take 10 ps per byte: 2^20 B in 10.48576 us.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::string kHeader = "link,kind,direction,bandwidth_GBps,bytes,busy_us,utilisation,peak_flows";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> ring_options(const std::string& npus, const std::string& latency) {
  return {"--topology", "ring", "--npus", npus, "--bandwidth", "100GB/s", "--latency", latency};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliLinkStats, ShiftOnARingSharesEveryForwardChannel) {
  // shift:2 on a 4-ring: each message goes two hops the positive way, so every forward
  // channel carries two flows of 2^20 B at 50 GB/s each: both run 0 to 20.971520 us and
  // arrive 2 us later, T = 22.971520 us. Forward: 2^21 B, busy 20.971520 us, peak 2,
  // utilisation 2^21 B x 10 ps / T = 20.97152 / 22.97152 = 0.912936. Backward: nothing.
  const std::string csv = tmp_path("shift-links.csv");
  const CliResult r = run_commsim(
      with({"p2p", "--pattern", "shift:2", "--size", "1M", "--link-stats", csv}, ring_options("4", "1us")));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 9u);  // header, 4 links x 2 directions
  EXPECT_EQ(rows[0], kHeader);
  EXPECT_EQ(rows[1], "0,nvlink,npu0 -> npu1,100.000,2097152,20.971520,0.912936,2");
  EXPECT_EQ(rows[2], "0,nvlink,npu1 -> npu0,100.000,0,0.000000,0.000000,0");
  EXPECT_EQ(rows[7], "3,nvlink,npu3 -> npu0,100.000,2097152,20.971520,0.912936,2");
  EXPECT_EQ(rows[8], "3,nvlink,npu0 -> npu3,100.000,0,0.000000,0.000000,0");
  // The report: the four busy channels, equal, in link order; the idle ones left out.
  EXPECT_CONTAINS(r.out,
                  "# hottest links of shift:2 at 1048576 B: utilisation = bytes / (bandwidth x 22.97 us)\n"
                  "#   0.9129  npu0 -> npu1 (link 0, nvlink, 100 GB/s): 2097152 B, busy 20.97 us, peak 2 flows\n"
                  "#   0.9129  npu1 -> npu2 (link 1, nvlink, 100 GB/s): 2097152 B, busy 20.97 us, peak 2 flows\n");
  EXPECT_EQ(r.out.find("npu1 -> npu0"), std::string::npos) << r.out;
}

TEST(CliLinkStats, HalfDuplexLinkIsOneRow) {
  // Two NPUs, one half-duplex link: 2^20 B each way at once share it, 50 GB/s each, so
  // both run 0 to 20.971520 us and arrive 1 us later, T = 21.971520 us. One row for both
  // directions: 2^21 B, busy 20.971520 us, peak 2, utilisation 20.97152 / 21.97152.
  const std::string csv = tmp_path("half-links.csv");
  const CliResult r = run_commsim(with({"p2p", "--duplex", "half", "--pattern", "bidirectional", "--size", "1M",
                                        "--link-stats", csv},
                                       ring_options("2", "1us")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(read_file(csv)),
            (std::vector<std::string>{kHeader, "0,nvlink,npu0 <-> npu1,100.000,2097152,20.971520,0.954487,2"}));
}

TEST(CliLinkStats, CollectiveWritesTheLargestSize) {
  // Ring AllReduce of n = 2^20 B on a 4-ring: 2(p-1) = 6 steps of n/p = 2^18 B, each rank to
  // the next. Every forward channel carries 6 x 2^18 = 1572864 B, busy 6 x 2.62144 us =
  // 15.728640 us; each step also waits 1 us of latency while the channel is idle, so
  // T = 6 x 3.62144 = 21.72864 us and utilisation 15.72864 / 21.72864 = 0.723867. The 1K
  // point of the sweep would carry 1536 B: not it.
  const std::string csv = tmp_path("collective-links.csv");
  const CliResult r = run_commsim(
      with({"collective", "--algorithm", "ring", "--sizes", "1K:1M", "--link-stats", csv}, ring_options("4", "1us")));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> rows = lines_of(read_file(csv));
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows[1], "0,nvlink,npu0 -> npu1,100.000,1572864,15.728640,0.723867,1");
  EXPECT_EQ(rows[2], "0,nvlink,npu1 -> npu0,100.000,0,0.000000,0.000000,0");
  EXPECT_CONTAINS(r.out,
                  "# hottest links of ring allreduce at 1048576 B: utilisation = bytes / (bandwidth x 21.73 us)");
}

TEST(CliLinkStats, PipelineAndReplay) {
  // Pipeline, 2 stages on a 2-ring, one micro-batch of 2^20 B: forward 1 ms, the activation
  // (1 us + 10.48576 us), forward 1 ms, backward 2 ms, the gradient, backward 2 ms:
  // T = 6022.97152 us. Each direction carries one message: busy 10.485760 us, utilisation
  // 1048576 / (1e11 x 6022.97152e-6) = 0.001741.
  const std::string pipeline_csv = tmp_path("pipeline-links.csv");
  const CliResult p = run_commsim(with({"pipeline", "--stages", "2", "--microbatches", "1", "--activation-size", "1M",
                                        "--link-stats", pipeline_csv},
                                       ring_options("2", "1us")));
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(lines_of(read_file(pipeline_csv)),
            (std::vector<std::string>{kHeader, "0,nvlink,npu0 -> npu1,100.000,1048576,10.485760,0.001741,1",
                                      "0,nvlink,npu1 -> npu0,100.000,1048576,10.485760,0.001741,1"}));

  // Replay of a 64 MiB ring AllReduce on 8 ranks with no latency: every forward channel
  // carries 2 x 7 steps of 8 MiB = 117440512 B, busy the whole run: utilisation 1.
  const std::string replay_csv = tmp_path("replay-links.csv");
  const CliResult r = run_commsim(with({"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto"),
                                        "--algorithm", "allreduce=ring", "--link-stats", replay_csv},
                                       ring_options("8", "0")));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> rows = lines_of(read_file(replay_csv));
  ASSERT_EQ(rows.size(), 17u);
  EXPECT_EQ(rows[1], "0,nvlink,npu0 -> npu1,100.000,117440512,1174.405120,1.000000,1");
  EXPECT_EQ(rows[2], "0,nvlink,npu1 -> npu0,100.000,0,0.000000,0.000000,0");
  EXPECT_CONTAINS(r.out,
                  "# hottest links of the replay: utilisation = bytes / (bandwidth x 1174.41 us)\n"
                  "#   1.0000  npu0 -> npu1");
}

TEST(CliLinkStats, BadPathFailsBeforeTheRun) {
  const std::string bad = "/nonexistent/dir/links.csv";
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"collective", "--size", "1K"},
           {"p2p", "--size", "1K"},
           {"pipeline"},
           {"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto")},
           {"analyze", "--model", "llama3-8b", "--num-gpus", "64", "--tp", "8", "--pp", "2"},
           // This run would deadlock: the path is refused first.
           {"pipeline", "--p2p-mode", "sequential", "--p2p-order", "send-first"}}) {
    SCOPED_TRACE(command.front());
    const CliResult r = run_commsim(with(command, {"--link-stats", bad}));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "commsim: error: --link-stats: cannot write " + bad + ": No such file or directory\n");
    EXPECT_EQ(r.out, "") << "nothing is simulated before the outputs are open";
  }
}

TEST(CliLinkStats, RefusedWhereThereIsNoOneRun) {
  const std::vector<std::string> analyze{"analyze", "--model", "llama3-8b", "--num-gpus", "64",
                                         "--tp",      "8",       "--pp",        "2"};
  for (const char* mode : {"--search", "--closed-form-only"}) {
    expect_error(with(analyze, {mode, "--link-stats", tmp_path("x.csv")}),
                 "--link-stats writes the links of one simulated step: not with --search or --closed-form-only");
  }
  // They run many points: no one run's links to write.
  for (const char* command : {"sweep", "validate", "calibrate"}) {
    expect_error({command, "--link-stats", tmp_path("z.csv")}, "--link-stats");
  }
}

}  // namespace
}  // namespace commsim::testing
