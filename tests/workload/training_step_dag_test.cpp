// generate_training_step's DAG: nodes and dependencies of small steps written out by hand,
// which slices make the gradients, group names and indices, and the node count of steps up
// to 64 ranks.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "topology/builders.h"
#include "workload/chakra_reader.h"
#include "workload/chakra_writer.h"
#include "workload/generators.h"
#include "workload/replay.h"
#include "workload/training_step.h"
#include "training_step_shapes.h"

namespace commsim {
namespace {

using testing::built;
using testing::named;
using testing::pipeline;
using Ids = std::vector<TraceNodeId>;

// tp = 2, pp = 2 on 4 ranks: pipelines {0, 2} and {1, 3}, TP groups {0, 1} and {2, 3}.
TrainingStepShape tp2_pp2() {
  TrainingStepShape s;
  s.ranks = 4;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 2, 1, ps_from_us(100), ps_from_us(200), 64);
  s.pipelines = {{0, 2}, {1, 3}};
  s.families = {{"tp", {{0, 1}, {2, 3}}}};
  return s;
}

TEST(TrainingStepDag, SlicesAndCollectivesChainInProgramOrder) {
  // Stage 0's program (1F1B, p = 2, m = 1): F0, call{send activation 0, recv gradient 0}, B0.
  // Two slices; one AllReduce after each forward slice, an AllReduce and an AllGather after
  // each backward slice; an optimizer and an AllGather of the weights after it.
  TrainingStepShape s = tp2_pp2();
  s.slices = 2;
  s.forward_collectives = {{CollectiveKind::kAllReduce, 100, 0, "tp allreduce", std::nullopt}};
  s.backward_collectives = {{CollectiveKind::kAllReduce, 100, 0, "", std::nullopt},
                            {CollectiveKind::kAllGather, 64, 0, "sp allgather", std::nullopt}};
  s.optimizer_ps = ps_from_us(10);
  s.after_optimizer = {{CollectiveKind::kAllGather, 1000, 0, "weights allgather", std::nullopt}};
  const Workload w = generate_training_step(s);
  EXPECT_EQ(w.groups, (std::vector<CommGroup>{{"tp0", {0, 1}}, {"tp1", {2, 3}}}));
  struct Expected {
    std::string name;
    NodeKind kind;
    Ids deps;
  };
  const std::vector<Expected> rank0{
      {"F0 slice 0", NodeKind::kCompute, {}},
      {"F0 slice 0: tp allreduce", NodeKind::kCollective, {1}},
      {"F0 slice 1", NodeKind::kCompute, {2}},  // waits for the AllReduce before it
      {"F0 slice 1: tp allreduce", NodeKind::kCollective, {3}},
      {"send activation of micro-batch 0 between stages 0 and 1", NodeKind::kSend, {4}},  // reduced output
      {"recv gradient of micro-batch 0 between stages 0 and 1", NodeKind::kRecv, {4}},
      {"B0 slice 0", NodeKind::kCompute, {6}},
      {"B0 slice 0: tp allreduce", NodeKind::kCollective, {7}},  // named after its family
      {"B0 slice 0: sp allgather", NodeKind::kCollective, {7, 8}},  // after the slice and the one before
      {"B0 slice 1", NodeKind::kCompute, {9}},
      {"B0 slice 1: tp allreduce", NodeKind::kCollective, {10}},
      {"B0 slice 1: sp allgather", NodeKind::kCollective, {10, 11}},
      {"optimizer", NodeKind::kCompute, {12}},
      {"weights allgather", NodeKind::kCollective, {13}},
  };
  const std::vector<WorkloadNode>& n = w.ranks[0].nodes;
  ASSERT_EQ(n.size(), rank0.size());
  for (std::size_t i = 0; i < n.size(); ++i) {
    SCOPED_TRACE("node " + std::to_string(i + 1));
    EXPECT_EQ(n[i].id, i + 1);
    EXPECT_EQ(n[i].name, rank0[i].name);
    EXPECT_EQ(n[i].kind, rank0[i].kind);
    EXPECT_EQ(n[i].deps, rank0[i].deps);
    if (n[i].kind == NodeKind::kCollective) {
      EXPECT_EQ(n[i].group, std::size_t{0});
    }
  }
  EXPECT_EQ(n[0].duration_ps, ps_from_us(50));
  EXPECT_EQ(n[8].collective, CollectiveKind::kAllGather);
  EXPECT_EQ(n[8].bytes, 64u);
  EXPECT_EQ(n[4].peer, Rank{2});
  EXPECT_EQ(n[4].bytes, 64u);
  // Stage 1 (rank 2): call{recv activation 0}, F0, B0, call{send gradient 0}. The send
  // leaves after B0's last collective; the optimizer follows the same, not the send.
  const RankTrace& last = w.ranks[2];
  ASSERT_EQ(last.nodes.size(), 14u);
  EXPECT_EQ(last.nodes[0].kind, NodeKind::kRecv);
  EXPECT_EQ(named(last, "F0 slice 0").deps, Ids{1});
  EXPECT_EQ(named(last, "B0 slice 0").deps, Ids{5});
  EXPECT_EQ(named(last, "send gradient of micro-batch 0 between stages 0 and 1").deps, Ids{11});
  EXPECT_EQ(named(last, "optimizer").deps, Ids{11});
  EXPECT_EQ(named(last, "B0 slice 1: tp allreduce").group, std::size_t{1});
  // The two TP pairs run the same programs, so each pair finishes together.
  const ReplayResult r = replay_workload(w, built(TopologyKind::kSwitch, 4, 100e9, ps_from_ns(100)), {});
  EXPECT_EQ(r.ranks[0].finish_ps, r.ranks[1].finish_ps);
  EXPECT_EQ(r.ranks[2].finish_ps, r.ranks[3].finish_ps);
  EXPECT_GT(r.total_ps, ps_from_us(2 * 300 + 10));
}

TEST(TrainingStepDag, GradientsBecomeReadyOverEachChunksLastBackward) {
  // Interleaved, p = 2, v = 2, m = 2: device 0 runs F0 F1 F0.1 F1.1 B0.1 B1.1 B0 B1; its
  // chunks' last backwards are B1.1 and B1. Two slices each: 4 pieces make 10 B of
  // gradients, 2 + 2 + 3 + 3 B (the remainder on the last pieces). Buckets of at least 4 B:
  // {2, 2} after B1.1's last slice, {3, 3} after B1's and the first bucket.
  TrainingStepShape s;
  s.ranks = 4;
  s.pipeline = pipeline(PipelineSchedule::kInterleaved, 2, 2, ps_from_us(100), ps_from_us(200), 64);
  s.pipelines = {{0, 1}, {2, 3}};
  s.families = {{"dp", {{0, 2}, {1, 3}}}};
  s.slices = 2;
  s.gradients = {10, 4, 0, CollectiveKind::kReduceScatter, std::nullopt};
  s.after_gradients = {{CollectiveKind::kAllReduce, 8, 0, "gradient norm", std::nullopt}};
  const Workload w = generate_training_step(s);
  const RankTrace& rank = w.ranks[2];
  const WorkloadNode& first = named(rank, "reducescatter gradients, bucket 0");
  const WorkloadNode& second = named(rank, "reducescatter gradients, bucket 1");
  EXPECT_EQ(first.bytes, 4u);
  EXPECT_EQ(first.collective, CollectiveKind::kReduceScatter);
  EXPECT_EQ(first.group, std::size_t{0});  // dp0 = {0, 2}
  EXPECT_EQ(first.deps, Ids{named(rank, "B1.1 slice 1").id});
  EXPECT_EQ(second.bytes, 6u);
  EXPECT_EQ(second.deps, (Ids{named(rank, "B1 slice 1").id, first.id}));
  // After the program's last action (B1 on virtual stage 0 sends nothing) and the buckets.
  EXPECT_EQ(named(rank, "gradient norm").deps, (Ids{named(rank, "B1 slice 1").id, second.id}));
  EXPECT_EQ(std::count_if(rank.nodes.begin(), rank.nodes.end(),
                          [](const WorkloadNode& n) { return n.kind == NodeKind::kCollective; }),
            3);
  EXPECT_EQ(replay_workload(w, built(TopologyKind::kSwitch, 4, 100e9, 0), {}).ranks.size(), 4u);
}

TEST(TrainingStepDag, GroupNamesSortAndSurviveAChakraRoundTrip) {
  // tp = 2, dp = 12 on 24 ranks, rank = t + 2 d: TP groups {2d, 2d + 1} named tp00..tp11
  // (zero-padded), DP groups {t, t + 2, ..., t + 22} named dp0, dp1. Workload::groups is in
  // name order, dp0 dp1 tp00 .. tp11, the order a Chakra group file is read back in.
  TrainingStepShape s;
  s.ranks = 24;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 1, 2, ps_from_us(100), ps_from_us(200), 0);
  s.families = {{"tp", {}}, {"dp", {{}, {}}}};
  for (Rank r = 0; r < 24; ++r) {
    s.pipelines.push_back({r});
    if (r % 2 == 0) s.families[0].groups.push_back({r, r + 1});
    s.families[1].groups[r % 2].push_back(r);
  }
  s.forward_collectives = {{CollectiveKind::kAllReduce, 1024, 0, "", std::nullopt}};
  s.gradients = {4096, 1024, 1, CollectiveKind::kAllReduce, std::nullopt};
  const Workload w = generate_training_step(s);
  ASSERT_EQ(w.groups.size(), 14u);
  EXPECT_EQ(w.groups[0].name, "dp0");
  EXPECT_EQ(w.groups[1], (CommGroup{"dp1", {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}}));
  EXPECT_EQ(w.groups[2], (CommGroup{"tp00", {0, 1}}));
  EXPECT_EQ(w.groups[13], (CommGroup{"tp11", {22, 23}}));
  EXPECT_EQ(named(w.ranks[5], "F1: tp allreduce").group, std::size_t{2 + 2});  // tp02 = {4, 5}
  EXPECT_EQ(named(w.ranks[5], "allreduce gradients, bucket 0").group, std::size_t{1});
  const std::string prefix = std::string(COMMSIM_TEST_TMP_DIR) + "/training-step";
  for (Rank r = 0; r <= 24; ++r) std::filesystem::remove(chakra_rank_path(prefix, r));
  const ChakraWriteResult written = write_chakra_trace(w, prefix);
  const Workload copy = load_chakra_trace(prefix, written.groups_file);
  EXPECT_EQ(copy.groups, w.groups);
  for (Rank r = 0; r < 24; ++r) EXPECT_EQ(copy.ranks[r].nodes, w.ranks[r].nodes) << "rank " << r;
}

