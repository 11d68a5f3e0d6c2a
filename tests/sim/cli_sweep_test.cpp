// commsim sweep: rows equal to commsim collective's for the same points, the same output on
// any thread count, shards that merge into the unsharded output, resuming, and bad input.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::vector<std::string> kSweep = {"sweep", "--topology", "ring,switch,torus", "--npus", "4,8", "--dims",
                                         "2x2,2x4", "--algorithm", "all", "--sizes", "1K:64K", "--quiet"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::string run_to_csv(const std::vector<std::string>& args, const std::string& name) {
  const std::string csv = tmp_path(name);
  std::remove(csv.c_str());
  const CliResult r = run_commsim(with(args, {"--csv", csv}));
  EXPECT_EQ(r.status, 0) << r.err;
  return read_file(csv);
}

// Each line without its first cell (the point number, which is each run's own).
std::string without_point_numbers(const std::string& csv, bool keep_header) {
  std::istringstream in(csv);
  std::string line, out;
  for (bool header = true; std::getline(in, line); header = false) {
    if (header && !keep_header) continue;
    out += line.substr(line.find(',') + 1) + "\n";
  }
  return out;
}

TEST(CliSweep, RowsAreCommsimCollectivesRowsForTheSamePoints) {
  const std::string sweep = run_to_csv(with(kSweep, {"--jobs", "2"}), "sweep.csv");
  std::string one_by_one;
  bool header = true;
  for (const std::vector<std::string>& topology :
       {std::vector<std::string>{"ring", "--npus", "4"}, {"ring", "--npus", "8"}, {"switch", "--npus", "4"},
        {"switch", "--npus", "8"}, {"torus", "--dims", "2x2"}, {"torus", "--dims", "2x4"}}) {
    const std::string csv = run_to_csv(with({"collective", "--topology"}, with(topology, {"--algorithm", "all", "--sizes", "1K:64K"})),
                                       "one.csv");
    one_by_one += without_point_numbers(csv, header);
    header = false;
  }
  EXPECT_EQ(without_point_numbers(sweep, true), one_by_one);
  EXPECT_GT(std::count(sweep.begin(), sweep.end(), '\n'), 100);
}

TEST(CliSweep, ASpecFileAtEachNodeCountGivesCommsimCollectivesRows) {
  // The H100 cluster preset at 2 and 4 nodes, NCCL's choice under its own library: each row
  // is `commsim collective --topology-file ... --nodes N`'s for the same sizes.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  const std::vector<std::string> sizes{"--algorithm", "nccl", "--sizes", "1M:256M"};
  const std::string sweep =
      run_to_csv(with({"sweep", "--topology-file", cluster, "--nodes", "2,4", "--quiet"}, sizes), "spec-sweep.csv");
  std::string one_by_one;
  for (const char* nodes : {"2", "4"}) {
    const std::string csv =
        run_to_csv(with({"collective", "--topology-file", cluster, "--nodes", nodes}, sizes), "spec-one.csv");
    one_by_one += without_point_numbers(csv, one_by_one.empty());
  }
  EXPECT_EQ(without_point_numbers(sweep, true), one_by_one);
  EXPECT_NE(sweep.find(",h100-ib-cluster,hierarchical,32,8x4,370.800,0.250,48.500,0.500,nccl-hopper-multinode,"),
            std::string::npos)
      << sweep;
  // Its GPUs in all give the same rows: 16 and 32 are 2 and 4 nodes of 8.
  EXPECT_EQ(
      run_to_csv(with({"sweep", "--topology-file", cluster, "--npus", "16,32", "--quiet"}, sizes), "spec-npus.csv"),
      sweep);
  // From a sweep file too; --library overrides the spec's; a node spec sweeps its GPUs.
  const std::string file = tmp_path("spec-sweep.textproto");
  write_file(file, "topology_file: \"" + cluster + "\" nodes: \"2,4\" algorithm: \"nccl\" sizes: \"1M:256M\"\n");
  EXPECT_EQ(run_to_csv({"sweep", "--sweep-file", file, "--quiet"}, "spec-sweep-file.csv"), sweep);
  const std::string ideal =
      run_to_csv(with({"sweep", "--topology-file", cluster, "--library", "ideal", "--quiet"}, sizes), "spec-ideal.csv");
  EXPECT_NE(ideal.find(",h100-ib-cluster,hierarchical,16,8x2,370.800,0.250,48.500,0.500,ideal,"), std::string::npos)
      << ideal;
  const std::string node =
      run_to_csv({"sweep", "--topology-file", source_path("topologies/h100-nvswitch-node.textproto"), "--npus", "4,8",
                  "--size", "1M", "--algorithm", "nccl", "--quiet"},
                 "spec-node.csv");
  EXPECT_NE(node.find(",h100-nvswitch-node,switch,4,"), std::string::npos) << node;
  EXPECT_NE(node.find(",h100-nvswitch-node,switch,8,"), std::string::npos) << node;
}

