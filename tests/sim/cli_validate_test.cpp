// commsim validate: a measured nccl-tests log against the prediction, and its errors.

#include <gtest/gtest.h>

#include <filesystem>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::string kExcerpt = source_path("tests/data/nccl-tests-allgather-excerpt.log");
const std::string kCluster = source_path("topologies/h100-ib-cluster.textproto");

TEST(CliValidate, AMeasuredLogAgainstItsPreset) {
  // The 10-node, 1-GPU-per-node all_gather run (ring over one 400 Gb/s NIC per node): each
  // row measured and predicted, the errors within a few percent.
  const std::string csv = tmp_path("validate.csv");
  const CliResult r = run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--nodes", "10",
                                   "--gpus-per-node", "1", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(
      r.out,
      "# commsim validate: 10 measured rows on h100-ib-cluster (hierarchical, 10 nodes x 1 GPU, rail-optimised)");
  // What the log says of its run: the GPUs' name, NCCL's release (its nccl-library code), the tool's.
  EXPECT_CONTAINS(r.out, "# measured: " + kExcerpt + ": NVIDIA H100 80GB HBM3, NCCL 2.29.2, nccl-tests 2.17.8\n");
  // The log ran a process a GPU (nGpus 1): each call at least 2.1 + 5.21 us + 50 ns a channel.
  EXPECT_CONTAINS(r.out,
                  "# one thread drives 1 GPU (nccl-tests -g 1): a call takes at least 7.31 us + 50 ns per "
                  "channel it runs on\n");
  // The 16 GiB row: measured 321112 us, the ring predicts 318945.10 us (48.5 GB/s NICs).
  EXPECT_CONTAINS(r.out, "allgather  17179869120     10       ring  simple   16   321112.00   318945.10     -0.7");
  EXPECT_CONTAINS(r.out, "# |error| median / p90: all 2.0% / 2.8% (10 rows)");
  const std::string rows = read_file(csv);
  EXPECT_EQ(rows.rfind("source,operation,topology,nranks,size_bytes,algorithm,protocol,channels,measured_time_us,", 0), 0u);
  EXPECT_CONTAINS(rows,
                  ",allgather,h100-ib-cluster,10,17179869120,ring,simple,16,321112.000000,318945.095013,-0.006748");
}

TEST(CliValidate, SaysWhichRunsOfALogItLeftOut) {
  // The excerpt with a gather_perf run after it, as a script running every test writes.
  const std::string log = tmp_path("validate-with-gather.log");
  write_file(log, read_file(kExcerpt) +
                      "# Collective test starting: gather_perf\n"
                      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time"
                      "   algbw   busbw  #wrong\n"
                      "        1024            32     float    none       0    20.15    0.05    0.05       0    19.80"
                      "    0.05    0.05       0\n"
                      "# Avg bus bandwidth    : 0.05\n");
  const CliResult r = run_commsim({"validate", "--measurements", log, "--topology-file", kCluster});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# commsim validate: 10 measured rows");
  EXPECT_CONTAINS(r.out, "# left out: gather (1 row, " + log + ":");
  EXPECT_CONTAINS(r.out, "): commsim has no model of that operation\n");
  // A run launched from CUDA graphs: a note after the file's measured line.
  std::string graphs = read_file(kExcerpt);
  graphs.replace(graphs.find("graph: 0"), 8, "graph: 1");
  const std::string graph_log = tmp_path("validate-graphs.log");
  write_file(graph_log, graphs);
  const CliResult noted = run_commsim({"validate", "--measurements", graph_log, "--topology-file", kCluster});
  ASSERT_EQ(noted.status, 0) << noted.err;
  EXPECT_CONTAINS(noted.out, "nccl-tests 2.17.8\n# note: calls launched from CUDA graphs (nccl-tests -G 1): ");
}

