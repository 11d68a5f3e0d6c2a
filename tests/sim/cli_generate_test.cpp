// commsim generate: the three output formats replay alike, the checked-in traces in
// workloads/ are what their README commands write, and every bad input exits 2 naming the
// option and the value.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

// commsim replay's report without its first line, which names the trace.
std::string replay_report(std::vector<std::string> args) {
  args.insert(args.begin(), "replay");
  for (const char* a : {"--topology", "ring", "--npus", "8"}) args.emplace_back(a);
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out.substr(r.out.find('\n') + 1);
}

void remove_chakra(const std::string& prefix) {
  for (int r = 0; r <= 16; ++r) std::filesystem::remove(prefix + "." + std::to_string(r) + ".et");
}

TEST(CliGenerate, HelpNamesEveryKindWithExamples) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"generate", "--help"}, std::vector<std::string>{"generate", "ddp", "--help"}}) {
    const CliResult r = run_commsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Usage: commsim generate KIND --output PATH", 0), 0u) << r.out;
    for (const char* text : {"  ddp-pipeline  ", "--bucket-mb", "--gradient-size", "Examples:",
                             "commsim generate ddp --ranks 8"}) {
      EXPECT_CONTAINS(r.out, text);
    }
  }
  EXPECT_CONTAINS(run_commsim({"--help"}).out, "generate    write a synthetic workload trace");
}

TEST(CliGenerate, EveryFormatReplaysTheSame) {
  // 2 replicas x 4 stages on an 8-NPU ring: P2P, groups and collectives all round-trip.
  const std::vector<std::string> shape{"ddp-pipeline", "--replicas", "2", "--stages", "4", "--microbatches", "4",
                                       "--activation-size", "8M", "--gradient-size", "64M", "--optimizer-time", "50us"};
  const std::string binary = tmp_path("gen-dp.pb");
  const std::string text = tmp_path("gen-dp.textproto");
  const std::string chakra = tmp_path("gen-dp");
  remove_chakra(chakra);
  std::vector<std::string> reports;
  for (const auto& [format, output] : {std::pair<std::string, std::string>{"commsim", binary}, {"commsim", text},
                                       {"chakra", chakra}}) {
    std::vector<std::string> args{"generate"};
    args.insert(args.end(), shape.begin(), shape.end());
    for (const std::string& a : {std::string("--format"), format, std::string("--output"), output}) args.push_back(a);
    const CliResult r = run_commsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_CONTAINS(r.out, "# commsim generate ddp-pipeline: ddp2-1f1b-4stages-4microbatches, 8 ranks");
  }
  const std::string groups = chakra + ".comm_groups.json";
  EXPECT_EQ(read_file(groups), "{\n  \"stage0\": [0, 4],\n  \"stage1\": [1, 5],\n  \"stage2\": [2, 6],\n"
                               "  \"stage3\": [3, 7]\n}\n");
  const std::string from_binary = replay_report({"--trace", binary});
  EXPECT_CONTAINS(from_binary, "# nodes: 176 (compute 72, collective 8, send 48, receive 48, skipped 0)");
  EXPECT_EQ(replay_report({"--trace", text}), from_binary);
  // A Chakra report says where its groups came from; the rest is the same, with the group
  // file given or found beside the trace.
  const std::string given = replay_report({"--chakra", chakra, "--comm-groups", groups});
  const std::string line = "# communicator groups: " + groups + ", 4 groups\n";
  ASSERT_NE(given.find(line), std::string::npos) << given;
  EXPECT_EQ(std::string(given).erase(given.find(line), line.size()), from_binary);
  const std::string found = replay_report({"--chakra", chakra});
  const std::string found_line = "# communicator groups: " + groups + " (found beside the trace), 4 groups\n";
  ASSERT_NE(found.find(found_line), std::string::npos) << found;
  EXPECT_EQ(std::string(found).erase(found.find(found_line), found_line.size()), from_binary);
}

