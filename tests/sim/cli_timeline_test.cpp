// --timeline of pipeline, replay, collective and p2p: Chrome trace JSON that Perfetto shows
// whole (chrome_trace_check.h: every event complete, args with bytes on transfers, slices on
// each thread nested or disjoint), with the slices and args derived by hand.

#include <gtest/gtest.h>

#include <algorithm>

#include "../report/chrome_trace_check.h"
#include "run_cli.h"

namespace commsim::testing {
namespace {

ParsedTrace run_timeline(std::vector<std::string> args, const std::string& file) {
  const std::string path = tmp_path(file);
  args.insert(args.end(), {"--timeline", path});
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return check_chrome_trace(read_file(path));
}

std::size_t count(const ParsedTrace& t, const std::string& category) {
  return std::count_if(t.slices.begin(), t.slices.end(), [&](const ParsedSlice& s) { return s.category == category; });
}

bool has_thread(const ParsedTrace& t, const std::string& name) {
  return std::any_of(t.threads.begin(), t.threads.end(), [&](const auto& thread) { return thread.second == name; });
}

TEST(CliTimeline, PipelineSendsThatOverlapGetLanes) {
  // The README's example, whose overlapped sends overlapped partially on one track before.
  const ParsedTrace t = run_timeline({"pipeline", "--schedule", "interleaved", "--virtual-stages", "4", "--stages", "8",
                                      "--microbatches", "16"},
                                     "pipeline.json");
  // 8 stages x 16 micro-batches x 4 chunks, a forward and a backward each.
  EXPECT_EQ(count(t, "forward") + count(t, "backward"), 1024u);
  EXPECT_EQ(count(t, "send"), count(t, "recv"));
  EXPECT_TRUE(has_thread(t, "send #2"));
  // Activation 1 x 4096 x 4096 x 2 bytes (bf16) on every transfer, sends and receives.
  for (const ParsedSlice& s : t.slices) {
    if (s.category == "send" || s.category == "recv") {
      EXPECT_EQ(s.number("bytes"), 33554432) << s.name;
    }
  }
  const auto f0 = std::find_if(t.slices.begin(), t.slices.end(), [](const ParsedSlice& s) { return s.name == "F0"; });
  ASSERT_NE(f0, t.slices.end());
  EXPECT_EQ(f0->end_ns - f0->start_ns, 250'000);  // 1 ms forward of a stage over its 4 model chunks
  EXPECT_EQ(f0->text("schedule"), "interleaved");
}

TEST(CliTimeline, PipelineCompareShowsEveryRunThatRan) {
  // --schedule all --compare: 3 schedules x 3 P2P modes, of which interleaved with
  // sequential (blocking) sends deadlocks: the other 8 runs, 4 stages each, every one
  // named. 1F1B and GPipe have 8 micro-batches x 4 stages x (forward, backward) = 64
  // compute slices; interleaved twice that on its 2 model chunks.
  const ParsedTrace t = run_timeline({"pipeline", "--schedule", "all", "--compare"}, "compare.json");
  EXPECT_EQ(count(t, "forward") + count(t, "backward"), 6 * 64u + 2 * 128u);
  std::size_t processes = 0;
  for (const auto& [pid, name] : t.processes) {
    ++processes;
    EXPECT_CONTAINS(name, " P2P: stage ");
    EXPECT_EQ(name.find("interleaved, sequential"), std::string::npos) << name;
  }
  EXPECT_EQ(processes, 8 * 4u);
}

TEST(CliTimeline, ReplayArgsAndLinkTracks) {
  const ParsedTrace t = run_timeline({"replay", "--trace", source_path("workloads/ddp2-pipeline2.textproto"),
                                      "--link-tracks"},
                                     "replay.json");
  const auto send = std::find_if(t.slices.begin(), t.slices.end(), [](const ParsedSlice& s) {
    return s.name == "send activation of micro-batch 0 between stages 0 and 1";
  });
  ASSERT_NE(send, t.slices.end());
  EXPECT_EQ(send->number("bytes"), 16777216);
  EXPECT_EQ(send->number("peer"), 1);
  EXPECT_EQ(send->pid, 1);  // rank 0
  EXPECT_EQ(send->start_ns, 100'000);  // after F0's 100 us
  std::size_t collectives = 0;
  for (const ParsedSlice& s : t.slices) {
    if (s.category != "collective") continue;
    ++collectives;
    EXPECT_FALSE(s.text("algorithm").empty()) << s.name;
    EXPECT_EQ(s.number("ranks"), 2) << s.name;  // groups stage0 {0, 2} and stage1 {1, 3}
  }
  EXPECT_GT(collectives, 0u);
  EXPECT_GT(count(t, "link"), 0u);
  EXPECT_TRUE(has_thread(t, "npu0 -> switch"));
  for (const ParsedSlice& s : t.slices) {
    if (s.category == "link") {
      EXPECT_GE(s.number("flows"), 1) << s.name;
    }
  }
}

TEST(CliTimeline, CollectiveRingStepsByHand) {
  // Ring AllReduce of 4 KiB on a ring of 4 NPUs, 1 GB/s and 1 us a link: 2(p-1) = 6 steps
  // per rank of a 1 KiB message each, 1 us + 1024 B / 1 GB/s = 2.024 us a step, so rank 0's
  // step k is [2.024 k, 2.024 (k+1)] us. The sizes 1K and 2K run but are not recorded.
  const ParsedTrace t = run_timeline({"collective", "--topology", "ring", "--npus", "4", "--bandwidth", "1GB/s",
                                      "--latency", "1us", "--algorithm", "ring", "--sizes", "1K:4K"},
                                     "collective.json");
  ASSERT_EQ(t.slices.size(), 24u);
  for (const ParsedSlice& s : t.slices) {
    EXPECT_EQ(s.number("bytes"), 1024);
    EXPECT_EQ(s.number("size"), 4096);
    EXPECT_EQ(s.text("collective"), "allreduce");
    EXPECT_EQ(s.text("algorithm"), "ring");
    EXPECT_EQ(s.number("peer"), static_cast<double>(s.pid % 4));  // rank pid - 1 sends to pid mod 4
    EXPECT_EQ(s.start_ns, static_cast<std::int64_t>(s.number("step")) * 2024);
    EXPECT_EQ(s.end_ns - s.start_ns, 2024);
  }
  EXPECT_EQ(t.processes.at(1), "rank 0");
}

TEST(CliTimeline, CollectiveTimelineAndLinkStatsOfOneRun) {
  // The run above with --link-stats too: the same 24 slices, and the links of that run.
  // Rank r sends its 6 messages of 1 KiB to r+1, so each forward channel carries 6144 B,
  // busy 6 x 1.024 us, out of T = 6 x 2.024 = 12.144 us: utilisation 6.144 / 12.144.
  const std::string csv = tmp_path("collective-links.csv");
  const ParsedTrace t = run_timeline({"collective", "--topology", "ring", "--npus", "4", "--bandwidth", "1GB/s",
                                      "--latency", "1us", "--algorithm", "ring", "--sizes", "1K:4K", "--link-stats",
                                      csv},
                                     "collective-with-links.json");
  ASSERT_EQ(t.slices.size(), 24u);
  EXPECT_EQ(t.slices.back().end_ns, 12'144);
  const std::string links = read_file(csv);
  EXPECT_CONTAINS(links, "0,nvlink,npu0 -> npu1,1.000,6144,6.144000,0.505929,1\n");
  EXPECT_CONTAINS(links, "3,nvlink,npu3 -> npu0,1.000,6144,6.144000,0.505929,1\n");
  EXPECT_CONTAINS(links, "0,nvlink,npu1 -> npu0,1.000,0,0.000000,0.000000,0\n");
}

TEST(CliTimeline, CollectiveAlgorithmsAndInSwitch) {
  const ParsedTrace all = run_timeline({"collective", "--topology", "ring", "--npus", "4", "--algorithm", "all",
                                        "--size", "64K"},
                                       "collective-all.json");
  EXPECT_TRUE(std::any_of(all.processes.begin(), all.processes.end(),
                          [](const auto& p) { return p.second == "ring: rank 0"; }));
  // NVLS on a 4-GPU switch that reduces: each GPU sends n (G+1)/G = 1 MiB x 5/4 bytes to the
  // switch and reads as much back: two flows per rank, on tracks "send" and "from switch".
  const ParsedTrace nvls = run_timeline({"collective", "--topology", "switch", "--npus", "4", "--nvls", "--algorithm",
                                         "nvls", "--size", "1M"},
                                        "collective-nvls.json");
  ASSERT_EQ(nvls.slices.size(), 8u);
  EXPECT_EQ(count(nvls, "send"), 8u);
  for (const ParsedSlice& s : nvls.slices) {
    EXPECT_EQ(s.number("bytes"), 1310720);
    EXPECT_EQ(s.text("peer"), "switch");
  }
  EXPECT_TRUE(has_thread(nvls, "from switch"));
}

TEST(CliTimeline, CollectiveTooLargeIsRefusedBeforeTheRun) {
  // 2 (p-1) p = 2,095,104 messages of a ring AllReduce on 1024 ranks.
  const std::string path = tmp_path("too-large.json");
  expect_error({"collective", "--topology", "ring", "--npus", "1024", "--algorithm", "ring", "--size", "1M",
                "--timeline", path},
               "sends about 2095104 messages; a timeline holds at most 1048576");
}

TEST(CliTimeline, P2pShiftAndAllPairsInTurn) {
  // shift:1 at the largest size, 1 MiB: every rank's message 1 us + 1048576 B / 1 GB/s.
  const ParsedTrace shift = run_timeline({"p2p", "--topology", "ring", "--npus", "4", "--bandwidth", "1GB/s",
                                          "--latency", "1us", "--pattern", "shift:1", "--sizes", "1K:1M"},
                                         "p2p-shift.json");
  ASSERT_EQ(shift.slices.size(), 4u);
  for (const ParsedSlice& s : shift.slices) {
    EXPECT_EQ(s.start_ns, 0);
    EXPECT_EQ(s.end_ns, 1'049'576);
    EXPECT_EQ(s.number("bytes"), 1048576);
    EXPECT_EQ(s.text("pattern"), "shift:1");
  }
  // All-pairs on a ring of 3: six 1 KiB messages of one hop, 2.024 us each alone, one after
  // another in the report's order (0->1, 0->2, 1->0, 1->2, 2->0, 2->1).
  const ParsedTrace pairs = run_timeline({"p2p", "--topology", "ring", "--npus", "3", "--bandwidth", "1GB/s",
                                          "--latency", "1us", "--pattern", "all-pairs", "--size", "1K"},
                                         "p2p-pairs.json");
  ASSERT_EQ(pairs.slices.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    const ParsedSlice& s = pairs.slices[k];  // written in order of start
    EXPECT_EQ(s.start_ns, static_cast<std::int64_t>(2024 * k));
    EXPECT_EQ(s.end_ns, static_cast<std::int64_t>(2024 * (k + 1)));
    EXPECT_EQ(s.pid, static_cast<std::int64_t>(k / 2 + 1));
  }
}

}  // namespace
}  // namespace commsim::testing
