#include "model/training_compute.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

TEST(TrainingCompute, Gpt3MatchesNarayananEquation) {
  // Narayanan et al. 2021, section 5.1: B = 1536 sequences of s = 2048 on GPT-3 (L 96, h 12288,
  // V 50257): with full recomputation 96 B s L h^2 (1 + s/(6h) + V/(16 L h)) FLOPs a step;
  // without, the model FLOPs 72 B s L h^2 (1 + s/(6h) + V/(12 L h)).
  TrainingSetup s;
  s.model = model_preset("gpt3-175b");
  s.parallel.tp = 8, s.parallel.pp = 8, s.parallel.dp = 16;
  s.batch = BatchConfig{1536, 1, 2048};
  s.recompute = Recompute::kFull;
  const double B = 1536, seq = 2048, L = 96, h = 12288, V = 50257;
  const double with_recompute = 96 * B * seq * L * h * h * (1 + seq / (6 * h) + V / (16 * L * h));
  const double model = 72 * B * seq * L * h * h * (1 + seq / (6 * h) + V / (12 * L * h));
  const StepCompute c = step_compute(s);
  EXPECT_NEAR(c.hardware_flops / with_recompute, 1.0, 1e-12);
  EXPECT_NEAR(c.model_flops / model, 1.0, 1e-12);
  // 4.51e18 FLOPs on 1024 GPUs at 150 TFLOP/s each: about 29.4 s.
  EXPECT_NEAR(compute_time_s(c.hardware_flops / 1024, 150), 29.37, 0.01);
}

TEST(TrainingCompute, BusiestGpuIsTheLastPipelineRank) {
  // The small model (L 2, h 1024, GELU 4096, V 1000) on tp 2, pp 2, dp 2, b 1, s 512, m 4.
  // A layer's forward 13,958,643,712 FLOPs, the logits 1,048,576,000, the attention core
  // 1,073,741,824 (model_shape_test). The last rank: 1 layer and the logits, forward and
  // backward, 4 micro-batches, half of each (tp 2):
  //   4 x 3 x (13,958,643,712 + 1,048,576,000) / 2                  = 90,043,318,272
  //   full recomputation adds 4 x 13,958,643,712 / 2:                 117,960,605,696
  //   selective adds the attention core 4 x 1,073,741,824 / 2:        92,190,801,920
  // The model FLOPs: 2 replicas x 4 x 3 x (2 layers + logits) = 695,180,722,176.
  TrainingSetup s;
  s.model.name = "small";
  s.model.layers = 2, s.model.hidden = 1024, s.model.ffn_hidden = 4096, s.model.heads = 16, s.model.vocab = 1000;
  s.model.mlp = MlpKind::kPlain;
  s.parallel.tp = 2, s.parallel.pp = 2, s.parallel.dp = 2;
  s.batch = BatchConfig{8, 1, 512};
  EXPECT_DOUBLE_EQ(step_compute(s).gpu_flops, 90'043'318'272.0);
  EXPECT_DOUBLE_EQ(step_compute(s).model_flops, 695'180'722'176.0);
  EXPECT_DOUBLE_EQ(step_compute(s).hardware_flops, 695'180'722'176.0);
  s.recompute = Recompute::kFull;
  EXPECT_DOUBLE_EQ(step_compute(s).gpu_flops, 117'960'605'696.0);
  s.recompute = Recompute::kSelective;
  EXPECT_DOUBLE_EQ(step_compute(s).gpu_flops, 92'190'801'920.0);
  // Context parallelism 2 on twice the GPUs halves each GPU's share of the same sequence.
  s.recompute = Recompute::kNone;
  const double without_cp = step_compute(s).gpu_flops;
  s.parallel.cp = 2;
  EXPECT_DOUBLE_EQ(step_compute(s).gpu_flops, without_cp / 2);
  EXPECT_DOUBLE_EQ(compute_time_s(1e15, 500), 2.0);
}

}  // namespace
}  // namespace commsim