TEST(CliGenerate, DdpReportsItsBuckets) {
  const std::string path = tmp_path("gen-ddp.pb");
  const CliResult r = run_commsim({"generate", "ddp", "--ranks", "4", "--layers", "10", "--layer-size", "10M",
                                   "--first-bucket-mb", "1", "--output", path});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "# commsim generate ddp: ddp-4ranks-10layers, 4 ranks, 96 nodes (compute 80, collective 16, send 0, "
            "receive 0)\n"
            "# 4 gradient buckets (AllReduce order): 1 x 1 layer, 3 x 3 layers; cap 26214400 B\n"
            "# wrote " + path + " (binary)\n"
            "# replay: commsim replay --trace " + path + "\n");
}

// Each generated file in workloads/ is what the command on its README line writes.
TEST(CliGenerate, CheckedInWorkloadsAreWhatTheirReadmeCommandsWrite) {
  std::istringstream readme(read_file(source_path("workloads/README.md")));
  const std::string command = "`./build/commsim generate ";
  int checked = 0;
  for (std::string line; std::getline(readme, line);) {
    const std::size_t start = line.find(command);
    if (start == std::string::npos) continue;
    const std::size_t end = line.find('`', start + 1);
    std::istringstream words(line.substr(start + command.size(), end - start - command.size()));
    std::vector<std::string> args{"generate"};
    std::string checked_in;
    for (std::string word; words >> word;) {
      if (args.back() == "--output") {
        checked_in = word;
        word = tmp_path(std::filesystem::path(word).filename().string());
      }
      args.push_back(word);
    }
    SCOPED_TRACE(checked_in);
    ASSERT_EQ(checked_in.rfind("workloads/", 0), 0u);
    const CliResult r = run_commsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(args.back()), read_file(source_path(checked_in)))
        << "regenerate it with the command in workloads/README.md";
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(CliGenerate, CheckedInWorkloadsReplay) {
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("workloads"))) {
    if (entry.path().extension() != ".textproto") continue;
    SCOPED_TRACE(entry.path().string());
    const CliResult r = run_commsim({"replay", "--trace", entry.path().string()});
    EXPECT_EQ(r.status, 0) << r.err;
    ++replayed;
  }
  EXPECT_EQ(replayed, 5);
  // The hand-written trace's comments derive its time.
  const CliResult r =
      run_commsim({"replay", "--trace", source_path("workloads/hand-written-p2p.textproto"), "--topology-file", datasheet_h100()});
  EXPECT_CONTAINS(r.out, "# total time 621.500 us");
  EXPECT_CONTAINS(r.out, "      0        621.500        300.000        321.500\n");
  EXPECT_CONTAINS(r.out, "      1        621.500        300.000        321.500\n");
}