// Without a topology option a log runs on the preset of the GPUs its "# Rank" lines name: the
// excerpt's 10 H100 hosts on h100-ib-cluster, row for row as when the option names it.
TEST(CliValidate, ALogRunsOnThePresetOfTheGpusItNames) {
  const CliResult chosen = run_commsim({"validate", "--measurements", kExcerpt});
  ASSERT_EQ(chosen.status, 0) << chosen.err;
  const std::string line =
      "# topology: h100-ib-cluster, the preset of the NVIDIA H100 80GB HBM3 the measurements name (--topology-file "
      "gives another)\n";
  EXPECT_CONTAINS(chosen.out, line);
  std::string without = chosen.out;
  without.erase(without.find(line), line.size());
  EXPECT_EQ(without, run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster}).out);

  // The same rows of A100s: the A100 cluster; of H100 PCIe cards, which no preset describes,
  // the default node, which 10 ranks do not fit.
  const auto with_gpu = [&](const std::string& gpu) {
    std::string log = read_file(kExcerpt);
    for (std::size_t at = log.find("NVIDIA H100 80GB HBM3"); at != std::string::npos;
         at = log.find("NVIDIA H100 80GB HBM3", at)) {
      log.replace(at, std::string("NVIDIA H100 80GB HBM3").size(), gpu);
    }
    const std::string path = tmp_path("validate-" + std::to_string(gpu.size()) + ".log");
    write_file(path, log);
    return path;
  };
  const CliResult a100 = run_commsim({"validate", "--measurements", with_gpu("NVIDIA A100-SXM4-80GB")});
  ASSERT_EQ(a100.status, 0) << a100.err;
  EXPECT_CONTAINS(a100.out, "on a100-ib-cluster (hierarchical, 10 nodes x 1 GPU");
  EXPECT_CONTAINS(a100.out, "# topology: a100-ib-cluster, the preset of the NVIDIA A100-SXM4-80GB the measurements");
  expect_error({"validate", "--measurements", with_gpu("NVIDIA H100 PCIe")},
               "10 ranks on 10 hosts of 1 GPU, and topology 'h100-nvswitch-node' has 8 NPUs");
  // An option names the system: no preset is chosen.
  const CliResult built = run_commsim(
      {"validate", "--measurements", kExcerpt, "--topology", "hierarchical", "--nodes", "10", "--gpus-per-node", "1"});
  ASSERT_EQ(built.status, 0) << built.err;
  EXPECT_EQ(built.out.find("# topology:"), std::string::npos);
}

TEST(CliValidate, AnNcclTestsJsonReportIsReadAsItsLogIs) {
  // The excerpt log's 16 GiB row as nccl-tests -J reports it (src/util.cu): 10 ranks on 10
  // hosts, one GPU a thread, NCCL 2.29.2; the prediction is the log's.
  std::string devices;
  for (int r = 0; r < 10; ++r) {
    devices += std::string(r ? "," : "") + R"({"rank":)" + std::to_string(r) + R"(,"group":0,"pid":1,"hostname":"n)" +
               std::to_string(r) + R"(","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"})";
  }
  const std::string json = tmp_path("validate-report.json");
  write_file(json, R"({"version":2,"args":["./build/all_gather_perf","-b","16G","-e","16G","-J","r.json"],)"
                   R"("nccl_version":22902,"config":{"nthreads":1,"ngpus":1,"devices":[)" +
                       devices +
                       R"(]},"results":[{"size":17179869120,"count":429496728,"type":"float","redop":"none",)"
                       R"("root":"    -1","out_of_place":{"time":321112.000000,"alg_bw":53.500000,"bus_bw":48.150000,)"
                       R"("nwrong":0.000000},"in_place":null,"actual_iterations":20,"experiment_name":""}]})");
  const CliResult r = run_commsim({"validate", "--measurements", json, "--topology-file", kCluster});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# measured: " + json + ": NVIDIA H100 80GB HBM3, NCCL 2.29.2\n");
  EXPECT_CONTAINS(r.out, "allgather  17179869120     10       ring  simple   16   321112.00   318945.10     -0.7");
}

TEST(CliValidate, PlotsMeasuredAgainstPredicted) {
  // The log's header gives the cluster's shape (10 nodes x 1 GPU): no --nodes needed.
  const std::string svg = tmp_path("validate.svg");
  const CliResult r = run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--plot", svg});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(svg);
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  for (const char* label : {"allgather measured", "allgather predicted", "busbw (GB/s)", "time (us)",
                            "h100-ib-cluster, library nccl-hopper-multinode"}) {
    EXPECT_NE(text.find(label), std::string::npos) << label;
  }
}

