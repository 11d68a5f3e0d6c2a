#include "model/training_memory.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

// A 70e9-parameter model (a published count, spread evenly) on dp 8, Adam, bf16.
TrainingSetup seventy_billion(ZeroStage zero) {
  TrainingSetup s;
  s.model = model_preset("llama3-70b");
  s.model.params_override = 70'000'000'000;
  s.parallel.dp = 8;
  s.batch = BatchConfig{8, 1, 8192};
  s.zero = zero;
  return s;
}

double model_states(const TrainingMemory& m) { return m.weights.bytes + m.gradients.bytes + m.optimizer.bytes; }

TEST(TrainingMemory, ZeroStagesPartitionSixteenBytesPerParameter) {
  // Rajbhandari et al. 2020: 2 (bf16 weights) + 2 (gradients) + 12 (fp32 master, m, v) B.
  //   ZeRO-0  70e9 x 16                 = 1.12e12 B
  //   ZeRO-1  70e9 x (2 + 2 + 12/8)     = 385e9
  //   ZeRO-2  70e9 x (2 + (2 + 12)/8)   = 262.5e9
  //   ZeRO-3  70e9 x 16/8               = 140e9
  EXPECT_DOUBLE_EQ(model_states(training_memory(seventy_billion(ZeroStage::k0))), 1.12e12);
  EXPECT_DOUBLE_EQ(model_states(training_memory(seventy_billion(ZeroStage::k1))), 385e9);
  EXPECT_DOUBLE_EQ(model_states(training_memory(seventy_billion(ZeroStage::k2))), 262.5e9);
  EXPECT_DOUBLE_EQ(model_states(training_memory(seventy_billion(ZeroStage::k3))), 140e9);
  const TrainingMemory z1 = training_memory(seventy_billion(ZeroStage::k1));
  EXPECT_DOUBLE_EQ(z1.optimizer.bytes, 105e9);
  EXPECT_EQ(z1.optimizer.formula, "7e+10 params / 8 (dp x cp) x 12 B (adam: fp32 master, m, v)");
  EXPECT_EQ(z1.weights.formula, "7e+10 params x 2 B (bf16 weights)");
}

TEST(TrainingMemory, OptimizerBytesPerParameter) {
  // Mixed precision keeps an fp32 master copy (4 B); fp32 training's weights are the master.
  EXPECT_EQ(optimizer_bytes_per_param(OptimizerKind::kAdam, Dtype::kBf16), 12u);
  EXPECT_EQ(optimizer_bytes_per_param(OptimizerKind::kSgdMomentum, Dtype::kFp16), 8u);
  EXPECT_EQ(optimizer_bytes_per_param(OptimizerKind::kAdam, Dtype::kFp32), 8u);
  EXPECT_EQ(optimizer_bytes_per_param(OptimizerKind::kSgdMomentum, Dtype::kFp32), 4u);
  // fp32 Adam: 4 + 4 + 8 = 16 B again; fp32 SGD 4 + 4 + 4 = 12 B; bf16 SGD 2 + 2 + 8 = 12 B.
  TrainingSetup s = seventy_billion(ZeroStage::k0);
  s.dtype = Dtype::kFp32;
  EXPECT_DOUBLE_EQ(model_states(training_memory(s)), 70e9 * 16);
  s.optimizer = OptimizerKind::kSgdMomentum;
  EXPECT_DOUBLE_EQ(model_states(training_memory(s)), 70e9 * 12);
  s.dtype = Dtype::kBf16;
  EXPECT_DOUBLE_EQ(model_states(training_memory(s)), 70e9 * 12);
}

TEST(TrainingMemory, Gpt3LayerActivationsAsKorthikanti) {
  // GPT-3 175B, s 2048, b 1, h 12288, a 96, t 8: s b h = 25,165,824; 5 a s / h = 80.
  //   no recompute           s b h (10 + 24/8 + 80/8) = 23 s b h      = 578,813,952 B
  //   + sequence parallel    s b h / 8 (34 + 80)      = 14.25 s b h   = 358,612,992
  //   selective              s b h (10 + 24/8)        = 13 s b h      = 327,155,712
  //   selective + SP         34 s b h / 8             = 4.25 s b h    = 106,954,752
  //   full                   2 s b h                                   = 50,331,648
  //   full + SP              2 s b h / 8                               = 6,291,456
  const ModelShape gpt3 = model_preset("gpt3-175b");
  LayerActivationInput in{1, 2048, 8, false, Recompute::kNone, Dtype::kBf16};
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 578'813'952.0);
  EXPECT_EQ(layer_activations(gpt3, in).formula,
            "s b h (10 + 24/t + 5 a s / (h t)), s 2048 b 1 h 12288 a 96 t 8");
  in.sequence_parallel = true;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 358'612'992.0);
  in.recompute = Recompute::kSelective;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 106'954'752.0);
  in.recompute = Recompute::kFull;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 6'291'456.0);
  in.sequence_parallel = false;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 50'331'648.0);
  in.recompute = Recompute::kSelective;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 327'155'712.0);
  // fp32 activations: twice.
  in.dtype = Dtype::kFp32;
  EXPECT_DOUBLE_EQ(layer_activations(gpt3, in).bytes, 2 * 327'155'712.0);
}