TEST(CliGenerate, BadInput) {
  const std::string out = tmp_path("gen-bad.pb");
  const auto gen = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "generate");
    args.emplace_back("--output");
    args.push_back(out);
    return args;
  };
  expect_error({"generate"}, "generate: give the kind first");
  expect_error({"generate", "--output", out, "ddp"}, "generate: give the kind first: commsim generate "
                "collective|pipeline|ddp|ddp-pipeline --output PATH [options], got '--output'");
  expect_error({"generate", "allgather"}, "generate: unknown kind 'allgather' (known: collective, pipeline");
  expect_error({"generate", "ddp"}, "generate: --output PATH is required");
  expect_error(gen({"ddp", "extra"}), "unexpected argument 'extra'");
  expect_error(gen({"ddp", "--wings", "2"}), "unrecognised option '--wings'");
  expect_error(gen({"ddp", "--format", "json"}), "--format: unknown format 'json' (known: commsim, chakra)");
  // collective
  expect_error(gen({"collective", "--collective", "gather"}), "--collective: unknown collective 'gather'");
  expect_error(gen({"collective", "--ranks", "1"}), "--ranks: '1' is out of range [2, 1048576]");
  expect_error(gen({"collective", "--size", "12Q"}), "--size: unknown size unit in '12Q'");
  expect_error(gen({"collective", "--collective", "allgather", "--size", "16"}),
                "--size 16: collective: size 16 B is less than one 4-byte element per rank for allgather on 8 ranks");
  expect_error(gen({"collective", "--algorithm", "warp"}), "--algorithm: unknown algorithm 'warp'");
  expect_error(gen({"collective", "--algorithm", "bruck"}),
                "--algorithm bruck: algorithm 'bruck' does not implement allreduce");
  expect_error(gen({"collective", "--layers", "4"}),
                "--layers does not apply to 'generate collective' (it applies to ddp)");
  // pipeline
  expect_error(gen({"pipeline", "--schedule", "zigzag"}), "--schedule: unknown schedule 'zigzag'");
  expect_error(gen({"pipeline", "--stages", "0"}), "--stages: '0' is out of range");
  expect_error(gen({"pipeline", "--microbatches", "x"}), "--microbatches: expected a whole number, got 'x'");
  expect_error(gen({"pipeline", "--virtual-stages", "2"}),
                "--virtual-stages applies to the interleaved schedule only, not --schedule 1f1b");
  expect_error(gen({"pipeline", "--schedule", "interleaved", "--microbatches", "6"}),
                "--microbatches 6: the interleaved schedule needs a multiple of --stages 4");
  expect_error(gen({"pipeline", "--backward-time", "1ms,2ms"}), "--backward-time: 2 times for 4 stages");
  expect_error(gen({"pipeline", "--forward-time", "-1ms"}), "--forward-time: time must not be negative");
  expect_error(gen({"pipeline", "--activation-size", "lots"}), "--activation-size: cannot parse 'lots'");
  expect_error(gen({"pipeline", "--ranks", "4"}), "--ranks does not apply to 'generate pipeline'");
  // ddp
  expect_error(gen({"ddp", "--layers", "0"}), "--layers: '0' is out of range");
  expect_error(gen({"ddp", "--layer-size", "0"}), "--layer-size: must be at least 1 byte, got '0'");
  expect_error(gen({"ddp", "--bucket-mb", "0"}), "--bucket-mb: expected a positive number of MiB, got '0'");
  expect_error(gen({"ddp", "--bucket-mb", "abc"}), "--bucket-mb: cannot parse 'abc'");
  expect_error(gen({"ddp", "--first-bucket-mb", "-1"}), "--first-bucket-mb: expected a positive number of MiB, got '-1'");
  expect_error(gen({"ddp", "--optimizer-time", "5"}), "--optimizer-time: time needs a unit: '5'");
  expect_error(gen({"ddp", "--forward-time", "1ms,2ms"}), "--forward-time 1ms,2ms: ddp takes one time, that of every layer");
  expect_error(gen({"ddp", "--gradient-size", "1M"}), "--gradient-size does not apply to 'generate ddp'");
  // ddp-pipeline
  expect_error(gen({"ddp-pipeline"}), "generate ddp-pipeline: --gradient-size S is required");
  expect_error(gen({"ddp-pipeline", "--gradient-size", "0"}), "--gradient-size: must be at least 1 byte, got '0'");
  expect_error(gen({"ddp-pipeline", "--replicas", "1", "--gradient-size", "1M"}),
                "--replicas: '1' is out of range [2, 65536]");
  // Chakra cannot hold it
  expect_error(gen({"ddp", "--format", "chakra", "--forward-time", "1.5us"}),
                "--forward-time 1.5us: a Chakra trace holds whole microseconds");
  expect_error(gen({"collective", "--format", "chakra", "--algorithm", "ring"}),
                "--algorithm ring: a Chakra trace has no attribute for the algorithm");
  expect_error(gen({"pipeline", "--format", "chakra", "--schedule", "interleaved", "--virtual-stages", "3"}),
                "--format chakra: interleaved-4stages-8microbatches: rank 0: node 1 (F0): cannot be written as "
                "Chakra: compute time 333333333 ps is not a whole number of microseconds");
  const std::string stale = tmp_path("gen-stale");
  remove_chakra(stale);
  write_file(stale + ".8.et", "old");
  expect_error({"generate", "collective", "--format", "chakra", "--output", stale},
                "gen-stale.8.et: exists and would be read as rank 8 of this trace of 8 ranks");
  // Nothing written
  expect_error({"generate", "ddp", "--output", "/nonexistent/dir/ddp.pb"},
                "--output: cannot write /nonexistent/dir/ddp.pb: No such file or directory");
  expect_error({"generate", "ddp", "--format", "chakra", "--output", "/nonexistent/dir/ddp"},
                "--format chakra: cannot write /nonexistent/dir/ddp.0.et: No such file or directory");
}

}  // namespace
}  // namespace commsim::testing