TEST(CliSweep, JsonLinesBesideTheCsv) {
  const std::string json = tmp_path("sweep.jsonl");
  std::remove(json.c_str());
  const std::string csv = run_to_csv(with(kSweep, {"--json", json}), "with-json.csv");
  const std::string lines = read_file(json);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n') + 1, std::count(csv.begin(), csv.end(), '\n'));
  EXPECT_EQ(lines.rfind("{\"point\":0,\"topology\":\"ring-4\",", 0), 0u) << lines.substr(0, 100);
}

TEST(CliSweep, ASweepFileGivesTheOptionsAndTheCommandLineOverridesIt) {
  const std::string file = tmp_path("sweep.textproto");
  write_file(file, "# proto-message: commsim.spec.SweepSpec\n"
                   "topology: \"ring,switch,torus\" npus: \"4,8\" dims: \"2x2,2x4\" algorithm: \"all\"\n"
                   "sizes: \"1M:1G\"\n");
  EXPECT_EQ(run_to_csv({"sweep", "--sweep-file", file, "--sizes", "1K:64K", "--quiet"}, "from-file.csv"),
            run_to_csv(kSweep, "from-options.csv"));
  write_file(file, "topology: \"ring\"\nwarp: 9\n");
  expect_error({"sweep", "--sweep-file", file}, "sweep.textproto: line 2, column 5: Message type \"commsim.spec.SweepSpec\" has no field named \"warp\"");
  expect_error({"sweep", "--sweep-file", tmp_path("missing.textproto")}, "missing.textproto");
}

TEST(CliSweep, TheSameOutputOnOneThreadAndOnSeveral) {
  const std::string one = run_to_csv(with(kSweep, {"--jobs", "1"}), "jobs1.csv");
  EXPECT_EQ(run_to_csv(with(kSweep, {"--jobs", "2"}), "jobs2.csv"), one);
  EXPECT_EQ(run_to_csv(with(kSweep, {"--jobs", "5"}), "jobs5.csv"), one);
}

TEST(CliSweep, ShardsMergeIntoTheUnshardedOutput) {
  const std::string whole = run_to_csv(kSweep, "whole.csv");
  std::vector<std::string> parts;
  for (int i = 0; i < 3; ++i) {
    const std::string name = "shard" + std::to_string(i) + ".csv";
    const std::string part = run_to_csv(with(kSweep, {"--shard", std::to_string(i) + "/3"}), name);
    EXPECT_LT(part.size(), whole.size() / 2);
    parts.push_back(tmp_path(name));
  }
  const std::string merged = tmp_path("merged.csv");
  const CliResult r = run_commsim({"sweep", "--merge", parts[2], parts[0], parts[1], "--csv", merged});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(merged), whole);
}

