// commsim calibrate: a fit to a measured log, the spec it writes, and bad input.

#include <gtest/gtest.h>

#include <filesystem>

#include "run_cli.h"

namespace commsim::testing {
namespace {

const std::string kExcerpt = source_path("tests/data/nccl-tests-allgather-excerpt.log");
const std::string kCluster = source_path("topologies/h100-ib-cluster.textproto");
const std::string kNode = source_path("topologies/h100-nvswitch-node.textproto");

TEST(CliCalibrate, FitsALogAndWritesASpecThatPredictsIt) {
  // The log's header says 10 nodes x 1 GPU, so the cluster spec takes that shape without
  // --nodes; the fitted spec carries it, and validating the log against it gives the fit's error.
  const std::string spec = tmp_path("calibrated.textproto");
  const CliResult fit = run_commsim({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--output", spec});
  ASSERT_EQ(fit.status, 0) << fit.err;
  EXPECT_CONTAINS(fit.out, "# commsim calibrate: 10 measured rows on h100-ib-cluster");
  EXPECT_CONTAINS(fit.out, "network bandwidth scale");
  EXPECT_CONTAINS(fit.out, "# |error| median / p90 before: all 2.0% / 2.8% (10 rows)");
  // Each term's sd: AllGather's rows show the network's bandwidth closely; Tree's latencies,
  // which no AllGather runs, no row moves ("-"); Simple's network step and the launch add
  // in every Simple row, so the rows show their sum.
  EXPECT_CONTAINS(fit.out, "term  unit       start      fitted          sd   change");
  EXPECT_CONTAINS(fit.out, "     network bandwidth scale     -           1    0.978037  0.00306867     -2.2\n");
  EXPECT_CONTAINS(fit.out, "  tree simple network step    us          14          14           -      0.0\n");
  EXPECT_CONTAINS(fit.out,
                  "# told apart poorly, correlation of the fitted values (-1: the rows show their sum or product): "
                  "simple network step and launch (-0.98)\n");
  const std::string text = read_file(spec);
  EXPECT_CONTAINS(text, "#   network bandwidth scale 1 -> 0.978037 (sd 0.00306867)\n");
  EXPECT_CONTAINS(text, "nodes: 10");
  EXPECT_CONTAINS(text, "gpus_per_node: 1");
  EXPECT_CONTAINS(text, "name: \"nccl-hopper-multinode-calibrated\"");
  const std::string label = "# |error| median / p90 after:  all ";
  const std::size_t after = fit.out.find(label);
  ASSERT_NE(after, std::string::npos) << fit.out;
  const std::size_t begin = after + label.size();
  const std::string after_summary = fit.out.substr(begin, fit.out.find(';', begin) - begin);

  const CliResult check = run_commsim({"validate", "--measurements", kExcerpt, "--topology-file", spec});
  ASSERT_EQ(check.status, 0) << check.err;
  EXPECT_NE(check.out.find("# |error| median / p90: all " + after_summary), std::string::npos)
      << after_summary << "\n" << check.out;
}

// Without --topology-file the base is the preset of the GPUs the log names, as in validate:
// the excerpt's H100 hosts fit h100-ib-cluster, as when the option names it.
TEST(CliCalibrate, TheBaseIsThePresetOfTheGpusALogNames) {
  const std::string spec = tmp_path("calibrated-preset.textproto");
  const CliResult fit = run_commsim({"calibrate", "--measurements", kExcerpt, "--output", spec});
  ASSERT_EQ(fit.status, 0) << fit.err;
  EXPECT_CONTAINS(fit.out, "# commsim calibrate: 10 measured rows on h100-ib-cluster (hierarchical, 10 nodes x 1 GPU");
  EXPECT_CONTAINS(fit.out, "# topology: h100-ib-cluster, the preset of the NVIDIA H100 80GB HBM3");
  const std::string text = read_file(spec);
  EXPECT_CONTAINS(text, "# Calibrated from h100-ib-cluster by commsim calibrate");
  const CliResult named = run_commsim({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster});
  ASSERT_EQ(named.status, 0) << named.err;
  const std::size_t from = fit.out.find("# |error| median / p90 before:"), to = fit.out.find("# wrote ");
  ASSERT_LT(from, to) << fit.out;
  EXPECT_CONTAINS(named.out, fit.out.substr(from, to - from));
}

TEST(CliCalibrate, SeveralCollectivesGetBandwidthFactorsBesideTheFirst) {
  // AllReduce and AllGather on the H100 node (times from the H100 tables, 32-256 MiB): the
  // AllGather gets a factor, AllReduce is the reference; the written spec carries it.
  const std::string table = tmp_path("two-collectives.csv");
  write_file(table,
             "collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,oop_time_us,oop_algbw_GBps,"
             "oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps\n"
             "all_reduce,8,1,8,33554432,,float,sum,-1,182.87,183.49,321.10,,,\n"
             "all_reduce,8,1,8,67108864,,float,sum,-1,313.66,213.95,374.42,,,\n"
             "all_reduce,8,1,8,134217728,,float,sum,-1,564.78,237.65,415.88,,,\n"
             "all_reduce,8,1,8,268435456,,float,sum,-1,1081.14,248.29,434.51,,,\n"
             "all_gather,8,1,8,33554432,,float,none,-1,123.44,271.83,237.85,,,\n"
             "all_gather,8,1,8,67108864,,float,none,-1,205.21,327.03,286.15,,,\n"
             "all_gather,8,1,8,134217728,,float,none,-1,382.20,351.17,307.28,,,\n"
             "all_gather,8,1,8,268435456,,float,none,-1,721.26,372.18,325.65,,,\n");
  const std::string spec = tmp_path("two-collectives.textproto");
  const CliResult r = run_commsim({"calibrate", "--measurements", table, "--topology-file", kNode, "--output", spec});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "allgather bandwidth factor");
  EXPECT_EQ(r.out.find("allreduce bandwidth factor"), std::string::npos) << r.out;
  EXPECT_CONTAINS(r.out, "# bandwidth factors beside allreduce, which has none\n");
  const std::string text = read_file(spec);
  EXPECT_CONTAINS(text, "collective_bandwidth { collective: \"allgather\" factor: ");
  // The preset's own AllToAll factor stays, unfitted: no AllToAll was measured.
  EXPECT_CONTAINS(text, "collective_bandwidth { collective: \"alltoall\" factor: 0.96 }");
}

TEST(CliCalibrate, SaysThePriorWeightItFittedWith) {
  const std::string spec = tmp_path("prior.textproto");
  const CliResult r = run_commsim({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster,
                                   "--max-iterations", "2", "--prior-weight", "0.01", "--output", spec});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, " predictions of every row, prior weight 0.01\n");
  EXPECT_NE(read_file(spec).find("), each term held to its start with prior weight 0.01.\n"), std::string::npos);
  const CliResult by_default =
      run_commsim({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--max-iterations", "2"});
  ASSERT_EQ(by_default.status, 0) << by_default.err;
  EXPECT_CONTAINS(by_default.out, " predictions of every row, prior weight 0.001\n");
}

TEST(CliCalibrate, HoldoutIsReported) {
  const CliResult r = run_commsim(
      {"calibrate", "--measurements", kExcerpt, "--holdout", kExcerpt, "--topology-file", kCluster, "--max-iterations", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# held out, before: all 2.0% / 2.8% (10 rows)");
  EXPECT_CONTAINS(r.out, "# held out, after:  all ");
}

TEST(CliCalibrate, SaysWhichRunsOfALogItLeftOut) {
  // The excerpt with a scatter_perf run after it: fitted on the excerpt's rows, the scatter
  // run named as left out, for the fitted and the held-out files alike.
  const std::string log = tmp_path("calibrate-with-scatter.log");
  write_file(log, read_file(kExcerpt) +
                      "# Collective test starting: scatter_perf\n"
                      "        1024            32     float    none       0    20.15    0.05    0.05       0    19.80"
                      "    0.05    0.05       0\n");
  const CliResult r = run_commsim(
      {"calibrate", "--measurements", log, "--holdout", log, "--topology-file", kCluster, "--max-iterations", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# commsim calibrate: 10 measured rows");
  const std::string line = "# left out: scatter (1 row, " + log + ":";
  const std::size_t first = r.out.find(line);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(line, first + 1), std::string::npos) << "the held-out file's line";
}

TEST(CliCalibrate, FitsLogsOfOneClusterAtSeveralScales) {
  // The cluster's logs with 1 and 2 GPUs a node fitted together, the 4-GPU log held out: each
  // file's rows run on the spec built at its own scale (the held-out rows' errors before the
  // fit are those validate gives that log alone), and the fitted spec keeps the base's shape,
  // to be scaled as the base is.
  const std::string two = source_path("tests/data/nccl-tests-h100-10node-2gpu.log");
  const std::string four = source_path("tests/data/nccl-tests-h100-10node-4gpu.log");
  const std::string spec = tmp_path("calibrated-scales.textproto");
  const CliResult fit = run_commsim({"calibrate", "--measurements", kExcerpt, two, "--holdout", four, "--topology-file",
                                     kCluster, "--max-iterations", "1", "--output", spec});
  ASSERT_EQ(fit.status, 0) << fit.err;
  EXPECT_CONTAINS(fit.out,
                  "# commsim calibrate: 60 measured rows on h100-ib-cluster (hierarchical, 10 nodes x 1 GPU, "
                  "rail-optimised; hierarchical, 10 nodes x 2 GPUs, rail-optimised)");
  EXPECT_CONTAINS(fit.out, "# |error| median / p90 before: all 1.9% / 11.1% (60 rows)");
  EXPECT_CONTAINS(fit.out, "# held out, before: all 5.0% / 16.4% (50 rows)");
  // Before the fit, each operation at each scale is what validate gives it: the 10-rank
  // AllGather the excerpt's 2.0% / 2.8% (cli_validate_test.cpp); in the spec, after the fit.
  EXPECT_CONTAINS(fit.out,
                  "# |error| by operation and scale:\n"
                  "#     operation  ranks  rows   median before   p90 before   median after   p90 after\n"
                  "#                                        (%)          (%)            (%)         (%)\n"
                  "      allgather     10    10             2.0          2.8 ");
  EXPECT_CONTAINS(fit.out, "nvlink bandwidth scale");
  const std::string text = read_file(spec);
  EXPECT_CONTAINS(text, "nodes: 2 gpus_per_node: 8");
  EXPECT_CONTAINS(text,
                  "# |error| by operation and scale:\n"
                  "#     operation  ranks  rows   median      p90\n"
                  "#                                 (%)      (%)\n"
                  "#     allgather     10    10 ");
  // Fitted at one scale, held out at two that differ in nodes and GPUs a node (10 x 2, and
  // another cluster's 16 x 8): each held-out file at its own, as validate gives them together.
  const std::string sixteen = source_path("tests/data/nccl-tests-h100-16node-small-allreduce.csv");
  const CliResult held = run_commsim({"calibrate", "--measurements", kExcerpt, "--holdout", two, sixteen,
                                      "--topology-file", kCluster, "--max-iterations", "1"});
  ASSERT_EQ(held.status, 0) << held.err;
  EXPECT_CONTAINS(held.out, "# held out, before: all 2.4% / 12.5% (60 rows)");
}

TEST(CliCalibrate, OperationFitsTheRowsOfTheOperationsItNames) {
  // The 2-GPU-a-node log's AllGather alone: its 10 rows, before the fit at validate's error
  // for them (3.9% / 11.6%); held-out rows are kept by the same names.
  const std::string two = source_path("tests/data/nccl-tests-h100-10node-2gpu.log");
  const std::string spec = tmp_path("calibrated-allgather.textproto");
  const CliResult r = run_commsim({"calibrate", "--measurements", two, "--holdout", kExcerpt, "--topology-file",
                                   kCluster, "--operation", "allgather", "--max-iterations", "1", "--output", spec});
  ASSERT_EQ(r.status, 0) << r.err;
  // The spec says which rows it was fitted to.
  EXPECT_CONTAINS(read_file(spec), "relative error of 10 measured rows (" + two + "; --operation allgather), each");
  EXPECT_CONTAINS(r.out, "# commsim calibrate: 10 measured rows on h100-ib-cluster (hierarchical, 10 nodes x 2 GPUs");
  EXPECT_CONTAINS(r.out, "# |error| median / p90 before: all 3.9% / 11.6% (10 rows)");
  EXPECT_CONTAINS(r.out, "# held out, before: all 2.0% / 2.8% (10 rows)");
  expect_error({"calibrate", "--measurements", two, "--holdout", kExcerpt, "--topology-file", kCluster, "--operation",
                "sendrecv"},
               "--operation sendrecv: none of the 10 held-out rows (allgather)");
  // An algorithm some rows' collective has not is refused before the fit, pointing here.
  expect_error({"calibrate", "--measurements", two, "--topology-file", kCluster, "--algorithm", "ring"},
               "--algorithm ring does not run alltoall (" + two +
                   ":173); --operation allreduce,allgather,reducescatter,sendrecv keeps the rows it runs");
}

TEST(CliCalibrate, BadInputWritesNothing) {
  const std::string spec = tmp_path("never.textproto");
  std::filesystem::remove(spec);
  expect_error({"calibrate", "--topology-file", kCluster}, "give --measurements FILE...");
  // A table names no GPU, so no preset stands for the base.
  const std::string table = source_path("tests/data/nccl-tests-h100-16node-small-allreduce.csv");
  expect_error({"calibrate", "--measurements", table}, "give the base system as --topology-file FILE");
  // 10 ranks measured on the 8-GPU node spec.
  expect_error({"calibrate", "--measurements", kExcerpt, "--topology-file", kNode, "--output", spec},
               "nccl-tests-allgather-excerpt.log:23: 10 ranks on 10 hosts of 1 GPU, and topology "
               "'h100-nvswitch-node' has 8 NPUs");
  EXPECT_FALSE(std::filesystem::exists(spec));
  expect_error({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--max-iterations", "0"},
               "--max-iterations");
  expect_error({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--prior-weight", "-0.5"},
               "--prior-weight: '-0.5' is out of range [0, 1]");
  expect_error({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--prior-weight", "strong"},
               "--prior-weight: cannot parse 'strong' (expected a number)");
  expect_error({"calibrate", "--measurements", kExcerpt, "--topology-file", kCluster, "--output", "/nonexistent/dir/x"},
               "/nonexistent/dir/x");
  const std::string empty = tmp_path("no-rows.log");
  write_file(empty, "# nccl-tests version 2.17.8\n");
  expect_error({"calibrate", "--measurements", empty, "--topology-file", kCluster, "--output", spec}, empty);
  EXPECT_FALSE(std::filesystem::exists(spec));
}

}  // namespace
}  // namespace commsim::testing
