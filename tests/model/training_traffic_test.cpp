#include "model/training_traffic.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace commsim {
namespace {

using Lines = std::vector<std::string>;

/// "dp allreduce 13609984 x1 group 2 backward gradients", one line an entry.
Lines describe(const std::vector<TrafficEntry>& entries, std::optional<ParallelDim> only = std::nullopt) {
  Lines lines;
  for (const TrafficEntry& e : entries) {
    if (only && e.dimension != *only) continue;
    lines.push_back(std::string(dimension_name(e.dimension)) + " " + std::string(traffic_op_name(e)) + " " +
                    std::to_string(e.bytes_per_op) + " x" + std::to_string(e.ops_per_step) + " group " +
                    std::to_string(e.group_size) + " " + std::string(traffic_phase_name(e.phase)) + " " + e.what);
  }
  return lines;
}

// The small model: L 2, h 1024, GELU MLP 4096, 16 heads, V 1000, untied; b 1, s 512, bf16,
// tp 2, pp 2, dp 2 (8 GPUs), global batch 8: m = 8 / (1 x 2) = 4 micro-batches, 1 layer a rank.
//   layer: 4 h^2 + 2 h 4096 + 2 h = 4,194,304 + 8,388,608 + 2048 = 12,584,960
//   last rank: (12,584,960 + output 1,024,000 + final norm 1024) / tp 2 = 6,804,992 params,
//   13,609,984 B of bf16 gradients (the first rank holds 6,804,480)
//   TP and PP message: b s h d = 512 x 1024 x 2 = 1,048,576 B
//   TP operations: 2 per layer and micro-batch: 2 x 1 x 4 = 8 forward, 8 backward
//   PP sends: m (pp - 1) = 4 across the one boundary, each way
ModelShape small_model(std::uint32_t layers = 2) {
  ModelShape m;
  m.name = "small";
  m.layers = layers, m.hidden = 1024, m.ffn_hidden = 4096, m.heads = 16, m.vocab = 1000;
  m.mlp = MlpKind::kPlain;
  return m;
}

TrainingSetup small_setup(ZeroStage zero = ZeroStage::k0, bool sequence_parallel = false) {
  TrainingSetup s;
  s.model = small_model();
  s.parallel.tp = 2, s.parallel.pp = 2, s.parallel.dp = 2;
  s.parallel.sequence_parallel = sequence_parallel;
  s.batch = BatchConfig{8, 1, 512};
  s.zero = zero;
  return s;
}

TEST(TrainingTraffic, DataTensorAndPipelineParallelism) {
  const std::vector<TrafficEntry> entries = training_traffic(small_setup());
  EXPECT_EQ(describe(entries), (Lines{
                                   "dp allreduce 13609984 x1 group 2 backward gradients",
                                   "tp allreduce 1048576 x8 group 2 forward activations",
                                   "tp allreduce 1048576 x8 group 2 backward activation gradients",
                                   "pp send 1048576 x4 group 2 forward activations",
                                   "pp send 1048576 x4 group 2 backward activation gradients",
                               }));
  EXPECT_DOUBLE_EQ(entries[1].bytes_per_step(), 8 * 1'048'576.0);
}

TEST(TrainingTraffic, SequenceParallelismAndZero1) {
  // Each TP AllReduce becomes an AllGather and a ReduceScatter of the same full buffer; a PP
  // message is a TP rank's half of the sequence, 524,288 B. ZeRO-1 reduce-scatters the
  // gradients once and all-gathers the updated bf16 weights once, 13,609,984 B each.
  EXPECT_EQ(describe(training_traffic(small_setup(ZeroStage::k1, true))),
            (Lines{
                "dp reducescatter 13609984 x1 group 2 backward gradients",
                "dp allgather 13609984 x1 group 2 optimizer weights",
                "tp allgather 1048576 x8 group 2 forward activations",
                "tp reducescatter 1048576 x8 group 2 forward activations",
                "tp allgather 1048576 x8 group 2 backward activation gradients",
                "tp reducescatter 1048576 x8 group 2 backward activation gradients",
                "pp send 524288 x4 group 2 forward activations",
                "pp send 524288 x4 group 2 backward activation gradients",
            }));
}

TEST(TrainingTraffic, Zero2ReduceScattersEachMicroBatch) {
  EXPECT_EQ(describe(training_traffic(small_setup(ZeroStage::k2)), ParallelDim::kDp),
            (Lines{
                "dp reducescatter 13609984 x4 group 2 backward gradients",
                "dp allgather 13609984 x1 group 2 optimizer weights",
            }));
}

TEST(TrainingTraffic, Zero3GathersEachLayerForwardAndBackward) {
  // 4 layers, 2 a rank. Last rank: (2 x 12,584,960 + 1,024,000 + 1024) / 2 = 13,097,472
  // params, 26,194,944 B, 13,097,472 B a layer; 2 layers x 4 micro-batches = 8 of each.
  TrainingSetup s = small_setup(ZeroStage::k3);
  s.model = small_model(4);
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kDp),
            (Lines{
                "dp allgather 13097472 x8 group 2 forward weights",
                "dp allgather 13097472 x8 group 2 backward weights",
                "dp reducescatter 13097472 x8 group 2 backward gradients",
            }));
}

