// What the published nccl-tests tables of ../shared/validation say of the model, as
// results/validation/run.sh reports it: each shipped preset within 10% median and 25% p90 of
// its system's tables (the A100 node's AllReduce with its one thread driving 8 GPUs, below), and
// after calibration on one table, 5% median on the others (p90 15% on the A100 and PCIe
// systems). Skipped where ../shared is not checked out, but for the tables of tests/data.

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "../study/study_test_support.h"
#include "run_cli.h"

namespace commsim::testing {
namespace {

struct Errors {
  double median_pct = -1;
  double p90_pct = -1;
};

// "# |error| median / p90: all 1.4% / 6.8% (10 rows); ..." (validate), or the line that
// follows `label` (calibrate's "after:").
Errors errors_in(const std::string& out, const std::string& label) {
  const std::size_t at = out.find(label);
  Errors e;
  if (at == std::string::npos ||
      std::sscanf(out.c_str() + at + label.size(), " all %lf%% / %lf%%", &e.median_pct, &e.p90_pct) != 2) {
    ADD_FAILURE() << "no '" << label << "' in:\n" << out;
  }
  return e;
}

const std::string kH100 = source_path("topologies/h100-nvswitch-node.textproto");

Errors validated(const std::string& table, const std::string& spec) {
  const CliResult r = run_commsim({"validate", "--measurements", kValidationDir + table, "--topology-file", spec});
  EXPECT_EQ(r.status, 0) << r.err;
  return errors_in(r.out, "# |error| median / p90:");
}

Errors calibrated(const std::string& table, const std::string& spec, const std::string& output) {
  const CliResult r =
      run_commsim({"calibrate", "--measurements", kValidationDir + table, "--topology-file", spec, "--output", output});
  EXPECT_EQ(r.status, 0) << r.err;
  return errors_in(r.out, "median / p90 after:");
}

TEST(PublishedAccuracy, ShippedPresetsWithinTenAndTwentyFivePercent) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const std::vector<std::pair<std::string, std::string>> tables{
      {"h100_1node_8gpu_xxrjun_all_gather.csv", kH100},
      {"h100_1node_8gpu_xxrjun_all_reduce.csv", kH100},
      {"h100_1node_8gpu_xxrjun_alltoall.csv", kH100},
      {"h100_1node_8gpu_xxrjun_reduce_scatter.csv", kH100},
      {"h100_1node_8gpu_xxrjun_sendrecv.csv", kH100},
      {"a100_1node_8gpu_sendrecv_liplus.csv", source_path("topologies/a100-nvswitch-node.textproto")},
      {"h100_10node_10gpu_1pernode_all_reduce.csv", source_path("topologies/h100-ib-cluster.textproto")},
      {"h100_10node_10gpu_1pernode_sendrecv.csv", source_path("topologies/h100-ib-cluster.textproto")},
      {"pcie_2080ti_2gpu_noP2P_collectives.csv", source_path("topologies/pcie-2080ti-pair-no-p2p.textproto")},
  };
  for (const auto& [table, spec] : tables) {
    SCOPED_TRACE(table);
    const Errors e = validated(table, spec);
    EXPECT_LE(e.median_pct, 10);
    EXPECT_LE(e.p90_pct, 25);
  }
}

// The H100 node's ring collectives meet the stretch goal of 5% median: from 512 MiB NCCL's
// ring makes 2 to 43 loops of 24 channels x 8 ranks x 2 MiB, each paying its 7 steps' latency
// (AllGather 5.5% median with one loop).
TEST(PublishedAccuracy, H100RingCollectivesWithinFivePercentMedian) {
  SKIP_WITHOUT_VALIDATION_DIR();
  for (const char* table : {"h100_1node_8gpu_xxrjun_all_gather.csv", "h100_1node_8gpu_xxrjun_reduce_scatter.csv"}) {
    SCOPED_TRACE(table);
    EXPECT_LE(validated(table, kH100).median_pct, 5);
  }
}

// "allreduce 2.4% / 6.2% (10 rows)" of validate's "by operation" line.
Errors operation_errors(const std::string& out, const std::string& operation) {
  const std::size_t line = out.find("# |error| median / p90 by operation:");
  const std::size_t at = line == std::string::npos ? line : out.find(" " + operation + " ", line);
  Errors e;
  if (at == std::string::npos ||
      std::sscanf(out.c_str() + at + operation.size() + 2, "%lf%% / %lf%%", &e.median_pct, &e.p90_pct) != 2) {
    ADD_FAILURE() << "no errors of " << operation << " in:\n" << out;
  }
  return e;
}

// validate's output for a measurement file of tests/data on the 10-node H100 cluster preset
// with `gpus_per_node` GPUs a node.
std::string validated_on_cluster(const std::string& file, const std::string& gpus_per_node) {
  const CliResult r = run_commsim({"validate", "--measurements", source_path("tests/data/" + file), "--topology-file",
                                   source_path("topologies/h100-ib-cluster.textproto"), "--nodes", "10",
                                   "--gpus-per-node", gpus_per_node});
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// Each of `operations` in validate's output within 10% median and 25% p90 of |error|.
void expect_operations_within_bar(const std::string& out, const std::vector<const char*>& operations) {
  for (const char* operation : operations) {
    SCOPED_TRACE(operation);
    const Errors e = operation_errors(out, operation);
    EXPECT_LE(e.median_pct, 10);
    EXPECT_LE(e.p90_pct, 25);
  }
}

const std::vector<const char*> kAllOperations{"allreduce", "allgather", "reducescatter", "alltoall", "sendrecv"};

// The 10-node cluster's nccl-tests log with 1 GPU a node (../shared): every operation within
// 10% / 25%, and AllToAll within 1% median, as the preset's AllToAll factor (0.923, read from
// this log's 44.76 GB/s on 48.5 GB/s NICs) makes it: 8.0% / 12.6% without it.
TEST(PublishedAccuracy, TenH100NodesOfOneGpuEveryOperationAsShipped) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const CliResult r =
      run_commsim({"validate", "--measurements", kValidationDir + "nccl-tests-logs/h100_10node_1gpu_per_node.log",
                   "--topology-file", source_path("topologies/h100-ib-cluster.textproto")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_operations_within_bar(r.out, kAllOperations);
  EXPECT_LE(operation_errors(r.out, "alltoall").median_pct, 1);
}

// The same cluster with 2 and 4 GPUs a node (tests/data), which no figure of the preset was
// read from: every operation of the 2- and 4-GPU logs within 10% / 25% (the 4-GPU AllToAll
// since the AllToAll factor read from the 1-GPU log: 27.3% p90 before), and every operation of
// the 4-GPU run of the day before.
TEST(PublishedAccuracy, TenH100NodesOfTwoAndFourGpusAsShipped) {
  const std::string two = validated_on_cluster("nccl-tests-h100-10node-2gpu.log", "2");
  expect_operations_within_bar(two, kAllOperations);
  const std::string four = validated_on_cluster("nccl-tests-h100-10node-4gpu.log", "4");
  expect_operations_within_bar(four, kAllOperations);
  // The 4-GPU run of the day before, which no figure of the profile was read from: every
  // operation within 10% / 25%.
  const std::string day_before = validated_on_cluster("nccl-tests-h100-10node-4gpu-day-before.csv", "4");
  expect_operations_within_bar(day_before, kAllOperations);
}

// With 8 GPUs a node, two runs a day apart (tests/data): AllToAll and send/recv within 10% /
// 25% on both. The earlier run, which no figure of the profile was read from, checks the
// network P2P channel (7.6 GB/s) and per-peer cap (25 GB/s) read from the later one's
// tables: 2 channels x 7.6 = 15.2 GB/s a pair among 80 ranks, measured 15.24.
TEST(PublishedAccuracy, TenH100NodesOfEightGpusTwoRunsAsShipped) {
  for (const char* file : {"nccl-tests-h100-10node-8gpu.log", "nccl-tests-h100-10node-8gpu-day-before.csv"}) {
    SCOPED_TRACE(file);
    const std::string out = validated_on_cluster(file, "8");
    expect_operations_within_bar(out, {"alltoall", "sendrecv"});
    EXPECT_LE(operation_errors(out, "sendrecv").p90_pct, 1);
  }
}

// Another cluster's latency: 128 H100s on 16 nodes (tests/data, NVIDIA/nccl issue 1469), an
// AllReduce of 8 B to 4 KiB in 62-77 us. NCCL's Tree/LL runs it: 6.8 us a call, 14 chain steps
// of 0.6 us and 2 x 4 tree levels of 5 us across the nodes, 55.2 us as NCCL estimates it; the
// run adds the wire's latency to every hop (0.5 us a chain step through the NVSwitch, 1 us a
// level NIC to NIC): 70.2 us at 8 B, within 5.4% median and 13.0% p90 of the noisy rows (8 B
// ran 72.01 us out of place and 61.98 in place).
TEST(PublishedAccuracy, SixteenH100NodesAtSmallSizes) {
  const CliResult r =
      run_commsim({"validate", "--measurements", source_path("tests/data/nccl-tests-h100-16node-small-allreduce.csv"),
                   "--topology-file", source_path("topologies/h100-ib-cluster.textproto")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "on h100-ib-cluster (hierarchical, 16 nodes x 8 GPUs, rail-optimised)");
  EXPECT_CONTAINS(r.out, "allreduce            8    128       tree      ll    1       72.01       70.21     -2.5");
  const Errors e = errors_in(r.out, "# |error| median / p90:");
  EXPECT_LE(e.median_pct, 10);
  EXPECT_LE(e.p90_pct, 25);
}

// 4 of a node's 8 H100s of the same cluster (tests/data), on the node preset scaled to the
// log's 4 ranks by validate: the log within 10% / 25%, AllReduce (NVLS) too, and send/recv
// within 5%: NCCL starts each send among 4 ranks on twice the channels it has among 8 (149 GB/s
// at 32 MiB where 8 GPUs move 79.5), which a count fixed at 8 ranks' would miss by 90-100%.
TEST(PublishedAccuracy, FourH100sOfANodeAsShipped) {
  const CliResult r = run_commsim({"validate", "--measurements", source_path("tests/data/nccl-tests-h100-node-4gpu.log"),
                                   "--topology-file", kH100});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "on h100-nvswitch-node (switch, 4 NPUs)");
  const Errors all = errors_in(r.out, "# |error| median / p90:");
  EXPECT_LE(all.median_pct, 10);
  EXPECT_LE(all.p90_pct, 25);
  const Errors allreduce = operation_errors(r.out, "allreduce");
  EXPECT_LE(allreduce.median_pct, 10);
  EXPECT_LE(allreduce.p90_pct, 25);
  const Errors sendrecv = operation_errors(r.out, "sendrecv");
  EXPECT_LE(sendrecv.median_pct, 5);
  EXPECT_LE(sendrecv.p90_pct, 5);
}

// Tables run with one thread driving every GPU (-g G): a call takes at least 2.1 + G x (b + C
// x c) us on the C channels NCCL runs it on, b + c = 5.26 (Ampere c 0.31, Hopper 0.05). The
// 2080 Ti pair's (-g 2; its preset keeps issue 123's 10 us at one channel): 8.9% / 24.3% as a
// process a GPU, within 5% / 20%. The A100 node's AllReduce (-g 8: 1 channel at 32 KiB, 24
// from 1 MiB): 12.8% / 50.3% as a process a GPU, 1.0% / 12.2% driven by one thread, as its
// preset is (10.7% / 20.7% with issue 123's 3.95 us a GPU; 8-256 MiB stay 9-14% optimistic).
TEST(PublishedAccuracy, TablesOfOneThreadDrivingEveryGpu) {
  SKIP_WITHOUT_VALIDATION_DIR();
  struct Expected {
    std::string table, spec;
    double median_pct, p90_pct;
  };
  const std::vector<Expected> tables{
      {"pcie_2080ti_2gpu_noP2P_collectives.csv", "topologies/pcie-2080ti-pair-no-p2p.textproto", 5, 20},
      {"a100_1node_8gpu_allreduce_stas00.csv", "topologies/a100-nvswitch-node.textproto", 5, 15},
  };
  for (const Expected& t : tables) {
    SCOPED_TRACE(t.table);
    const Errors e = validated(t.table, source_path(t.spec));
    EXPECT_LE(e.median_pct, t.median_pct);
    EXPECT_LE(e.p90_pct, t.p90_pct);
  }
}

// A table that does not say how it ran, on a preset that says how its system is driven: the
// A100 AllReduce table without its "-g 8" comment runs on the A100 preset (one process
// driving the node) as the table with it does (1.0% / 12.2%); on the same node run as a
// process a GPU (no gpus_per_thread), its small rows come out 45-50% fast (12.8% / 50.3%).
TEST(PublishedAccuracy, APresetDrivenByOneProcessPredictsATableThatDoesNotSay) {
  SKIP_WITHOUT_VALIDATION_DIR();
  std::string text = read_file(kValidationDir + "a100_1node_8gpu_allreduce_stas00.csv");
  for (const std::string said : {" -g 8", "single process -g 8"}) {
    for (auto at = text.find(said); at != std::string::npos; at = text.find(said)) text.erase(at, said.size());
  }
  ASSERT_EQ(text.find("-g "), std::string::npos);
  const std::string silent = tmp_path("a100-allreduce-without-its-launch.csv");
  write_file(silent, text);
  const std::string preset = source_path("topologies/a100-nvswitch-node.textproto");
  std::string node = read_file(preset);
  const std::string driven_by_one = " gpus_per_thread: 8 }";
  ASSERT_NE(node.find(driven_by_one), std::string::npos);
  node.replace(node.find(driven_by_one), driven_by_one.size(), " }");
  const std::string per_gpu = tmp_path("a100-a-process-a-gpu.textproto");
  write_file(per_gpu, node);
  const auto errors = [&](const std::string& spec) {
    const CliResult r = run_commsim({"validate", "--measurements", silent, "--topology-file", spec});
    EXPECT_EQ(r.status, 0) << r.err;
    return errors_in(r.out, "# |error| median / p90:");
  };
  const Errors driven = errors(preset);
  const Errors said = validated("a100_1node_8gpu_allreduce_stas00.csv", preset);
  EXPECT_DOUBLE_EQ(driven.median_pct, said.median_pct);
  EXPECT_DOUBLE_EQ(driven.p90_pct, said.p90_pct);
  EXPECT_LE(driven.p90_pct, 15);
  EXPECT_GE(errors(per_gpu).p90_pct, 40);
}

// 4 H100s of another node, one thread driving all 4 (-g 4, NCCL 2.29.2; tests/data): from 8 B
// to 4 KiB every call takes 23.1-23.4 us, the thread's 2.1 + 4 x 5.26 = 23.14 on one channel
// (the call's own 13.2), and 27.74 on all 24 channels at 512 KiB (measured 27.88). Each
// collective within 10% / 25%, the 6 rows of 0 B (AllGather and ReduceScatter of no element a
// rank, which NCCL discards) left out.
TEST(PublishedAccuracy, FourH100sDrivenByOneThreadAsShipped) {
  const CliResult r =
      run_commsim({"validate", "--measurements", source_path("tests/data/nccl-tests-h100-node-4gpu-g4.log"),
                   "--topology-file", kH100});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# one thread drives 4 GPUs (nccl-tests -g 4): a call takes at least 22.94 us + 200 ns per");
  EXPECT_CONTAINS(r.out, "allreduce            8      4       ring      ll    1       23.30       23.14     -0.7");
  EXPECT_CONTAINS(r.out, "allreduce       524288      4       ring      ll   24       27.88       27.74     -0.5");
  EXPECT_CONTAINS(r.out, "# 6 rows of no elements left out");
  for (const char* operation : {"allreduce", "allgather", "reducescatter"}) {
    SCOPED_TRACE(operation);
    const Errors e = operation_errors(r.out, operation);
    EXPECT_LE(e.median_pct, 10);
    EXPECT_LE(e.p90_pct, 25);
  }
}

TEST(PublishedAccuracy, H100CalibratedOnAllReduceWithinFivePercentOnTheOthers) {
  SKIP_WITHOUT_VALIDATION_DIR();
  const std::string spec = tmp_path("h100-calibrated-on-allreduce.textproto");
  calibrated("h100_1node_8gpu_xxrjun_all_reduce.csv", kH100, spec);
  for (const char* table : {"h100_1node_8gpu_xxrjun_all_gather.csv", "h100_1node_8gpu_xxrjun_reduce_scatter.csv"}) {
    SCOPED_TRACE(table);
    EXPECT_LE(validated(table, spec).median_pct, 5);
  }
  // The AllReduce table's excess is NVLS's pipeline fill, not a launch cost every collective
  // pays, so its fit carries no launch to AllToAll, whose slow ramp (README) stays: the
  // must-show's 10%.
  EXPECT_LE(validated("h100_1node_8gpu_xxrjun_alltoall.csv", spec).median_pct, 10);
}

TEST(PublishedAccuracy, A100AndPcieCalibratedWithinFiveAndFifteenPercent) {
  SKIP_WITHOUT_VALIDATION_DIR();
  for (const auto& [table, spec] : std::vector<std::pair<std::string, std::string>>{
           {"a100_1node_8gpu_allreduce_stas00.csv", "topologies/a100-nvswitch-node.textproto"},
           {"pcie_2080ti_2gpu_noP2P_collectives.csv", "topologies/pcie-2080ti-pair-no-p2p.textproto"}}) {
    SCOPED_TRACE(table);
    const Errors e = calibrated(table, source_path(spec), tmp_path("calibrated-" + table + ".textproto"));
    EXPECT_LE(e.median_pct, 5);
    EXPECT_LE(e.p90_pct, 15);
  }
}

}  // namespace
}  // namespace commsim::testing
