// generate_training_step's replay: agreement with generate_pipeline and generate_ddp where the
// step reduces to them, and hand-derived times of tensor-parallel collectives and a straggler.
// The DAG itself: training_step_dag_test.cpp; bad shapes: training_step_layout_test.cpp.

#include "workload/training_step.h"

#include <gtest/gtest.h>

#include "collective/simulate.h"
#include "topology/builders.h"
#include "workload/generators.h"
#include "workload/replay.h"
#include "same_replay.h"
#include "training_step_shapes.h"

namespace commsim {
namespace {

using testing::built;
using testing::data_parallel;
using testing::expect_same_replay;
using testing::named;
using testing::pipeline;
using testing::ring_algorithms;

TEST(TrainingStep, PipelineAloneIsGeneratePipeline) {
  // No families: the step is generate_pipeline's workload. One slice gives the same nodes;
  // three slices of each compute (100 us = 33,333,333 + 33,333,333 + 33,333,334 ps) chained in
  // program order take the same time. With free P2P, 1F1B and GPipe take (m + p - 1)(tf + tb)
  // = 11 x 300 us.
  for (const Bytes activation : {Bytes{0}, Bytes{24'000'000}}) {
    const Topology topology = built(TopologyKind::kRing, 4, 450e9, activation ? ps_from_ns(250) : 0);
    for (const PipelineSchedule schedule :
         {PipelineSchedule::kGPipe, PipelineSchedule::k1F1B, PipelineSchedule::kInterleaved}) {
      SCOPED_TRACE(std::string(schedule_name(schedule)) + ", activation " + std::to_string(activation));
      TrainingStepShape s;
      s.ranks = 4;
      s.pipeline = pipeline(schedule, 4, 8, ps_from_us(100), ps_from_us(200), activation);
      s.pipelines = {{0, 1, 2, 3}};
      const Workload expected = generate_pipeline(s.pipeline);
      const ReplayResult expected_replay = replay_workload(expected, topology, {});
      const Workload whole = generate_training_step(s);
      for (Rank r = 0; r < 4; ++r) EXPECT_EQ(whole.ranks[r].nodes, expected.ranks[r].nodes) << "rank " << r;
      s.slices = 3;
      const ReplayResult sliced = replay_workload(generate_training_step(s), topology, {});
      EXPECT_EQ(sliced.total_ps, expected_replay.total_ps);
      for (Rank r = 0; r < 4; ++r) {
        EXPECT_EQ(sliced.ranks[r].finish_ps, expected_replay.ranks[r].finish_ps) << "rank " << r;
        EXPECT_EQ(sliced.ranks[r].compute_ps, expected_replay.ranks[r].compute_ps) << "rank " << r;
      }
      if (activation == 0 && schedule != PipelineSchedule::kInterleaved) {
        EXPECT_EQ(sliced.total_ps, ps_from_us(3300));
      }
    }
  }
}

TEST(TrainingStep, PeersAreTheRanksOfTheSamePipeline) {
  // Two 1F1B pipelines on alternate ranks of an 8-NPU switch, {0, 2, 4, 6} and {1, 3, 5, 7}:
  // rank 2 (stage 1 of pipeline 0) receives from rank 0 and sends to rank 4. Every NPU has
  // its own link to the switch, so the pipelines do not meet and each takes as long as one
  // pipeline of 4 ranks on a 4-NPU switch.
  TrainingStepShape s;
  s.ranks = 8;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 4, 8, ps_from_us(100), ps_from_us(200), 24'000'000);
  s.pipelines = {{0, 2, 4, 6}, {1, 3, 5, 7}};
  const Workload w = generate_training_step(s);
  for (const WorkloadNode& n : w.ranks[2].nodes) {
    if (n.kind != NodeKind::kSend && n.kind != NodeKind::kRecv) continue;
    // Activations go to stage 2 and gradients come from it; the others are stage 0's.
    const bool activation = n.name.find("activation") != std::string::npos;
    EXPECT_EQ(n.peer, Rank{(n.kind == NodeKind::kSend) == activation ? 4u : 0u}) << n.name;
  }
  EXPECT_EQ(named(w.ranks[2], "send activation of micro-batch 0 between stages 1 and 2").peer, Rank{4});
  EXPECT_EQ(named(w.ranks[2], "recv activation of micro-batch 0 between stages 0 and 1").peer, Rank{0});
  EXPECT_EQ(named(w.ranks[7], "send gradient of micro-batch 0 between stages 2 and 3").peer, Rank{5});
  const ReplayResult both = replay_workload(w, built(TopologyKind::kSwitch, 8, 450e9, ps_from_ns(250)), {});
  const ReplayResult one =
      replay_workload(generate_pipeline(s.pipeline), built(TopologyKind::kSwitch, 4, 450e9, ps_from_ns(250)), {});
  EXPECT_EQ(both.total_ps, one.total_ps);
  for (std::uint32_t stage = 0; stage < 4; ++stage) {
    EXPECT_EQ(both.ranks[2 * stage].finish_ps, one.ranks[stage].finish_ps) << "stage " << stage;
    EXPECT_EQ(both.ranks[2 * stage + 1].finish_ps, one.ranks[stage].finish_ps) << "stage " << stage;
  }
}

// generate_ddp's BucketsHideCommunicationBehindBackward case as a step: 2 ranks, one stage,
// one micro-batch of forward 200 us and backward 400 us cut into 4 slices (the 4 layers), 2e7
// B of gradients ready 5e6 B per backward slice, buckets of 1e7 B.
TrainingStepShape ddp_case() {
  TrainingStepShape s = data_parallel(2, pipeline(PipelineSchedule::k1F1B, 1, 1, ps_from_us(200), ps_from_us(400), 0));
  s.slices = 4;
  s.gradients.bytes = 20'000'000;
  s.gradients.bucket_bytes = 10'000'000;
  return s;
}

TEST(TrainingStep, GradientBucketsReplayAsGenerateDdp) {
  // On a 2-NPU ring of 100 GB/s and 1 us, a ring AllReduce of n bytes takes 2 us + n x 1e-11 s.
  // Bucket {slices 0, 1} is ready at 200 + 200 = 400 us and reduced 400-502 under the last two
  // slices; bucket {2, 3} at 600, reduced 600-702: 702 us, 102 us exposed. One bucket
  // (cap never reached): 600 -> 600 + 2 + 200 = 802 us. generate_ddp gives the same.
  const Topology topology = built(TopologyKind::kRing, 2, 100e9, ps_from_us(1));
  DdpShape ddp;
  ddp.ranks = 2;
  ddp.layers = 4;
  ddp.forward_ps = ps_from_us(50);
  ddp.backward_ps = ps_from_us(100);
  ddp.layer_bytes = 5'000'000;
  for (const Bytes bucket : {Bytes{10'000'000}, Bytes{1'000'000'000}}) {
    SCOPED_TRACE("bucket " + std::to_string(bucket));
    TrainingStepShape s = ddp_case();
    s.gradients.bucket_bytes = ddp.bucket_bytes = bucket;
    const ReplayResult step = replay_workload(generate_training_step(s), topology, ring_algorithms());
    expect_same_replay(step, replay_workload(generate_ddp(ddp), topology, ring_algorithms()));
    EXPECT_EQ(step.total_ps, ps_from_us(bucket == 10'000'000 ? 702 : 802));
    EXPECT_EQ(step.ranks[1].exposed_comm_ps, ps_from_us(bucket == 10'000'000 ? 102 : 202));
  }
}

TEST(TrainingStep, TensorParallelAllReduceAfterEachSlice) {
  // tp = 2 on a 2-NPU ring of 100 GB/s and 1 us; pp = 1, m = 2, forward 400 us and backward
  // 800 us per micro-batch, 4 slices. A ring AllReduce of n bytes on p = 2 ranks takes
  // 2(p-1) steps of alpha + n / (p B): forward n = 1e7 B, 2 (1 + 50) = 102 us; backward
  // n = 2e6 B, 2 (1 + 10) = 22 us. Each slice waits for its AllReduce, so the step is
  // m (400 + 800 + 4 x 102 + 4 x 22) = 2 x 1696 = 3392 us, 2 x 496 = 992 us of it exposed.
  const Topology topology = built(TopologyKind::kRing, 2, 100e9, ps_from_us(1));
  const auto allreduce_ps = [&](Bytes n) {
    return simulate_collective(topology, CollectiveKind::kAllReduce, AlgorithmKind::kRing, n, {}).time_ps;
  };
  EXPECT_EQ(allreduce_ps(10'000'000), ps_from_us(102));
  EXPECT_EQ(allreduce_ps(2'000'000), ps_from_us(22));
  TrainingStepShape s = data_parallel(2, pipeline(PipelineSchedule::k1F1B, 1, 2, ps_from_us(400), ps_from_us(800), 0));
  s.families[0].name = "tp";
  s.slices = 4;
  const ReplayResult bare = replay_workload(generate_training_step(s), topology, ring_algorithms());
  EXPECT_EQ(bare.total_ps, ps_from_us(2400));
  s.forward_collectives = {{CollectiveKind::kAllReduce, 10'000'000, 0, "", std::nullopt}};
  s.backward_collectives = {{CollectiveKind::kAllReduce, 2'000'000, 0, "", std::nullopt}};
  const ReplayResult r = replay_workload(generate_training_step(s), topology, ring_algorithms());
  EXPECT_EQ(r.total_ps, ps_from_us(3392));
  for (Rank rank = 0; rank < 2; ++rank) {
    EXPECT_EQ(r.ranks[rank].compute_ps, ps_from_us(2400));
    EXPECT_EQ(r.ranks[rank].exposed_comm_ps, ps_from_us(992));
  }
}

TEST(TrainingStep, StragglerHoldsUpTheGradientCollective) {
  // ddp_case with rank 1's compute twice as long (forward slices 100 us, backward 200 us) and
  // a 50 us optimizer (100 us on rank 1). Rank 1's backward slices end at 600, 800, 1000,
  // 1200 us. Bucket 0 waits for rank 1 until 800 and takes 800-902; bucket 1 until 1200:
  // 1200-1302. Rank 0, idle from 600 us, then waits 702 us in all (exposed); rank 1 only for
  // the last bucket, 102 us. Rank 0 finishes at 1302 + 50 = 1352 us, rank 1 at 1302 + 100 =
  // 1402 us: the step is 1402 - (702 + 50) = 650 us longer than without the straggler.
  const Topology topology = built(TopologyKind::kRing, 2, 100e9, ps_from_us(1));
  TrainingStepShape s = ddp_case();
  s.optimizer_ps = ps_from_us(50);
  EXPECT_EQ(replay_workload(generate_training_step(s), topology, ring_algorithms()).total_ps, ps_from_us(752));
  s.compute_scale = {1.0, 2.0};
  const ReplayResult r = replay_workload(generate_training_step(s), topology, ring_algorithms());
  EXPECT_EQ(r.total_ps, ps_from_us(1402));
  EXPECT_EQ(r.ranks[0].finish_ps, ps_from_us(1352));
  EXPECT_EQ(r.ranks[1].finish_ps, ps_from_us(1402));
  EXPECT_EQ(r.ranks[0].compute_ps, ps_from_us(650));
  EXPECT_EQ(r.ranks[1].compute_ps, ps_from_us(1300));
  EXPECT_EQ(r.ranks[0].exposed_comm_ps, ps_from_us(702));
  EXPECT_EQ(r.ranks[1].exposed_comm_ps, ps_from_us(102));
}

TEST(TrainingStep, ComputeScaleRoundsToThePicosecond) {
  // A 7 ps forward in 2 slices is 3 + 4 ps; times 1.5, 4.5 and 6 ps: 5 (half away from 0), 6.
  TrainingStepShape s = data_parallel(2, pipeline(PipelineSchedule::k1F1B, 1, 1, 7, 9, 0));
  s.slices = 2;
  s.compute_scale = {1.0, 1.5};
  const Workload w = generate_training_step(s);
  EXPECT_EQ(named(w.ranks[0], "F0 slice 0").duration_ps, 3);
  EXPECT_EQ(named(w.ranks[0], "F0 slice 1").duration_ps, 4);
  EXPECT_EQ(named(w.ranks[1], "F0 slice 0").duration_ps, 5);
  EXPECT_EQ(named(w.ranks[1], "F0 slice 1").duration_ps, 6);
  EXPECT_EQ(named(w.ranks[1], "B0 slice 1").duration_ps, 8);  // 5 x 1.5 = 7.5
}

}  // namespace
}  // namespace commsim
