#include "model/parallel_config.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"

namespace commsim {
namespace {

/// The message of the InputError `check` throws, or "" when it throws none.
template <typename F>
std::string input_error(F check) {
  try {
    check();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

ParallelConfig degrees(std::uint32_t dp, std::uint32_t tp, std::uint32_t pp, std::uint32_t cp = 1) {
  ParallelConfig p;
  p.dp = dp, p.tp = tp, p.pp = pp, p.cp = cp;
  return p;
}

BatchConfig batch(std::uint64_t global, std::uint64_t micro, std::uint64_t seq) { return BatchConfig{global, micro, seq}; }

std::string check(const ParallelConfig& p, const std::string& model, const BatchConfig& b, std::uint64_t gpus) {
  return input_error([&] { check_parallel_config(p, model_preset(model), b, gpus); });
}

TEST(ParallelConfig, AcceptsLlama3_8bOn64Gpus) {
  // 8B, 64 H100s, tp 8, pp 2, dp 4: 512 sequences = 128 micro-batches of 1 per DP rank.
  const ParallelConfig p = degrees(4, 8, 2);
  EXPECT_EQ(check(p, "llama3-8b", batch(512, 1, 8192), 64), "");
  EXPECT_EQ(micro_batch_count(p, batch(512, 1, 8192)), 128u);
  EXPECT_EQ(micro_batch_count(p, batch(512, 2, 8192)), 64u);
  EXPECT_EQ(layers_per_stage(p, model_preset("llama3-8b")), 16u);
}

TEST(ParallelConfig, TheProductMustBeTheGpuCount) {
  EXPECT_EQ(check(degrees(4, 8, 2), "llama3-8b", batch(512, 1, 8192), 128),
            "dp 4 x tp 8 x pp 2 x cp 1 = 64, not the 128 GPUs");
  EXPECT_EQ(check(degrees(0, 8, 2), "llama3-8b", batch(512, 1, 8192), 0),
            "dp 0: a degree of parallelism must be at least 1");
}

TEST(ParallelConfig, TensorParallelismMustSplitTheHeads) {
  EXPECT_EQ(check(degrees(1, 3, 1), "llama3-8b", batch(8, 1, 8192), 3),
            "tp 3 does not divide the 32 attention heads of llama3-8b");
  // 32 query heads split 16 ways, but only 8 key/value heads.
  EXPECT_EQ(check(degrees(1, 16, 1), "llama3-8b", batch(8, 1, 8192), 16),
            "tp 16 does not divide the 8 key/value heads of llama3-8b");
}

TEST(ParallelConfig, PipelineStagesMustSplitTheLayers) {
  EXPECT_EQ(check(degrees(1, 1, 3), "llama3-8b", batch(8, 1, 8192), 3),
            "pp 3 x virtual stages 1 = 3 does not divide the 32 layers of llama3-8b");
  ParallelConfig p = degrees(1, 1, 4);
  p.schedule = PpSchedule::kInterleaved;
  p.virtual_stages = 3;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 4),
            "pp 4 x virtual stages 3 = 12 does not divide the 32 layers of llama3-8b");
  p.virtual_stages = 2;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 4), "");
  p.schedule = PpSchedule::k1F1B;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 4),
            "virtual stages 2 apply to the interleaved schedule only, not 1f1b");
}

TEST(ParallelConfig, ExpertParallelismSplitsDataParallelismAndTheExperts) {
  ParallelConfig p = degrees(4, 1, 1);
  p.ep = 2;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 4), "ep 2 needs experts, and llama3-8b has none");
  EXPECT_EQ(check(p, "mixtral-8x7b", batch(8, 1, 4096), 4), "");
  p.ep = 3;
  EXPECT_EQ(check(p, "mixtral-8x7b", batch(8, 1, 4096), 4), "ep 3 does not divide dp 4");
  p = degrees(6, 1, 1);
  p.ep = 3;
  EXPECT_EQ(check(p, "mixtral-8x7b", batch(12, 1, 4096), 6), "ep 3 does not divide the 8 experts of mixtral-8x7b");
}