TEST(TrainingMemory, MoeLayersHoldTheMlpOfEachChosenExpert) {
  // Mixtral, top 2: 34 -> 18 + 16 x 2 = 50. s 4096, b 1, h 4096, t 2, SP, selective:
  // 50 s b h / 2 = 25 x 16,777,216 = 419,430,400 B.
  const LayerActivationInput in{1, 4096, 2, true, Recompute::kSelective, Dtype::kBf16};
  EXPECT_DOUBLE_EQ(layer_activations(model_preset("mixtral-8x7b"), in).bytes, 419'430'400.0);
}

// GPT-3 on tp 8, pp 8 (12 layers a rank), 16 micro-batches of 1 x 2048, selective + SP:
// 106,954,752 B a layer and micro-batch.
TrainingSetup gpt3_on_64_gpus(PpSchedule schedule) {
  TrainingSetup s;
  s.model = model_preset("gpt3-175b");
  s.parallel.tp = 8, s.parallel.pp = 8, s.parallel.sequence_parallel = true;
  s.parallel.schedule = schedule;
  s.parallel.virtual_stages = schedule == PpSchedule::kInterleaved ? 2 : 1;
  s.batch = BatchConfig{16, 1, 2048};
  s.recompute = Recompute::kSelective;
  return s;
}

TEST(TrainingMemory, ActivationsHeldDependOnTheSchedule) {
  //   1F1B         12 layers x 8 in flight = 96 layers (L):   10,267,656,192 B
  //   interleaved  12 x (8 + 7/2 = 11.5):                     14,759,755,776
  //   GPipe        12 x 16:                                   20,535,312,384
  EXPECT_DOUBLE_EQ(training_memory(gpt3_on_64_gpus(PpSchedule::k1F1B)).activations.bytes, 10'267'656'192.0);
  EXPECT_DOUBLE_EQ(training_memory(gpt3_on_64_gpus(PpSchedule::kInterleaved)).activations.bytes, 14'759'755'776.0);
  EXPECT_DOUBLE_EQ(training_memory(gpt3_on_64_gpus(PpSchedule::kGPipe)).activations.bytes, 20'535'312'384.0);
  EXPECT_EQ(training_memory(gpt3_on_64_gpus(PpSchedule::k1F1B)).activations.formula,
            "12 layers x 8 micro-batches in flight (1f1b) x s b h / t * 34, s 2048 b 1 h 12288 a 96 t 8");
  // Context parallelism 2 on twice the sequence holds the same per GPU.
  TrainingSetup cp = gpt3_on_64_gpus(PpSchedule::k1F1B);
  cp.parallel.cp = 2;
  cp.batch.seq_length = 4096;
  EXPECT_DOUBLE_EQ(training_memory(cp).activations.bytes, 10'267'656'192.0);
}

TEST(TrainingMemory, TheEmbeddingSitsOnTheWorstStage) {
  // Llama 3 8B, tp 8, pp 2: 16 layers x 218,112,000 = 3,489,792,000 on each rank; the first
  // adds the embedding 525,336,576, the last the output layer 525,336,576 and the final norm
  // 4096: the last holds (3,489,792,000 + 525,340,672) / 8 = 501,891,584 parameters.
  TrainingSetup s;
  s.model = model_preset("llama3-8b");
  s.parallel.dp = 4, s.parallel.tp = 8, s.parallel.pp = 2;
  s.batch = BatchConfig{512, 1, 8192};
  const TrainingMemory m = training_memory(s);
  EXPECT_DOUBLE_EQ(m.params.total(), 501'891'584.0);
  EXPECT_DOUBLE_EQ(m.weights.bytes, 1'003'783'168.0);
  EXPECT_DOUBLE_EQ(m.optimizer.bytes, 12 * 501'891'584.0);
  EXPECT_DOUBLE_EQ(m.total_bytes, m.weights.bytes + m.gradients.bytes + m.optimizer.bytes + m.activations.bytes);
  EXPECT_TRUE(m.fits(m.total_bytes));
  EXPECT_FALSE(m.fits(m.total_bytes - 1));
}

TEST(TrainingMemory, ExpertStatesArePartitionedOverFewerRanks) {
  // Mixtral on dp 8, ep 4, ZeRO-1. A GPU holds all 1,605,636,096 dense parameters and 1/4 of
  // the 45,097,156,608 expert ones: 11,274,289,152. The dense optimizer state is split 8 ways,
  // the expert one dp / ep = 2 ways: (200,704,512 + 5,637,144,576) x 12 = 70,054,189,056 B.
  TrainingSetup s;
  s.model = model_preset("mixtral-8x7b");
  s.parallel.dp = 8, s.parallel.ep = 4;
  s.batch = BatchConfig{8, 1, 4096};
  s.zero = ZeroStage::k1;
  const TrainingMemory m = training_memory(s);
  EXPECT_DOUBLE_EQ(m.params.dense, 1'605'636'096.0);
  EXPECT_DOUBLE_EQ(m.params.expert, 11'274'289'152.0);
  EXPECT_DOUBLE_EQ(m.optimizer.bytes, 70'054'189'056.0);
  EXPECT_DOUBLE_EQ(m.weights.bytes, 2 * (1'605'636'096.0 + 11'274'289'152.0));
}

}  // namespace
}  // namespace commsim