// tp = 2, pp = 2, dp = 2 on 8 ranks, rank = t + 2 d + 4 p (Megatron-LM's tp-cp-dp-pp order).
TrainingStepShape tp2_pp2_dp2(std::uint32_t microbatches) {
  TrainingStepShape s;
  s.ranks = 8;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 2, microbatches, ps_from_us(100), ps_from_us(200), 1 << 20);
  s.pipelines = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
  s.families = {{"tp", {{0, 1}, {2, 3}, {4, 5}, {6, 7}}}, {"dp", {{0, 2}, {1, 3}, {4, 6}, {5, 7}}}};
  s.slices = 3;
  const StepCollective allreduce{CollectiveKind::kAllReduce, 1 << 20, 0, "", std::nullopt};
  s.forward_collectives = {allreduce, allreduce};
  s.backward_collectives = {allreduce, allreduce};
  s.gradients = {6000, 4000, 1, CollectiveKind::kAllReduce, std::nullopt};  // 3 x 2000 B: 2 buckets
  s.optimizer_ps = ps_from_us(1);
  return s;
}

TEST(TrainingStepDag, NodeCountIsLinearInMicrobatchesAndSlices) {
  // Per rank: 2m sends and receives (1F1B on 2 stages: each stage m one way, m the other),
  // 2m x 3 compute slices, 2m x 3 x 2 collectives, 2 buckets and the optimizer:
  // 2m + 6m + 12m + 3 = 20m + 3, i.e. 83 nodes for m = 4 and 163 for m = 8.
  for (const std::uint32_t m : {4u, 8u}) {
    const TrainingStepShape s = tp2_pp2_dp2(m);
    const Workload plain = generate_pipeline(s.pipeline);
    EXPECT_EQ(plain.ranks[0].nodes.size(), 4u * m);  // 2m P2P + 2m compute
    const Workload w = generate_training_step(s);
    for (Rank r = 0; r < 8; ++r) EXPECT_EQ(w.ranks[r].nodes.size(), 20u * m + 3) << "rank " << r;
    const ReplayResult replayed = replay_workload(w, built(TopologyKind::kSwitch, 8, 100e9, ps_from_ns(100)), {});
    EXPECT_GT(replayed.total_ps, (m + 1) * ps_from_us(300));  // (m + p - 1)(tf + tb), compute alone
  }
}