TEST(ParallelConfig, ContextParallelismSplitsTheSequence) {
  EXPECT_EQ(check(degrees(1, 1, 1, 3), "llama3-8b", batch(8, 1, 8192), 3),
            "cp 3 does not divide the sequence length 8192");
  ParallelConfig p = degrees(1, 8, 1, 2);
  p.sequence_parallel = true;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8200), 16),
            "sequence parallelism: tp 8 does not divide the 4100 tokens of a sequence per context-parallel rank");
  // Ulysses spreads the heads over tp x cp: 32 / (8 x 8) is not whole.
  p = degrees(1, 8, 1, 8);
  p.cp_kind = CpKind::kUlysses;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 64),
            "Ulysses context parallelism: tp 8 x cp 8 does not divide the 32 attention heads of llama3-8b");
  p.cp_kind = CpKind::kRing;
  EXPECT_EQ(check(p, "llama3-8b", batch(8, 1, 8192), 64), "");
}

TEST(ParallelConfig, TheBatchMustFillThePipeline) {
  EXPECT_EQ(check(degrees(8, 1, 1), "llama3-8b", batch(100, 1, 8192), 8),
            "global batch 100 is not a whole number of micro-batch 1 x dp 8 = 8 sequences");
  EXPECT_EQ(check(degrees(2, 1, 4), "llama3-8b", batch(6, 1, 8192), 8),
            "the 1f1b schedule needs at least pp 4 micro-batches, got 3 (global batch 6 / (micro-batch 1 x dp 2))");
  ParallelConfig p = degrees(2, 1, 4);
  p.schedule = PpSchedule::kGPipe;  // GPipe runs with any number
  EXPECT_EQ(check(p, "llama3-8b", batch(6, 1, 8192), 8), "");
  p.schedule = PpSchedule::kInterleaved;
  p.virtual_stages = 2;
  EXPECT_EQ(check(p, "llama3-8b", batch(12, 1, 8192), 8),
            "the interleaved schedule needs micro-batches to be a multiple of pp 4, got 6 (global batch 12 / "
            "(micro-batch 1 x dp 2))");
  EXPECT_EQ(check(p, "llama3-8b", batch(16, 1, 8192), 8), "");
}

TEST(ParallelConfig, PlacementOrderParsesEachDimensionOnce) {
  EXPECT_EQ(parse_placement_order("tp-cp-dp-pp", "--order"), kMegatronOrder);
  const PlacementOrder reversed{ParallelDim::kPp, ParallelDim::kDp, ParallelDim::kCp, ParallelDim::kTp};
  EXPECT_EQ(parse_placement_order("pp-dp-cp-tp", "--order"), reversed);
  EXPECT_EQ(placement_order_text(reversed), "pp-dp-cp-tp");
  const auto error = [](std::string_view text) {
    return input_error([&] { parse_placement_order(text, "--order"); });
  };
  EXPECT_EQ(error("tp-cp-dp"), "--order 'tp-cp-dp': missing pp (each of tp, cp, dp and pp once, innermost first)");
  EXPECT_EQ(error("tp-dp"), "--order 'tp-dp': missing cp, pp (each of tp, cp, dp and pp once, innermost first)");
  EXPECT_EQ(error("tp-cp-tp-pp"), "--order 'tp-cp-tp-pp': tp appears twice");
  EXPECT_EQ(error("tp-cp-dp-pp-tp"), "--order 'tp-cp-dp-pp-tp': tp appears twice");
  EXPECT_EQ(error("tp-xp-dp-pp"),
            "--order 'tp-xp-dp-pp': unknown dimension 'xp' (did you mean 'tp', 'cp' or 'dp'?) (known: tp, cp, dp, pp)");
  EXPECT_EQ(error("tp--dp-pp"), "--order 'tp--dp-pp': unknown dimension '' (known: tp, cp, dp, pp)");
  EXPECT_EQ(error("tp-cp-ep-dp-pp"),
            "--order 'tp-cp-ep-dp-pp': ep is not placed on its own: it is the innermost part of dp");
}

TEST(ParallelConfig, NamesParseBack) {
  EXPECT_EQ(parse_pp_schedule("interleaved", "--schedule"), PpSchedule::kInterleaved);
  EXPECT_EQ(pp_schedule_name(PpSchedule::k1F1B), "1f1b");
  EXPECT_EQ(parse_cp_kind("ulysses", "--cp-kind"), CpKind::kUlysses);
  EXPECT_EQ(input_error([] { parse_pp_schedule("zb", "--schedule"); }),
            "--schedule: unknown schedule 'zb' (known: gpipe, 1f1b, interleaved)");
}

}  // namespace
}  // namespace commsim
