// commsim analyze: the worked example of the README as a golden output, --search ranked and
// the same on any thread count, stragglers and backends, and bad input.

#include <gtest/gtest.h>

#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::vector<std::string> kExample = {"analyze", "--model", "llama3-8b", "--num-gpus", "64",
                                           "--tp",    "8",       "--pp",        "2",          "--zero", "1"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The value after `label` in the report, e.g. the step's milliseconds.
double number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  EXPECT_NE(at, std::string::npos) << label << "\n" << text;
  return at == std::string::npos ? 0 : std::stod(text.substr(at + label.size()));
}

TEST(CliAnalyze, TheReadmeExampleIsGolden) {
  const std::string csv = tmp_path("analyze.csv");
  expect_golden(with(kExample, {"--verbose", "--csv", csv}), "analyze_llama3_8b.txt");
  expect_golden_text(read_file(csv), "analyze_llama3_8b.csv");
}

TEST(CliAnalyze, SearchRanksBySimulatedStepTheSameOnAnyThreads) {
  const std::vector<std::string> search = {"analyze", "--model", "llama3-8b", "--num-gpus", "64", "--zero", "1",
                                           "--search"};
  const CliResult one = run_commsim(with(search, {"--jobs", "1"}));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(run_commsim(with(search, {"--jobs", "2"})).out, one.out);
  // Ranked rows: rank, dp, tp, pp, cp, m, memory, bound, step, ...; steps ascending, and
  // dp x tp x pp x cp = 64 on each.
  std::istringstream lines(one.out);
  double previous = 0;
  int ranked = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cells(line);
    int rank, dp, tp, pp, cp, m;
    double memory, bound;
    std::string step;
    cells >> rank >> dp >> tp >> pp >> cp >> m >> memory >> bound >> step;
    EXPECT_EQ(dp * tp * pp * cp, 64) << line;
    EXPECT_LE(memory, 80.0) << line;
    if (step[0] == '>') continue;
    EXPECT_GE(std::stod(step), previous) << line;
    EXPECT_LE(std::stod(step), bound) << line;
    previous = std::stod(step);
    ++ranked;
  }
  EXPECT_GE(ranked, 10);
}

TEST(CliAnalyze, AnExpertGroupInsideANodeOfAClusterRunsAtTheNodesFactor) {
  // Mixtral with ep 8 on 2 nodes of the H100 cluster preset: each expert group is a node, so
  // its 512 MiB AllToAll moves over NVLink at the preset's factor inside one node (0.96), as
  // `collective` runs it on the node preset (1406.91 us), not at its 0.923 across nodes
  // (1463.29 us).
  const CliResult a = run_commsim({"analyze", "--model", "mixtral-8x7b", "--topology-file",
                                   source_path("topologies/h100-ib-cluster.textproto"), "--nodes", "2", "--num-gpus",
                                   "16", "--ep", "8", "--tp", "1", "--pp", "1", "--closed-form-only"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_CONTAINS(a.out,
                  "alltoall     direct simple   4    forward token dispatch and combine    536870912     256    "
                  "1406.91 ");
}

TEST(CliAnalyze, AStragglerAndGlooLengthenTheStep) {
  const CliResult even = run_commsim(kExample);
  ASSERT_EQ(even.status, 0) << even.err;
  const CliResult slow = run_commsim(with(kExample, {"--straggler", "9:2"}));
  ASSERT_EQ(slow.status, 0) << slow.err;
  // Rank 9 computes twice as long; every rank waits for it at its TP, PP and DP collectives:
  // the step grows by at least half its compute (625 ms), at most by the whole bound (996 ms).
  const double step = number_after(even.out, "#   step           ");
  const double slowed = number_after(slow.out, "#   step           ");
  EXPECT_GT(slowed - step, 0.5 * 625.304);
  EXPECT_LT(slowed - step, 995.926);
  // PyTorch DDP on Gloo: the data-parallel reduction at Gloo's rate.
  const CliResult gloo = run_commsim(with(kExample, {"--dp-library", "gloo", "--closed-form-only"}));
  ASSERT_EQ(gloo.status, 0) << gloo.err;
  EXPECT_CONTAINS(gloo.out, "  dp    {0,8,16,24}    net     gloo");
  EXPECT_GT(number_after(gloo.out, "(dp "), 10 * number_after(even.out, "(dp "));
}

TEST(CliAnalyze, BadInputIsAnError) {
  expect_error(with(kExample, {"--dp", "8"}), "dp 8 x tp 8 x pp 2 x cp 1 = 128, not the 64 GPUs");
  expect_error({"analyze", "--model", "gpt3-175b", "--num-gpus", "64", "--tp", "16"},
               "--tp 16: the tensor-parallel group {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15} crosses the network");
  expect_error({"analyze", "--num-gpus", "8", "--tp", "8", "--layers", "4", "--hidden", "1536", "--heads", "12",
                "--vocab", "1000", "--seq-length", "512"},
               "tp 8 does not divide the 12");
  expect_error(with(kExample, {"--schedule", "interleaved", "--global-batch-size", "12"}),
               "the interleaved schedule needs micro-batches to be a multiple of pp 2, got 3");
  expect_error({"analyze", "--model", "llama5", "--num-gpus", "8"}, "--model: unknown model 'llama5' (known: llama3-8b");
  expect_error({"analyze", "--model", "llama3-8b"}, "give --num-gpus N, or a topology");
  expect_error({"analyze", "--num-gpus", "8", "--layers", "4"}, "--hidden is needed without --model");
  expect_error(with(kExample, {"--straggler", "64:2"}), "--straggler 64: the job has ranks 0 to 63");
  expect_error(with(kExample, {"--straggler", "9"}), "--straggler: expected RANK:FACTOR, got '9'");
  expect_error(with(kExample, {"--csv", "/nonexistent/dir/a.csv"}), "/nonexistent/dir/a.csv");
  expect_error(with(kExample, {"--tflops", "300", "--layer-forward-time", "1ms"}),
               "give either --tflops or --layer-forward-time, not both");
  expect_error(with(kExample, {"--layer-backward-time", "2ms"}), "--layer-backward-time needs --layer-forward-time");
  expect_error({"analyze", "--model", "llama3-8b", "--num-gpus", "16", "--topology", "switch", "--npus", "8"},
               "--num-gpus 16: topology 'switch-8' has 8 NPUs");
}

}  // namespace
}  // namespace commsim::testing
