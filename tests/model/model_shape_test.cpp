#include "model/model_shape.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace commsim {
namespace {

// The published totals of the presets' model cards and papers: the count from the shape lands
// within 1%.
void expect_near_published(const ModelShape& shape, double published) {
  const double counted = static_cast<double>(param_counts(shape).total());
  EXPECT_NEAR(counted / published, 1.0, 0.01) << shape.name << ": " << counted;
}

TEST(ModelShape, Llama3_8bCountsItsPublishedParameters) {
  // Per layer: q, o 4096^2 = 16,777,216 each; k, v 4096 x 1024 (8 of 32 heads) = 4,194,304
  // each: attention 41,943,040. SwiGLU 3 x 4096 x 14336 = 176,160,768. Norms 8192.
  // Layer 218,112,000, x 32 = 6,979,584,000. Embedding and output 128256 x 4096 = 525,336,576
  // each, final norm 4096: 8,030,261,248.
  const ModelShape m = model_preset("llama3-8b");
  EXPECT_EQ(attention_params(m), 41'943'040u);
  EXPECT_EQ(mlp_params(m), 176'160'768u);
  EXPECT_EQ(layer_dense_params(m), 218'112'000u);
  EXPECT_EQ(param_counts(m).total(), 8'030'261'248u);
  EXPECT_EQ(param_counts(m).expert, 0u);
  EXPECT_EQ(active_params(m), 8'030'261'248u);
  expect_near_published(m, 8.03e9);
}

TEST(ModelShape, Llama3_70bCountsItsPublishedParameters) {
  // Layer: 2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672 + 2 x 8192 = 855,654,400; x 80 =
  // 68,452,352,000; + 2 x 128256 x 8192 = 2,101,346,304; + 8192 = 70,553,706,496.
  const ModelShape m = model_preset("llama3-70b");
  EXPECT_EQ(param_counts(m).total(), 70'553'706'496u);
  expect_near_published(m, 70.6e9);
}

TEST(ModelShape, Gpt3CountsItsPublishedParameters) {
  // 12 h^2 + 2h per layer with h = 12288: 1,811,963,904; x 96 = 173,948,534,784; one tied
  // embedding 50257 x 12288 = 617,558,016; final norm 12288: 174,566,105,088 (the 2048 x h
  // learned positions and the biases, left out, make up most of the rest of 175e9).
  const ModelShape m = model_preset("gpt3-175b");
  EXPECT_EQ(m.seq_length, 2048u);
  EXPECT_EQ(param_counts(m).total(), 174'566'105'088u);
  expect_near_published(m, 175e9);
}

TEST(ModelShape, MixtralSplitsDenseAndExpertParameters) {
  // Experts: 32 layers x 8 x 176,160,768 = 45,097,156,608. Dense per layer: attention
  // 41,943,040 + norms 8192 + router 4096 x 8 = 41,984,000; x 32 = 1,343,488,000; + 2 x 32000
  // x 4096 = 262,144,000; + 4096 = 1,605,636,096. Total 46,702,792,704. Active: dense + 32 x 2
  // x 176,160,768 = 12,879,925,248.
  const ModelShape m = model_preset("mixtral-8x7b");
  EXPECT_EQ(param_counts(m).expert, 45'097'156'608u);
  EXPECT_EQ(param_counts(m).dense, 1'605'636'096u);
  EXPECT_EQ(active_params(m), 12'879'925'248u);
  expect_near_published(m, 46.7e9);
  EXPECT_NEAR(static_cast<double>(active_params(m)) / 12.9e9, 1.0, 0.01);
}

TEST(ModelShape, UnknownPresetListsTheKnownOnes) {
  try {
    model_preset("llama4", "--model");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--model: unknown model 'llama4' (known: llama3-8b, llama3-70b, gpt3-175b, mixtral-8x7b)");
  }
}

TEST(ModelShape, ShapesThatDescribeNoModelAreRefused) {
  ModelShape m = model_preset("llama3-8b");
  EXPECT_NO_THROW(check_model_shape(m));
  m.kv_heads = 5;
  EXPECT_THROW(check_model_shape(m), InputError);
  m = model_preset("llama3-8b");
  m.heads = 3;  // 4096 / 3 is no head width
  EXPECT_THROW(check_model_shape(m), InputError);
  m = model_preset("mixtral-8x7b");
  m.top_k = 9;
  try {
    check_model_shape(m);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "model mixtral-8x7b: top_k 9 is not in [1, experts 8]");
  }
}

TEST(ModelShape, ForwardFlopsOfALayer) {
  // h 1024, a 16, GELU MLP 4096, b 1, s 512: W = 4h^2 + 8h^2 = 12,582,912;
  // 2 b s W = 12,884,901,888; scores and context 4 b s^2 h = 1,073,741,824; together
  // 13,958,643,712. Logits 2 b s h V = 2 x 512 x 1024 x 1000 = 1,048,576,000.
  ModelShape m;
  m.layers = 2, m.hidden = 1024, m.ffn_hidden = 4096, m.heads = 16, m.vocab = 1000, m.mlp = MlpKind::kPlain;
  EXPECT_DOUBLE_EQ(layer_forward_flops(m, 1, 512), 13'958'643'712.0);
  EXPECT_DOUBLE_EQ(attention_core_forward_flops(m, 1, 512), 1'073'741'824.0);
  EXPECT_DOUBLE_EQ(logits_forward_flops(m, 1, 512), 1'048'576'000.0);
  // Twice the micro-batch, twice the FLOPs.
  EXPECT_DOUBLE_EQ(layer_forward_flops(m, 2, 512), 2 * 13'958'643'712.0);
}

TEST(ModelShape, ForwardFlopsCountGqaAndOnlyTheActiveExperts) {
  // Llama 3 8B, b 1, s 8192: W = 41,943,040 + 176,160,768 = 218,103,808 (norms are no
  // matmul): 2 x 8192 x W = 3,573,412,790,272; 4 x 8192^2 x 4096 = 1,099,511,627,776.
  EXPECT_DOUBLE_EQ(layer_forward_flops(model_preset("llama3-8b"), 1, 8192), 4'672'924'418'048.0);
  // Mixtral: W = 41,943,040 + router 32,768 + 2 experts x 176,160,768 = 394,297,344:
  // 2 x 4096 x W = 3,230,083,842,048; 4 x 4096^2 x 4096 = 274,877,906,944.
  EXPECT_DOUBLE_EQ(layer_forward_flops(model_preset("mixtral-8x7b"), 1, 4096), 3'504'961'748'992.0);
}

}  // namespace
}  // namespace commsim