TEST(CliSweep, AnExistingOutputIsResumed) {
  const std::string whole = run_to_csv(kSweep, "resume-whole.csv");
  const std::string csv = tmp_path("resumed.csv");
  write_file(csv, whole.substr(0, whole.find('\n', whole.size() / 2) + 1));  // the first half
  const CliResult r = run_commsim(with(kSweep, {"--csv", csv}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "already in the output");
  EXPECT_EQ(read_file(csv), whole);
}

TEST(CliSweep, PlotsTimeAgainstSizeOrNpusWithTheScriptBeside) {
  const std::string svg = tmp_path("sweep.svg");
  const CliResult r = run_commsim(with(kSweep, {"--plot", svg}));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(svg);
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  for (const char* label : {"ring-4 ring (sim)", "torus-2x4 ring (model)", "time (us)", "size (B)"}) {
    EXPECT_NE(text.find(label), std::string::npos) << label;
  }
  EXPECT_NE(read_file(tmp_path("sweep.gp")).find("set terminal svg"), std::string::npos);
  const std::string by_npus = tmp_path("sweep-npus.svg");
  ASSERT_EQ(run_commsim(with(kSweep, {"--plot", by_npus, "--plot-x", "npus", "--plot-y", "busbw"})).status, 0);
  for (const char* label : {"ring ring (sim)", "busbw (GB/s)", "NPUs", "at 64K"}) {
    EXPECT_NE(read_file(by_npus).find(label), std::string::npos) << label;
  }
  // FILE.png: a PNG, its script FILE.gp drawing one.
  const std::string png = tmp_path("sweep-png.png");
  ASSERT_EQ(run_commsim(with(kSweep, {"--plot", png})).status, 0);
  EXPECT_EQ(read_file(png).rfind("\x89PNG\r\n\x1a\n", 0), 0u);
  EXPECT_NE(read_file(tmp_path("sweep-png.gp")).find("set terminal pngcairo"), std::string::npos);
}

TEST(CliSweep, RankOrdersAndOversubscriptionAreAxes) {
  // A 16-NPU tree non-blocking and 4:1 oversubscribed, ranks in order and scattered: the row
  // of each is commsim collective's for the same options.
  const std::vector<std::string> sweep = {"sweep", "--topology", "tree", "--npus", "16", "--oversubscription", "1,4",
                                          "--rank-order", "linear,random:1", "--algorithm", "ring", "--size", "64M",
                                          "--quiet"};
  const std::string rows = run_to_csv(sweep, "contention.csv");
  std::string one_by_one;
  bool header = true;
  for (const char* ratio : {"1", "4"}) {
    for (const char* order : {"linear", "random:1"}) {
      one_by_one += without_point_numbers(
          run_to_csv({"collective", "--topology", "tree", "--npus", "16", "--oversubscription", ratio, "--rank-order",
                      order, "--algorithm", "ring", "--size", "64M"},
                     "contention-one.csv"),
          header);
      header = false;
    }
  }
  EXPECT_EQ(without_point_numbers(rows, true), one_by_one);
  EXPECT_CONTAINS(rows, ",tree-16-os4,tree,16,");
  EXPECT_CONTAINS(rows, ",random:1,");
  // Against NPUs, each oversubscription and rank order is a series of its own.
  const std::string svg = tmp_path("contention.svg");
  ASSERT_EQ(run_commsim(with(sweep, {"--plot", svg, "--plot-x", "npus"})).status, 0);
  for (const char* label : {"tree ring (sim)", "tree-os4 ring (model)", "tree-os4 ring random:1 (sim)"}) {
    EXPECT_NE(read_file(svg).find(label), std::string::npos) << label;
  }
}

const std::vector<std::string> kPipelineSweep = {"sweep", "--pipeline", "--topology", "ring", "--npus", "4",
                                                 "--schedule", "1f1b,gpipe", "--size", "16M", "--overhead", "20us",
                                                 "--quiet"};

TEST(CliSweep, PipelineRowsAreCommsimPipelinesRowsForTheSameRuns) {
  // Schedule, then P2P mode (sequential, overlapped, batched: --compare's order).
  const std::string sweep = run_to_csv(kPipelineSweep, "pipeline-sweep.csv");
  std::string one_by_one;
  bool header = true;
  for (const char* schedule : {"1f1b", "gpipe"}) {
    one_by_one += without_point_numbers(
        run_to_csv({"pipeline", "--topology", "ring", "--npus", "4", "--stages", "4", "--schedule", schedule,
                    "--compare", "--activation-size", "16M", "--overhead", "20us"},
                   "pipeline-one.csv"),
        header);
    header = false;
  }
  EXPECT_EQ(without_point_numbers(sweep, true), one_by_one);
  EXPECT_EQ(std::count(sweep.begin(), sweep.end(), '\n'), 7);  // header + 2 schedules x 3 modes
  EXPECT_CONTAINS(sweep, ",1f1b,batched,-,4,8,1,1000.000,2000.000,16777216,");
}

TEST(CliSweep, PipelineSweepsMergePlotAndResume) {
  const std::string whole = run_to_csv(kPipelineSweep, "pipeline-whole.csv");
  const std::vector<std::string> parts = {tmp_path("pipeline-part0.csv"), tmp_path("pipeline-part1.csv")};
  run_to_csv(with(kPipelineSweep, {"--shard", "0/2"}), "pipeline-part0.csv");
  run_to_csv(with(kPipelineSweep, {"--shard", "1/2"}), "pipeline-part1.csv");
  const std::string merged = tmp_path("pipeline-merged.csv"), svg = tmp_path("pipeline-merged.svg");
  const CliResult r = run_commsim({"sweep", "--merge", parts[1], parts[0], "--csv", merged, "--plot", svg});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(merged), whole);
  // The plot of merged rows: a panel per schedule, a series per topology and P2P mode.
  for (const char* label : {"gpipe", "ring-4 batched (sim)", "ring-4 sequential (model)", "step time (us)"}) {
    EXPECT_NE(read_file(svg).find(label), std::string::npos) << label;
  }
  // A resumed sweep plots every row of its CSV, those of the earlier run too.
  const std::string resumed = tmp_path("pipeline-resumed.csv"), resumed_svg = tmp_path("pipeline-resumed.svg");
  write_file(resumed, read_file(parts[0]));
  const CliResult again = run_commsim(with(kPipelineSweep, {"--csv", resumed, "--plot", resumed_svg}));
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_CONTAINS(again.out, "3 of 6 points to run");
  EXPECT_EQ(read_file(tmp_path("pipeline-resumed.gp")), read_file(tmp_path("pipeline-merged.gp")));
}

