// What a new user meets first: the version, suggestions for a mistyped option, name or
// command, names in the spellings of nccl-tests and Chakra, and errors that say what to do.

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

TEST(CliHelp, VersionIsTheProjectVersion) {
  // COMMSIM_VERSION is project(VERSION) of CMakeLists.txt, as the program is given it.
  EXPECT_TRUE(std::regex_match(COMMSIM_VERSION, std::regex(R"(\d+\.\d+\.\d+)"))) << COMMSIM_VERSION;
  const std::string expected = std::string("commsim ") + COMMSIM_VERSION + "\n";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--version"}, {"version"}}) {
    const CliResult r = run_commsim(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, expected);
    EXPECT_EQ(r.err, "");
  }
  expect_error({"version", "extra"}, "version takes no arguments, got 'extra'");
  EXPECT_NE(run_commsim({"--help"}).out.find("\n  version "), std::string::npos);
}

TEST(CliHelp, DidYouMeanAnOption) {
  expect_error({"collective", "--topology", "ring", "--npu", "8"},
               "unrecognised option '--npu' (did you mean --npus?)");
  // Separators count for nothing, so the option spelled with '_' is its own suggestion.
  expect_error({"topo", "--gpus_per_node", "4"}, "unrecognised option '--gpus_per_node' (did you mean --gpus-per-node?)");
  // Nothing close: no suggestion.
  const CliResult far = run_commsim({"p2p", "--no-such-option"});
  EXPECT_EQ(far.err, "commsim: error: unrecognised option '--no-such-option'\n");
}

TEST(CliHelp, DidYouMeanAName) {
  expect_error({"collective", "--collective", "allreduc"},
               "--collective: unknown collective 'allreduc' (did you mean 'allreduce'?) (known: allreduce, allgather,");
  expect_error({"collective", "--algorithm", "rign"}, "--algorithm: unknown algorithm 'rign' (did you mean 'ring'?)");
  expect_error({"pipeline", "--schedule", "1f1", "--topology", "ring", "--npus", "4"},
               "--schedule: unknown schedule '1f1' (did you mean '1f1b'?)");
  expect_error({"topo", "--topology", "tourus", "--dims", "4x4"}, "unknown topology kind 'tourus' (did you mean 'torus'?)");
  expect_error({"collective", "--library", "ncl"}, "--library: unknown library 'ncl' (did you mean 'nccl'?)");
  expect_error({"p2p", "--pattern", "one-wya"}, "--pattern: unknown pattern 'one-wya' (did you mean 'one-way'?)");
}

TEST(CliHelp, DidYouMeanACommand) {
  expect_error({"colective"}, "unknown command 'colective' (did you mean 'collective'?) (see commsim --help)");
  expect_error({"frobnicate"}, "unknown command 'frobnicate' (see commsim --help)");
}

TEST(CliHelp, ReplayNamesTheUnknownAlgorithm) {
  const std::string trace = source_path("workloads/allreduce-8ranks.textproto");
  expect_error({"replay", "--trace", trace, "--algorithm", "allreduce=rign"},
               "--algorithm 'allreduce=rign': unknown algorithm 'rign' (did you mean 'ring'?)");
  expect_error({"replay", "--trace", trace, "--algorithm", "allreduse=ring"},
               "--algorithm 'allreduse=ring': unknown collective 'allreduse' (did you mean 'allreduce'?)");
  expect_error({"replay", "--trace", trace, "--algorithm", "ring"},
               "--algorithm: expected COLLECTIVE=ALGORITHM[,...] such as allreduce=ring, got 'ring'");
}

TEST(CliHelp, RandomRankOrderNeedsASeed) {
  expect_error({"collective", "--topology", "ring", "--npus", "4", "--rank-order", "random"},
               "--rank-order random: give a seed, random:SEED (e.g. random:1)");
}

/// What commsim prints for `args`, which must succeed.
std::string output_of(const std::vector<std::string>& args) {
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

TEST(CliHelp, NamesInOtherSpellingsRunTheSame) {
  const std::vector<std::string> ring{"collective", "--topology", "ring", "--npus", "4", "--sizes", "1K:64K"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = ring;
    args.insert(args.end(), extra.begin(), extra.end());
    return output_of(args);
  };
  const std::string allreduce = with({"--collective", "allreduce", "--algorithm", "ring"});
  EXPECT_CONTAINS(allreduce, "allreduce");
  for (const char* spelling : {"ALL_REDUCE", "all_reduce", "AllReduce"}) {
    // The output spells it as commsim does: the same bytes.
    EXPECT_EQ(with({"--collective", spelling, "--algorithm", "ring"}), allreduce) << spelling;
  }
  EXPECT_EQ(with({"--collective", "allreduce", "--algorithm", "Ring"}), allreduce);
  EXPECT_EQ(with({"--collective", "REDUCE_SCATTER", "--algorithm", "RING_BIDIR"}),
            with({"--collective", "reducescatter", "--algorithm", "ring-bidir"}));

  const std::vector<std::string> pipeline{"pipeline", "--topology", "ring", "--npus", "4", "--schedule"};
  auto schedule = [&](const std::string& name) {
    std::vector<std::string> args = pipeline;
    args.push_back(name);
    return output_of(args);
  };
  EXPECT_EQ(schedule("1F1B"), schedule("1f1b"));
  EXPECT_EQ(output_of({"p2p", "--topology", "ring", "--npus", "4", "--pattern", "ALL_PAIRS", "--sizes", "1K:4K"}),
            output_of({"p2p", "--topology", "ring", "--npus", "4", "--pattern", "all-pairs", "--sizes", "1K:4K"}));
}

TEST(CliHelp, VerboseFormulaLinesAreComments) {
  // Every line is a table row (it starts with the size) or a '#' comment, so that a table
  // parser skips the formulas with the substituted values.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"collective", "--topology", "ring", "--npus", "4", "--sizes", "1K:4K", "--verbose"},
        {"collective", "--library", "nccl", "--sizes", "1K:4K", "--verbose"}}) {
    const std::string out = output_of(args);
    EXPECT_CONTAINS(out, "# model at 1024 B:\n# ");
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t first = line.find_first_not_of(' ');
      const bool row = first != std::string::npos && first > 0 && std::isdigit(static_cast<unsigned char>(line[first]));
      EXPECT_TRUE(line.rfind("#", 0) == 0 || row) << line;
    }
  }
}

TEST(CliHelp, DeadlockReportsALineForEachStage) {
  const CliResult r = run_commsim({"pipeline", "--p2p-mode", "sequential", "--p2p-order", "send-first",
                                   "--topology", "ring", "--npus", "4"});
  EXPECT_EQ(r.status, 2);
  std::istringstream lines(r.err);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "commsim: error: pipeline deadlock: 4 stages wait on communication that never comes");
  std::size_t stages = 0;
  for (; std::getline(lines, line);) {
    EXPECT_EQ(line.rfind("  ", 0), 0u) << "indented: " << line;
    if (line.rfind("  stage ", 0) == 0) ++stages;
  }
  EXPECT_EQ(stages, 4u) << r.err;
}

}  // namespace
}  // namespace commsim::testing