TEST(TrainingStepDag, SixtyFourRankStepGeneratesAndReplays) {
  // tp = 4, pp = 4, dp = 4 on 8 nodes of 8 GPUs, rank = t + 4 d + 16 p; 1F1B, m = 16, 4
  // slices, 2 TP AllReduces of 32 MiB after each forward and each backward slice, 32 MiB
  // activations, 1600 MiB of gradients ReduceScattered in dp (4 pieces of 400 MiB, each over
  // the 25 MiB cap: 4 buckets), an optimizer and the AllGather of the weights. Nodes per rank:
  // 2 m x 4 compute + 2 m x 4 x 2 collectives + 4 buckets + 2 = 390, plus 2m P2P on the end
  // stages and 4m in the middle: 32 x (422 + 454) = 28,032. (Its wall time goes in reports,
  // not in an assertion.)
  TrainingStepShape s;
  s.ranks = 64;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 4, 16, ps_from_us(4000), ps_from_us(8000), 32 << 20);
  s.families = {{"tp", {}}, {"dp", {}}};
  for (Rank t = 0; t < 4; ++t) {
    for (Rank d = 0; d < 4; ++d) s.pipelines.push_back({t + 4 * d, t + 4 * d + 16, t + 4 * d + 32, t + 4 * d + 48});
  }
  for (Rank p = 0; p < 4; ++p) {
    for (Rank i = 0; i < 4; ++i) {
      s.families[0].groups.push_back({16 * p + 4 * i, 16 * p + 4 * i + 1, 16 * p + 4 * i + 2, 16 * p + 4 * i + 3});
      s.families[1].groups.push_back({16 * p + i, 16 * p + i + 4, 16 * p + i + 8, 16 * p + i + 12});
    }
  }
  s.slices = 4;
  const StepCollective tp{CollectiveKind::kAllReduce, 32 << 20, 0, "", std::nullopt};
  s.forward_collectives = {tp, tp};
  s.backward_collectives = {tp, tp};
  s.gradients = {Bytes{1600} << 20, Bytes{25} << 20, 1, CollectiveKind::kReduceScatter, std::nullopt};
  s.optimizer_ps = ps_from_us(2000);
  s.after_optimizer = {{CollectiveKind::kAllGather, Bytes{1600} << 20, 1, "weights allgather", std::nullopt}};
  const Workload w = generate_training_step(s);
  std::size_t nodes = 0;
  for (const RankTrace& rank : w.ranks) nodes += rank.nodes.size();
  EXPECT_EQ(nodes, 28'032u);
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 8;
  c.gpus_per_node = 8;
  const ReplayResult r = replay_workload(w, build_topology(c), {});
  EXPECT_GT(r.total_ps, 19 * ps_from_us(12'000) + ps_from_us(2000));  // (m + p - 1)(tf + tb) + optimizer
  ASSERT_FALSE(r.critical_path.empty());
  EXPECT_EQ(r.critical_path.back().end_ps, r.total_ps);
}

}  // namespace
}  // namespace commsim
