// Golden outputs of collective, p2p and pipeline in the shapes their reports take: blocks
// per algorithm with the fastest at each size, NCCL's choice with its protocol, verbose
// closed forms, data checks, P2P channels, pipeline comparisons with deadlocks, a single
// pipeline run per stage, and the CSV rows beside them; the Graphviz picture of two nodes.
// Set COMMSIM_UPDATE_GOLDEN=1 to rewrite the golden files after an intended change.

#include <gtest/gtest.h>

#include "run_cli.h"

namespace commsim::testing {
namespace {

/// Runs commsim with --csv, and compares both what it printed and the CSV with golden files.
void expect_golden_with_csv(std::vector<std::string> args, const std::string& golden, const std::string& golden_csv) {
  const std::string csv = tmp_path(golden_csv);
  args.insert(args.end(), {"--csv", csv});
  expect_golden(args, golden);
  expect_golden_text(read_file(csv), golden_csv);
}

TEST(CliGolden, CollectiveEveryAlgorithmOnATorus) {
  expect_golden_with_csv({"collective", "--topology", "torus", "--dims", "4x4", "--collective", "allgather",
                          "--algorithm", "all", "--sizes", "1K:1M", "--verbose", "--verify"},
                         "collective_allgather_torus.txt", "collective_allgather_torus.csv");
}

TEST(CliGolden, CollectiveNcclChoiceOnTwoNodes) {
  expect_golden({"collective", "--topology", "hierarchical", "--nodes", "2", "--gpus-per-node", "4", "--library",
                 "nccl", "--sizes", "1K:256M", "--verbose"},
                "collective_nccl_hierarchical.txt");
}

TEST(CliGolden, CollectiveBroadcastChunksGammaAndRankOrder) {
  expect_golden({"collective", "--collective", "broadcast", "--root", "3", "--algorithm", "all", "--chunks", "4",
                 "--gamma", "200GB/s", "--overhead", "5us", "--topology", "ring", "--npus", "6", "--sizes", "1K:1M",
                 "--rank-order", "random:1"},
                "collective_broadcast_ring.txt");
}

TEST(CliGolden, P2pShiftUnderNcclChannels) {
  expect_golden_with_csv({"p2p", "--topology", "hierarchical", "--nodes", "2", "--gpus-per-node", "4", "--library",
                          "nccl", "--pattern", "shift:4", "--sizes", "1K:64M"},
                         "p2p_shift_nccl.txt", "p2p_shift_nccl.csv");
}

TEST(CliGolden, P2pBidirectionalWithOverhead) {
  expect_golden({"p2p", "--topology", "ring", "--npus", "4", "--pattern", "bidirectional", "--src", "1", "--dst",
                 "3", "--sizes", "1K:16M", "--overhead", "2us"},
                "p2p_bidirectional_ring.txt");
}

TEST(CliGolden, PipelineEveryScheduleAndMode) {
  expect_golden_with_csv({"pipeline", "--schedule", "all", "--compare", "--overhead", "20us", "--activation-size",
                          "24MB"},
                         "pipeline_compare_all.txt", "pipeline_compare_all.csv");
}

TEST(CliGolden, PipelineDeadlocksAreRows) {
  expect_golden({"pipeline", "--schedule", "all", "--compare", "--p2p-order", "send-first", "--topology", "ring",
                 "--npus", "4", "--link-kind", "ethernet", "--bandwidth", "12.5GB/s", "--latency", "10us"},
                "pipeline_deadlocks.txt");
}

TEST(CliGolden, PipelineInterleavedPerStage) {
  expect_golden({"pipeline", "--topology-file", datasheet_h100(), "--library", "nccl", "--schedule", "interleaved",
                 "--virtual-stages", "4", "--stages", "8", "--microbatches", "16", "--forward-time",
                 "1ms,1ms,1ms,1ms,1ms,1ms,1ms,2ms"},
                "pipeline_interleaved_nccl.txt");
}

TEST(CliGolden, TopoGraphvizOfTwoNodes) {
  expect_golden({"topo", "--topology", "hierarchical", "--nodes", "2", "--gpus-per-node", "4", "--dot", "-"},
                "topo_hierarchical_2x4.dot");
}

}  // namespace
}  // namespace commsim::testing
