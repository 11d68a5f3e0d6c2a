// A training step in closed form: each dimension's operations costed on the links its group
// spans, the bubble, and the bound with nothing overlapped.

#include "study/training_analysis.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "study_test_support.h"
#include "topology/builders.h"
#include "topology/spec_file.h"

namespace commsim::testing {
namespace {

// L 2, h 1024, a 16, plain MLP of 4096, V 1000: a small GPT.
TrainingAnalysisOptions small_gpt(std::uint32_t dp, std::uint32_t tp, std::uint32_t pp) {
  TrainingAnalysisOptions o;
  ModelShape& m = o.setup.model;
  m.layers = 2;
  m.hidden = 1024;
  m.ffn_hidden = 4096;
  m.heads = 16;
  m.vocab = 1000;
  m.mlp = MlpKind::kPlain;
  o.setup.parallel.dp = dp;
  o.setup.parallel.tp = tp;
  o.setup.parallel.pp = pp;
  o.setup.batch = {8ull * dp, 1, 512};  // m = 8 micro-batches of 1 x 512 tokens
  o.tflops = 100;
  return o;
}

Topology ring(std::uint32_t npus, double bandwidth_Bps, TimePs latency_ps) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = npus;
  c.link.bandwidth_Bps = bandwidth_Bps;
  c.link.latency_ps = latency_ps;
  return build_topology(c);
}

TEST(TrainingAnalysis, TensorParallelAllReducesOnTwoRanksByHand) {
  // tp 2 on a ring of 2 NPUs, 100 GB/s, 1 us. Each AllReduce moves n = b s h d = 512 x 1024 x 2
  // = 1 MiB: ring, 2(p-1) = 2 steps of 1 us, 2(p-1)/p n = n bytes at 100 GB/s:
  // T = 2 us + 1048576 / 100e9 s = 12.48576 us; 2 layers x 8 micro-batches x (2 forward + 2
  // backward) = 64 per step.
  const TrainingAnalysis a = analyze_training(ring(2, 100e9, ps_from_us(1)), small_gpt(1, 2, 1));
  ASSERT_EQ(a.dimensions.size(), 1u);
  const DimensionCost& tp = a.dimensions[0];
  EXPECT_EQ(tp.dimension, ParallelDim::kTp);
  EXPECT_EQ(tp.group, (std::vector<Rank>{0, 1}));
  ASSERT_EQ(tp.operations.size(), 2u);  // forward, backward
  for (const CostedTraffic& op : tp.operations) {
    EXPECT_EQ(op.entry.bytes_per_op, 1048576u);
    EXPECT_EQ(op.entry.ops_per_step, 32u);
    EXPECT_NEAR(op.time_per_op_s, 12.48576e-6, 1e-12);
  }
  EXPECT_NEAR(tp.time_per_step_s, 64 * 12.48576e-6, 1e-10);
  EXPECT_NEAR(a.communication_s, tp.time_per_step_s, 1e-15);
}

TEST(TrainingAnalysis, AGroupInsideANodeTakesTheOneNodeRamp) {
  // tp 4 x dp 2 on the H100 node (nccl): each TP AllReduce moves b s h d = 32768 x 1024 x 2 =
  // 64 MiB among GPUs 0-3, NVLink alone, by NVLS, as NCCL picks it there (nccl_choice; the
  // `collective` command on 4 GPUs of the node picks it too). NVLS on 4 GPUs: 25.25 us + n x
  // 5/4 / (0.85 x 370.8 GB/s), and its pipeline fill, 2 rounds of 16 channels x 4 GPUs x the
  // chunk (64 KiB at 64 MiB, 128 KiB at 16 GiB): 324.67 us at 64 MiB; 68226.94 us at 16 GiB,
  // which the one-node ramp scales to 64 MiB over 0.65 / 0.81: 332.11 us, above the formula.
  const Topology node = load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto");
  TrainingAnalysisOptions o = small_gpt(2, 4, 1);
  o.setup.batch = {16, 1, 32768};
  o.library = node.library();
  const double rate = 0.85 * 370.8e9;
  const auto nvls_us = [&](double bytes, double chunk) {
    return 25.25 + bytes * 5 / 4 / rate * 1e6 + 2 * (16 * 4 * chunk) * 5 / 4 / rate * 1e6;
  };
  const double top_us = nvls_us(16.0 * (1 << 30), 128 << 10);
  const double formula_us = nvls_us(64 << 20, 64 << 10);
  const auto tp_op = [&] {
    const TrainingAnalysis a = analyze_training(node, o);
    const auto tp = std::find_if(a.dimensions.begin(), a.dimensions.end(),
                                 [](const DimensionCost& d) { return d.dimension == ParallelDim::kTp; });
    EXPECT_NE(tp, a.dimensions.end());
    return tp->operations.front();
  };
  const CostedTraffic ramped = tp_op();
  EXPECT_EQ(ramped.entry.bytes_per_op, Bytes{64} << 20);
  EXPECT_EQ(ramped.algorithm, AlgorithmKind::kNvls);
  EXPECT_EQ(ramped.protocol, Protocol::kSimple);
  EXPECT_NEAR(ramped.time_per_op_s * 1e6, top_us / 256 / (0.65 / 0.81), 1e-6);
  o.library.one_node_ramp.resize(1);  // off
  EXPECT_NEAR(tp_op().time_per_op_s * 1e6, formula_us, 1e-6);
}

TEST(TrainingAnalysis, TheBoundIsComputeBubbleAndEveryDimension) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  TrainingAnalysisOptions o = small_gpt(2, 2, 2);  // tp inside a node, pp 2, dp across nodes
  const TrainingAnalysis a = analyze_training(build_topology(c), o);
  EXPECT_EQ(a.microbatches, 8u);
  EXPECT_NEAR(a.compute_s, a.flops.gpu_flops / 100e12, 1e-15);
  // (pp - 1) / m of each micro-batch's compute and TP communication.
  EXPECT_NEAR(a.bubble_s, (a.compute_s + a.dimensions[1].time_per_step_s) / 8, 1e-15);
  double communication = 0;
  for (const DimensionCost& d : a.dimensions) communication += d.time_per_step_s;
  EXPECT_NEAR(a.step_bound_s, a.compute_s + a.bubble_s + communication, 1e-12);
  EXPECT_NEAR(a.mfu_at_bound, a.flops.model_flops / (a.step_bound_s * 8 * 989e12), 1e-12);
  // Megatron's order: TP {0,1} inside node 0 on NVLink; DP {0,2} inside it too (tp 2 x dp 2
  // = 4 GPUs a node); PP {0,4} across the nodes' NICs.
  ASSERT_EQ(a.dimensions.size(), 3u);
  EXPECT_EQ(a.dimensions[0].dimension, ParallelDim::kDp);
  EXPECT_EQ(a.dimensions[0].group, (std::vector<Rank>{0, 2}));
  EXPECT_EQ(a.dimensions[0].slowest, LinkClass::kNvlink);
  EXPECT_EQ(a.dimensions[1].dimension, ParallelDim::kTp);
  EXPECT_EQ(a.dimensions[2].dimension, ParallelDim::kPp);
  EXPECT_EQ(a.dimensions[2].group, (std::vector<Rank>{0, 4}));
  EXPECT_EQ(a.dimensions[2].slowest, LinkClass::kNet);
}