TEST(TrainingTraffic, FullRecomputationRepeatsTheForwardCollectives) {
  TrainingSetup s = small_setup();
  s.recompute = Recompute::kFull;
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kTp),
            (Lines{
                "tp allreduce 1048576 x8 group 2 forward activations",
                "tp allreduce 1048576 x8 group 2 backward activations (recomputed)",
                "tp allreduce 1048576 x8 group 2 backward activation gradients",
            }));
  s.recompute = Recompute::kSelective;  // recomputes inside the attention: no communication
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kTp).size(), 2u);
}

TEST(TrainingTraffic, InterleavedStagesCrossMoreBoundaries) {
  // 4 layers on pp 2 x v 2 = 4 chunks: 3 boundaries x 4 micro-batches = 12 sends each way.
  TrainingSetup s = small_setup();
  s.model = small_model(4);
  s.parallel.schedule = PpSchedule::kInterleaved;
  s.parallel.virtual_stages = 2;
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kPp),
            (Lines{
                "pp send 1048576 x12 group 2 forward activations",
                "pp send 1048576 x12 group 2 backward activation gradients",
            }));
}

TEST(TrainingTraffic, TiedEmbeddingsSyncFirstAndLastStage) {
  // The last rank's copy of the embedding: 1000 x 1024 / tp 2 x 2 B = 1,024,000 B.
  TrainingSetup s = small_setup();
  s.model.tied_embeddings = true;
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kPp).back(),
            "pp allreduce 1024000 x1 group 2 backward tied embedding gradients");
}

TEST(TrainingTraffic, ContextParallelRing) {
  // cp 2 on 16 GPUs: s' = 512 / 2 = 256 tokens a GPU. TP and PP messages b s' h d = 524,288 B.
  // Ring: per layer and micro-batch cp - 1 = 1 step forward with this TP rank's K and V,
  // 2 x 256 x (1024 / tp 2) x 2 B = 524,288 B: 1 x 4 = 4 steps; backward twice: 8. The dense
  // gradients are reduced over dp x cp = 4 ranks.
  TrainingSetup s = small_setup();
  s.parallel.cp = 2;
  EXPECT_EQ(describe(training_traffic(s)), (Lines{
                                               "dp allreduce 13609984 x1 group 4 backward gradients",
                                               "tp allreduce 524288 x8 group 2 forward activations",
                                               "tp allreduce 524288 x8 group 2 backward activation gradients",
                                               "pp send 524288 x4 group 2 forward activations",
                                               "pp send 524288 x4 group 2 backward activation gradients",
                                               "cp send 524288 x4 group 2 forward K,V chunks",
                                               "cp send 524288 x8 group 2 backward K,V and dK,dV chunks",
                                           }));
}

TEST(TrainingTraffic, ContextParallelUlysses) {
  // 4 key/value heads (h_kv = 1024 / 16 x 4 = 256), cp 2, Ulysses. Per layer and micro-batch,
  // forward: q and output b s' h d / tp = 256 x 1024 x 2 / 2 = 262,144 B, k and v
  // 256 x 256 x 2 / 2 = 65,536 B, two of each: 2 x 1 layer x 4 micro-batches = 8.
  TrainingSetup s = small_setup();
  s.model.kv_heads = 4;
  s.parallel.cp = 2;
  s.parallel.cp_kind = CpKind::kUlysses;
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kCp),
            (Lines{
                "cp alltoall 262144 x8 group 2 forward q and output",
                "cp alltoall 65536 x8 group 2 forward k and v",
                "cp alltoall 262144 x8 group 2 backward q and output gradients",
                "cp alltoall 65536 x8 group 2 backward k and v gradients",
            }));
}

TEST(TrainingTraffic, ExpertParallelism) {
  // 4 experts, top 2, on tp 2, dp 4, ep 2 (8 GPUs, pp 1, 2 layers), global batch 8: m = 2.
  //   dense per GPU: (2 x (4,194,304 + 2048 + router 4096) + 2 x 1,024,000 + 1024) / 2
  //                  = 5,224,960 params, 10,449,920 B over dp x cp = 4 ranks
  //   expert per GPU: 2 x 4 x 8,388,608 / (tp 2 x ep 2) = 16,777,216 params, 33,554,432 B
  //                  over dp / ep = 2 ranks
  //   dispatch and combine: b s h top_k d / tp = 512 x 1024 x 2 x 2 / 2 = 1,048,576 B,
  //                  2 x 2 layers x 2 micro-batches = 8 forward, 8 backward
  TrainingSetup s;
  s.model = small_model();
  s.model.experts = 4, s.model.top_k = 2;
  s.parallel.tp = 2, s.parallel.dp = 4, s.parallel.ep = 2;
  s.batch = BatchConfig{8, 1, 512};
  const std::vector<TrafficEntry> entries = training_traffic(s);
  EXPECT_EQ(describe(entries, ParallelDim::kDp), (Lines{
                                                     "dp allreduce 10449920 x1 group 4 backward dense gradients",
                                                     "dp allreduce 33554432 x1 group 2 backward expert gradients",
                                                 }));
  EXPECT_EQ(describe(entries, ParallelDim::kEp),
            (Lines{
                "ep alltoall 1048576 x8 group 2 forward token dispatch and combine",
                "ep alltoall 1048576 x8 group 2 backward token dispatch and combine gradients",
            }));
  // With ep = dp every rank holds its own experts: nothing to reduce them with.
  s.parallel.dp = 2;
  s.batch.global_batch = 4;
  EXPECT_EQ(describe(training_traffic(s), ParallelDim::kDp).size(), 1u);
}

}  // namespace
}  // namespace commsim