TEST(CliValidate, APlotEndingInPngIsAPng) {
  const std::string png = tmp_path("validate.png");
  const CliResult r = run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--plot", png});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(png).rfind("\x89PNG\r\n\x1a\n", 0), 0u);
  // Any other extension is refused before the work, and nothing is written.
  const std::string pdf = tmp_path("validate.pdf");
  const CliResult bad =
      run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--plot", pdf});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "commsim: error: --plot: cannot draw '" + pdf + "': give a file ending in .svg or .png\n");
  EXPECT_FALSE(std::filesystem::exists(pdf));
}

TEST(CliValidate, ATableOfSeveralCollectivesSummarisesEachOperation) {
  // Ideal ring on 8 GPUs at 100 GB/s, 250 ns hops, 8 MiB: AllGather 3.5 + 73.40 = 76.90 us,
  // AllReduce 153.80 us. Measured at 1.25 x AllGather (error -20.0%) and exactly AllReduce.
  const std::string table = tmp_path("two-collectives.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_gather,8,1,8,8388608,,float,none,-1,96.1258,87.27,76.36,,,\n"
             "all_reduce,8,1,8,8388608,,float,sum,-1,153.8007,54.54,95.45,,,\n");
  const CliResult r = run_commsim({"validate", "--measurements", table, "--topology", "switch", "--npus", "8",
                                   "--bandwidth", "100GB/s", "--latency", "250ns", "--algorithm", "ring"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "# |error| median / p90 by operation: allgather 20.0% / 20.0% (1 row); allreduce 0.0% / "
                  "0.0% (1 row)\n# |error| median / p90: all 10.0%");
  // No comment of the table says how many GPUs a thread drove, and the ideal library has no such cost.
  EXPECT_EQ(r.out.find("one thread drives"), std::string::npos) << r.out;
}

TEST(CliValidate, OperationKeepsTheRowsOfTheOperationsItNames) {
  // The table above: --operation keeps the AllReduce row (exact, 0.0%), so an algorithm of
  // AllReduce alone (tree) applies to every row left; nccl-tests' and commsim's names alike.
  const std::string table = tmp_path("two-collectives-selected.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_gather,8,1,8,8388608,,float,none,-1,96.1258,87.27,76.36,,,\n"
             "all_reduce,8,1,8,8388608,,float,sum,-1,153.8007,54.54,95.45,,,\n");
  const std::vector<std::string> validate{
      "validate",    "--measurements", table,       "--topology", "switch",      "--npus", "8",
      "--bandwidth", "100GB/s",        "--latency", "250ns",      "--algorithm", "ring"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = validate;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_commsim(args);
  };
  const CliResult one = with({"--operation", "all_reduce"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_CONTAINS(one.out, "# commsim validate: 1 measured row on ");
  EXPECT_CONTAINS(one.out, "# |error| median / p90: all 0.0% / 0.0% (1 row)");
  EXPECT_EQ(one.out.find("allgather"), std::string::npos) << one.out;
  const CliResult both = with({"--operation", "allreduce,allgather"});
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_CONTAINS(both.out, "# |error| median / p90: all 10.0%");
  // Tree has no AllGather: on the whole table it is refused before any row runs, saying
  // which rows and what keeps the others; on the AllReduce row it runs.
  const std::vector<std::string> tree{"validate", "--measurements", table, "--topology",
                                      "switch",   "--algorithm",    "tree"};
  expect_error(
      tree, "--algorithm tree does not run allgather (" + table + ":2); --operation allreduce keeps the rows it runs");
  std::vector<std::string> tree_allreduce = tree;
  tree_allreduce.insert(tree_allreduce.end(), {"--operation", "allreduce"});
  EXPECT_EQ(run_commsim(tree_allreduce).status, 0);
  // Bad input: an unknown name, and names no row is of.
  expect_error({"validate", "--measurements", table, "--operation", "gather"},
               "--operation: unknown collective 'gather'");
  expect_error({"validate", "--measurements", table, "--operation", "broadcast,sendrecv"},
               "--operation broadcast,sendrecv: none of the 2 measured rows (allgather, allreduce)");
}

TEST(CliValidate, GivesEachRunsLatencyAndBusBandwidthMeasuredAndPredicted) {
  // Ideal ring AllReduce on 8 GPUs at 100 GB/s, 250 ns hops: 14 steps of 500 ns and
  // 14/8 S / 100 GB/s, a line of alpha 7 us and busbw 100 GB/s. Measured at alpha 14 us and
  // busbw 50 GB/s: t = 14 + 1.75 S / 5e4 us (1, 8, 64 MiB: 50.70, 307.60, 2362.83 us).
  const std::string table = tmp_path("allreduce-line.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_reduce,8,1,8,1048576,,float,sum,-1,50.700160,20.68,36.19,,,\n"
             "all_reduce,8,1,8,8388608,,float,sum,-1,307.601280,27.27,47.72,,,\n"
             "all_reduce,8,1,8,67108864,,float,sum,-1,2362.810240,28.40,49.70,,,\n");
  const std::string json = tmp_path("allreduce-line.json");
  const CliResult r =
      run_commsim({"validate", "--measurements", table, "--topology", "switch", "--npus", "8", "--bandwidth", "100GB/s",
                   "--latency", "250ns", "--algorithm", "ring", "--json", json});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(read_file(json),
                  "\"lines\": [\n  {\"operation\": \"allreduce\", \"nranks\": 8, \"algorithm\": \"ring\", "
                  "\"protocol\": \"-\", \"min_size_bytes\": 1048576, \"max_size_bytes\": 67108864, \"rows\": 3, "
                  "\"alpha_us\": {\"measured\": 14.000000, \"predicted\": 7.000000}, "
                  "\"busbw_GBps\": {\"measured\": 50.000000, \"predicted\": 100.000000}}],\n");
  EXPECT_CONTAINS(r.out,
                  "# each run of one algorithm and protocol as a line, time = alpha + size x bus factor / busbw\n");
  EXPECT_CONTAINS(r.out,
                  "    allreduce      8       ring       -        1048576..67108864     3      14.00       7.00"
                  "    50.00     100.00\n");
}

TEST(CliValidate, RowsAllLeftOutDrawNoLines) {
  // A call of no elements, which NCCL discards: no row is predicted, so no run has a line.
  const std::string table = tmp_path("empty-call.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_reduce,8,1,8,0,0,float,sum,-1,5.20,0.00,0.00,,,\n");
  const CliResult r = run_commsim({"validate", "--measurements", table});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# 1 row of no elements left out");
  EXPECT_EQ(r.out.find("# each run"), std::string::npos) << r.out;
  // Nor a table to hold to --max-error.
  const CliResult held = run_commsim({"validate", "--measurements", table, "--max-error", "10,25"});
  EXPECT_EQ(held.status, 0) << held.err;
  EXPECT_CONTAINS(held.out, "): no table to hold (every row left out)\n");
}

TEST(CliValidate, SaysWhatTheTablesThreadCostsAsTheirCommentsGiveIt) {
  // "-g 8" in a comment: one thread drove the 8 GPUs, so under NCCL's profile a call takes at
  // least 2.1 + 8 x 4.95 = 41.7 us, and 8 x 310 ns = 2.48 us more per channel it runs on.
  const std::string table = tmp_path("one-thread.csv");
  write_file(table,
             "# test: all_reduce_perf -g 8\n"
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_reduce,8,1,8,32768,,float,sum,-1,43.83,0.75,1.31,,,\n");
  const CliResult r = run_commsim({"validate", "--measurements", table, "--topology-file",
                                   source_path("topologies/a100-nvswitch-node.textproto")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "library nccl-ampere\n# measured: " + table +
                      ": NCCL release not stated\n"
                      "# one thread drives 8 GPUs (nccl-tests -g 8): a call takes at least 41.7 us + 2.48 us per "
                      "channel it runs on\n# one-node ramp: inside this node a call of 16M to below 16G takes at "
                      "least its time at 16G scaled to its size, over the library's ramp (0.556 at 16M; topo shows "
                      "it)\n# error =");
  // At 32 KiB the call runs on one channel: 41.7 + 2.48 = 44.18 us, 0.8% above 43.83.
  EXPECT_CONTAINS(r.out, "43.83       44.18      0.8");
}

TEST(CliValidate, LogsOfOneClusterAtSeveralScalesRunEachAtItsOwn) {
  // The cluster's logs with 1 and 2 GPUs a node (10 and 20 ranks) validated together: the
  // spec is built at each file's scale, and each row is what it is validated alone.
  const std::string two = source_path("tests/data/nccl-tests-h100-10node-2gpu.log");
  const CliResult together = run_commsim({"validate", "--measurements", kExcerpt, two, "--topology-file", kCluster});
  ASSERT_EQ(together.status, 0) << together.err;
  EXPECT_CONTAINS(together.out,
                  "# commsim validate: 60 measured rows on h100-ib-cluster (hierarchical, 10 nodes x 1 GPU, "
                  "rail-optimised; hierarchical, 10 nodes x 2 GPUs, rail-optimised)");
  for (const std::string& file : {kExcerpt, two}) {
    const CliResult alone = run_commsim({"validate", "--measurements", file, "--topology-file", kCluster});
    ASSERT_EQ(alone.status, 0) << alone.err;
    const std::size_t first = alone.out.find("    allgather");
    ASSERT_NE(first, std::string::npos);
    const std::string row = alone.out.substr(first, alone.out.find('\n', first) - first);
    EXPECT_CONTAINS(together.out, row);
  }
  EXPECT_CONTAINS(together.out, "allgather 2.2% / 9.7% (20 rows)");
  // Each operation at each scale too, as nccl-tests prints a table: the 10-rank AllGather is
  // the excerpt's alone (2.0% / 2.8%, AMeasuredLogAgainstItsPreset).
  EXPECT_CONTAINS(together.out,
                  "# |error| by operation and scale:\n"
                  "#     operation  ranks  rows   median      p90\n"
                  "#                                 (%)      (%)\n"
                  "      allgather     10    10      2.0      2.8\n"
                  "      allreduce     20    10 ");
  // A file that does not say its scale (no rank lines) beside files of two scales.
  std::string text = read_file(kExcerpt), unscaled;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at + 1);
    if (line.rfind("#  Rank", 0) != 0) unscaled += line;
    at = end + 1;
  }
  const std::string path = tmp_path("unscaled.log");
  write_file(path, unscaled);
  expect_error({"validate", "--measurements", kExcerpt, two, path, "--topology-file", kCluster},
               "unscaled.log:13: the row does not say its nodes and GPUs a node, and the others ran at 2 scales");
}

TEST(CliValidate, ACountOfGpusTakesTheMeasuredGpusANode) {
  // --npus 20 on the log of 10 nodes of 2: 10 nodes of the 2 GPUs the log ran, not of the
  // spec's 8; 40 GPUs are 20 nodes of 2, which the log's rows refuse.
  const std::string two = source_path("tests/data/nccl-tests-h100-10node-2gpu.log");
  const CliResult plain = run_commsim({"validate", "--measurements", two, "--topology-file", kCluster});
  const CliResult counted =
      run_commsim({"validate", "--measurements", two, "--topology-file", kCluster, "--npus", "20"});
  ASSERT_EQ(counted.status, 0) << counted.err;
  EXPECT_EQ(counted.out, plain.out);
  expect_error({"validate", "--measurements", two, "--topology-file", kCluster, "--npus", "40"},
               "20 ranks on 10 hosts of 2 GPUs, and topology 'h100-ib-cluster' has 40 NPUs");
}

TEST(CliValidate, RowsOfInterleavedScalesListAsRead) {
  // One table of the cluster at 2 x 2, 2 x 4 and again 2 x 2 GPUs: each row runs at its own
  // scale, and the rows list in the table's order, not scale by scale.
  const std::string table = tmp_path("interleaved.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_gather,4,2,2,67108864,,float,none,-1,1500.00,44.74,33.55,,,\n"
             "all_reduce,8,2,4,67108864,,float,sum,-1,2000.00,33.55,58.72,,,\n"
             "all_reduce,4,2,2,67108864,,float,sum,-1,2500.00,26.84,40.27,,,\n");
  const CliResult r = run_commsim({"validate", "--measurements", table, "--topology-file", kCluster});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t gather = r.out.find("    allgather     67108864      4");
  const std::size_t reduce8 = r.out.find("    allreduce     67108864      8");
  const std::size_t reduce4 = r.out.find("    allreduce     67108864      4");
  ASSERT_NE(reduce4, std::string::npos) << r.out;
  EXPECT_LT(gather, reduce8);
  EXPECT_LT(reduce8, reduce4);
  EXPECT_CONTAINS(r.out, "# |error| median / p90 by operation: allgather ");
}

TEST(CliValidate, MaxErrorHoldsEachTableToAMedianAndP90) {
  // The excerpt's one table, median 2.0% and p90 2.8% |error| (AMeasuredLogAgainstItsPreset):
  // within 10%,25% and 2%,3% (its median 1.95%), over 1.5%,3%: exit status 1, the table named.
  const std::vector<std::string> validate{"validate", "--measurements", kExcerpt, "--topology-file", kCluster};
  const auto with = [&](const std::string& limits) {
    std::vector<std::string> args = validate;
    args.insert(args.end(), {"--max-error", limits});
    return run_commsim(args);
  };
  const CliResult within = with("10,25");
  ASSERT_EQ(within.status, 0) << within.err;
  // The tables in JSON too, with their errors as fractions.
  const std::string json = tmp_path("tables.json");
  std::vector<std::string> args = validate;
  args.insert(args.end(), {"--json", json});
  ASSERT_EQ(run_commsim(args).status, 0);
  EXPECT_CONTAINS(read_file(json),
                  "\"by_table\": [\n  {\"operation\": \"allgather\", \"nranks\": 10, \"errors\": {\"rows\": 10, "
                  "\"median_abs_error\": 0.019521, \"p90_abs_error\": 0.028065}}],\n");
  EXPECT_CONTAINS(within.out,
                  "# --max-error 10%,25% (median, p90 of |error| of each operation at each scale): every table "
                  "within (1 table)\n");
  EXPECT_EQ(with("2%,3%").status, 0);
  const CliResult over = with("1.5%,3");
  EXPECT_EQ(over.status, 1);
  EXPECT_CONTAINS(over.out, "1 of 1 table over: allgather at 10 ranks 2.0% / 2.8% (10 rows)\n");
  EXPECT_EQ(over.err, "commsim: validate: 1 of 1 table over --max-error 1.5%,3%\n");
  EXPECT_EQ(with("10,2.5").status, 1);  // over by its p90
  EXPECT_EQ(with("-0,5").err, "commsim: validate: 1 of 1 table over --max-error 0%,5%\n");
  // Without --max-error, no line and status 0.
  const CliResult plain = run_commsim(validate);
  EXPECT_EQ(plain.status, 0);
  EXPECT_EQ(plain.out.find("--max-error"), std::string::npos);
}

TEST(CliValidate, JobsChangeNothingButTheTimeTaken) {
  // The cluster's logs at three scales, 150 rows: on 3 threads byte for byte what 1 prints.
  const std::vector<std::string> validate{"validate",
                                          "--measurements",
                                          source_path("tests/data/nccl-tests-h100-10node-2gpu.log"),
                                          source_path("tests/data/nccl-tests-h100-10node-4gpu.log"),
                                          source_path("tests/data/nccl-tests-h100-10node-8gpu.log"),
                                          "--topology-file",
                                          kCluster};
  std::vector<std::string> one = validate, three = validate;
  one.insert(one.end(), {"--jobs", "1"});
  three.insert(three.end(), {"--jobs", "3"});
  const CliResult r1 = run_commsim(one), r3 = run_commsim(three);
  ASSERT_EQ(r1.status, 0) << r1.err;
  EXPECT_CONTAINS(r1.out, "# commsim validate: 150 measured rows on ");
  EXPECT_EQ(r3.out, r1.out);
  std::vector<std::string> none = validate;
  none.insert(none.end(), {"--jobs", "0"});
  expect_error(none, "--jobs");
}

TEST(CliValidate, ATableOfSizesAndTimesAloneRunsAtTheTopologysRanks) {
  // No nranks, algbw or busbw: the rows run on the default node's 8 GPUs, busbw is derived
  // (33554432 B in 800 us: 41.94 GB/s x 2 x 7/8 = 73.40), and the measured line through both
  // rows is alpha 600 us, busbw 33554432 x 1.75 B / 200 us = 293.60 GB/s.
  const std::string table = tmp_path("sizes-and-times.csv");
  write_file(table,
             "# two AllReduce times\ncollective,size_bytes,oop_time_us\nall_reduce,33554432,800\n"
             "all_reduce,67108864,1000\n");
  const CliResult r = run_commsim({"validate", "--measurements", table});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "    allreduce     33554432      8 ");
  EXPECT_CONTAINS(r.out, "800.00");
  EXPECT_CONTAINS(r.out, "   73.40 ");
  EXPECT_CONTAINS(r.out, "    allreduce      8 ");
  EXPECT_CONTAINS(r.out, "     600.00 ");
  EXPECT_CONTAINS(r.out, "  293.60 ");
}

TEST(CliValidate, BadInput) {
  expect_error({"validate"}, "give --measurements FILE...");
  expect_error({"validate", "--measurements", "/nonexistent.log"}, "/nonexistent.log: cannot open");
  // 10 ranks measured on 10 hosts, 8 NPUs in the node spec: the message says how to give a
  // cluster.
  expect_error({"validate", "--measurements", kExcerpt, "--topology-file", "h100-nvswitch-node"},
               "nccl-tests-allgather-excerpt.log:23: 10 ranks on 10 hosts of 1 GPU, and topology "
               "'h100-nvswitch-node' has 8 NPUs (give a cluster spec, such as --topology-file h100-ib-cluster (or "
               "a100-, b200-ib-cluster): it is built at the nodes and GPUs a node the file names, or at --nodes and "
               "--gpus-per-node)");
  // As it says: the shipped spec by its name, at the log's scale, as by its path.
  const CliResult by_name = run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", "h100-ib-cluster"});
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_EQ(by_name.out, run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", kCluster}).out);
  EXPECT_CONTAINS(by_name.out, "on h100-ib-cluster (hierarchical, 10 nodes x 1 GPU, rail-optimised)");
  expect_error({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--nodes", "10",
                "--gpus-per-node", "1", "--algorithm", "bogus"},
               "--algorithm: unknown algorithm 'bogus'");
  // A JSON file that is no nccl-tests report, and a report of CPU times (-C 1).
  const std::string spec_json = tmp_path("not-a-report.json");
  write_file(spec_json, R"({"name":"box","builder":{"kind":"SWITCH"}})");
  expect_error({"validate", "--measurements", spec_json}, spec_json + ": JSON, but no nccl-tests report");
  const std::string cpu_json = tmp_path("cpu-time-report.json");
  write_file(cpu_json, R"({"args":["./build/all_reduce_perf"],"results":[{"size":1024,"count":256,"root":"    -1",)"
                       R"("out_of_place":{"cpu_time":4.1,"alg_bw":0.25,"bus_bw":0.44}}]})");
  expect_error({"validate", "--measurements", cpu_json},
               cpu_json + ": results[0].out_of_place: 'cpu_time' is the host's time to launch an iteration");
  const std::string empty = tmp_path("empty.log");
  write_file(empty, "# nccl-tests version 2.17.8\n");
  expect_error({"validate", "--measurements", empty}, empty);
  for (const auto& [limits, message] : std::vector<std::pair<std::string, std::string>>{
           {"10", "--max-error: expected MEDIAN,P90 in percent, e.g. 10,25, got '10'"},
           {"10,25,50", "got '10,25,50'"},
           {"ten,25", "--max-error median"},
           {"10,", "--max-error p90"},
           {"10,-1", "--max-error: the p90 must not be negative, got '10,-1'"}}) {
    expect_error({"validate", "--measurements", kExcerpt, "--topology-file", kCluster, "--max-error", limits}, message);
  }
}

}  // namespace
}  // namespace commsim::testing