TEST(CliSweep, ResumingAnotherSweepsOutputIsAnError) {
  const std::string csv = tmp_path("other-sweep.csv");
  run_to_csv(with(kSweep, {"--shard", "0/2"}), "other-sweep.csv");
  expect_error(with(kPipelineSweep, {"--csv", csv}), "other-sweep.csv: holds collective rows, and this sweep writes pipeline rows");
  // Same layout, other points: ring-4's rows are not those of a sweep over switches.
  expect_error({"sweep", "--topology", "switch", "--npus", "4", "--sizes", "1K:64K", "--csv", csv},
               "other-sweep.csv:2: point 0 has topology ring-4, and this sweep's has switch-4");
}

TEST(CliSweep, BadInputIsAnErrorBeforeAnyWork) {
  expect_error({"sweep", "--plot-x", "npus"}, "--plot-x and --plot-y need --plot FILE.svg");
  expect_error({"sweep", "--plot", tmp_path("x.svg"), "--plot-y", "latency"}, "--plot-y: expected time or busbw");
  expect_error({"sweep", "--plot", tmp_path("x.jpg")},
               "--plot: cannot draw '" + tmp_path("x.jpg") + "': give a file ending in .svg or .png");
  expect_error({"sweep", "--npus", "16:8"}, "--npus 16:8: an empty range (MIN above MAX)");
  expect_error({"sweep", "--shard", "3/3"}, "--shard 3/3: shard 3 of 3 does not exist");
  expect_error({"sweep", "--topology", "ring,,switch"}, "--topology: empty item");
  expect_error({"sweep", "--topology", "torus"}, "--topology torus needs --dims");
  expect_error({"sweep", "--topology", "ring", "--dims", "4x4"}, "--dims applies only to mesh, torus, and the sweep has none");
  expect_error({"sweep", "--topology", "switch", "--nodes", "2"}, "--nodes applies only to hierarchical");
  expect_error({"sweep", "--algorithm", "ring,warp"}, "unknown algorithm 'warp'");
  expect_error({"sweep", "--topology", "ring", "--algorithm", "direct", "--collective", "allreduce"},
               "--algorithm direct applies to none of the sweep's topologies and collectives");
  expect_error({"sweep", "--csv", "/nonexistent/dir/out.csv"}, "cannot open for writing");
  // Pipeline sweeps: options of the other kind, a schedule the shape cannot run, busbw.
  expect_error({"sweep", "--schedule", "gpipe"}, "--schedule applies to a pipeline sweep (--pipeline)");
  expect_error({"sweep", "--pipeline", "--algorithm", "ring"}, "--algorithm does not apply to a pipeline sweep");
  expect_error({"sweep", "--pipeline", "--schedule", "interleaved", "--microbatches", "6", "--npus", "4"},
               "the interleaved schedule needs micro-batches (6) to be a multiple of stages (4)");
  expect_error({"sweep", "--pipeline", "--p2p-mode", "eager"}, "--p2p-mode: unknown mode 'eager'");
  expect_error({"sweep", "--pipeline", "--plot", tmp_path("p.svg"), "--plot-y", "busbw"},
               "--plot-y busbw: a pipeline sweep has step times only");
  expect_error({"sweep", "--topology", "ring", "--oversubscription", "2"},
               "--oversubscription applies only to tree, hierarchical, and the sweep has none");
  expect_error({"sweep", "--topology", "tree", "--oversubscription", "1,0"}, "--oversubscription: a ratio must be positive");
  // A topology's counts take the range every command gives them (32 bits), not a sweep's own.
  for (const char* command : {"sweep", "collective"}) {
    expect_error({command, "--topology", "hierarchical", "--gpus-per-node", "5000000000"},
                 "--gpus-per-node: '5000000000' is out of range [1, 4294967295]");
    expect_error({command, "--topology", "tree", "--arity", "1"}, "--arity: '1' is out of range [2, 4294967295]");
  }
  // A sweep refused after its options parse leaves no output behind.
  const std::string untouched = tmp_path("untouched.csv");
  std::remove(untouched.c_str());
  expect_error({"sweep", "--topology", "ring", "--algorithm", "direct", "--csv", untouched}, "applies to none");
  EXPECT_EQ(read_file(untouched), "");
  EXPECT_FALSE(std::ifstream(untouched).good());
  // A spec file gives the topology: kinds and link options beside it, a cluster's --npus that
  // are not whole nodes or beside --nodes, a node's --nodes and a graph spec are errors.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  expect_error({"sweep", "--topology-file", cluster, "--topology", "ring"},
               "--topology does not apply with --topology-file: " + cluster + " gives the topology");
  for (const char* option : {"--bandwidth", "--nic-latency", "--duplex", "--arity", "--dims"}) {
    expect_error({"sweep", "--topology-file", cluster, option, "4"}, std::string(option) + " does not apply with");
  }
  expect_error({"sweep", "--topology-file", cluster, "--npus", "8,12"},
               "--npus 12 is not whole nodes of 8 GPUs (cluster spec " + cluster + ")");
  expect_error({"sweep", "--topology-file", cluster, "--npus", "16", "--nodes", "2"},
               "--npus and --nodes both sweep " + cluster + ": give one of them");
  expect_error({"sweep", "--topology-file", source_path("topologies/h100-nvswitch-node.textproto"), "--nodes", "2"},
               "a switch builder spec is one node, not 2");
  // --npus scales a node's or a cluster's spec, not a torus'.
  expect_error({"sweep", "--topology-file", source_path("topologies/torus-4x4x4.textproto"), "--npus", "8"},
               "--npus does not apply with --topology-file: " + source_path("topologies/torus-4x4x4.textproto") +
                   " gives the topology");
  expect_error({"sweep", "--topology-file", tmp_path("no-such-spec.textproto")}, "no-such-spec.textproto");
  expect_error({"sweep", "--topology-file", source_path("topologies/pcie-4gpu-box.textproto")},
               "pcie-4gpu-box.textproto: a builder { ... } spec is needed here, to build it at each size; this one "
               "gives a graph");
  expect_error({"sweep", "--merge", tmp_path("missing.csv")}, "--merge needs --csv OUT");
  const std::string not_sweep = tmp_path("not-sweep.csv");
  write_file(not_sweep, "a,b,c\n1,2,3\n");
  expect_error({"sweep", "--merge", not_sweep, "--csv", tmp_path("out.csv")}, "not-sweep.csv:1: not a sweep CSV");
  expect_error(with(kSweep, {"--csv", not_sweep}), "not-sweep.csv:1: not a sweep CSV");
  // A truncated row and a point number that is not one, named by file and line.
  const std::string whole = run_to_csv(kSweep, "bad-rows.csv");
  const std::string broken = tmp_path("broken.csv");
  const std::size_t second_row = whole.find('\n', whole.find('\n') + 1) + 1;
  write_file(broken, whole.substr(0, second_row) + "1,ring-4,ring\n");
  expect_error({"sweep", "--merge", broken, "--csv", tmp_path("out.csv")}, "broken.csv:3: 3 fields, the header");
  write_file(broken, whole.substr(0, second_row) + "x" + whole.substr(second_row + 1));
  expect_error({"sweep", "--merge", broken, "--csv", tmp_path("out.csv")}, "broken.csv:3: point");
}

TEST(CliSweep, ShardsThatDisagreeAreNotMerged) {
  const std::string whole = run_to_csv(kSweep, "disagree.csv");
  std::string changed = whole;
  changed.replace(changed.find(",ideal,"), 7, ",nccl,");  // the first row, another library
  const std::string other = tmp_path("disagree-other.csv");
  write_file(other, changed);
  expect_error({"sweep", "--merge", tmp_path("disagree.csv"), other, "--csv", tmp_path("out.csv")},
               "point 0 differs from the same point in");
}

}  // namespace
}  // namespace commsim::testing