TEST(TrainingAnalysis, MeasuredLayerTimesInsteadOfFlops) {
  // pp 1, 2 layers x 8 micro-batches x (1 + 3) ms
  // = 64 ms; full recomputation repeats the forward: 2 x 8 x 5 ms = 80 ms, 1/5 of it forward.
  TrainingAnalysisOptions o = small_gpt(1, 2, 1);
  o.layer_forward_s = 1e-3;
  o.layer_backward_s = 3e-3;
  const Topology t = ring(2, 100e9, ps_from_us(1));
  EXPECT_NEAR(analyze_training(t, o).compute_s, 64e-3, 1e-15);
  EXPECT_NEAR(analyze_training(t, o).forward_share, 0.25, 1e-15);
  o.setup.recompute = Recompute::kFull;
  EXPECT_NEAR(analyze_training(t, o).compute_s, 80e-3, 1e-15);
  EXPECT_NEAR(analyze_training(t, o).forward_share, 0.2, 1e-15);
}

TEST(TrainingAnalysis, InterleavingShrinksTheBubble) {
  ParallelConfig p;
  p.pp = 4;
  EXPECT_DOUBLE_EQ(bubble_fraction(p, 16), 3.0 / 16);
  p.schedule = PpSchedule::kInterleaved;
  p.virtual_stages = 2;
  EXPECT_DOUBLE_EQ(bubble_fraction(p, 16), 3.0 / 32);
}

TEST(TrainingAnalysis, GlooForTheDataParallelDimensionOnly) {
  TrainingAnalysisOptions o = small_gpt(2, 2, 1);
  const Topology t = ring(4, 100e9, ps_from_us(1));
  const TrainingAnalysis ideal = analyze_training(t, o);
  o.dp_library = library_by_name("gloo", "--dp-library");
  const TrainingAnalysis gloo = analyze_training(t, o);
  EXPECT_EQ(gloo.dimensions[0].library, "gloo");
  EXPECT_GT(gloo.dimensions[0].time_per_step_s, 10 * ideal.dimensions[0].time_per_step_s);
  EXPECT_EQ(gloo.dimensions[1].time_per_step_s, ideal.dimensions[1].time_per_step_s);  // tp
}

TEST(TrainingAnalysis, BadSetupsAreErrors) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  const Topology two_nodes = build_topology(c);
  EXPECT_CONTAINS(input_error_of([&] { analyze_training(two_nodes, small_gpt(1, 8, 1)); }),
                  "--tp 8: the tensor-parallel group {0,1,2,3,4,5,6,7} crosses the network between NPUs 0 and 4");
  EXPECT_CONTAINS(input_error_of([&] { analyze_training(two_nodes, small_gpt(2, 2, 1)); }), "not the 8 GPUs");
}

}  // namespace
}  // namespace commsim::testing
