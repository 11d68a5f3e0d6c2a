#include "model/model_shape.h"

#include <string>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

enum class Preset { kLlama3_8b, kLlama3_70b, kGpt3_175b, kMixtral_8x7b };

constexpr NameTable<Preset, 4> kPresetNames{{
    {Preset::kLlama3_8b, "llama3-8b"},
    {Preset::kLlama3_70b, "llama3-70b"},
    {Preset::kGpt3_175b, "gpt3-175b"},
    {Preset::kMixtral_8x7b, "mixtral-8x7b"},
}};

ModelShape preset_shape(Preset preset) {
  ModelShape m;
  m.name = std::string(name_in(kPresetNames, preset));
  switch (preset) {
    case Preset::kLlama3_8b:
      // meta-llama/Meta-Llama-3-8B config.json: num_hidden_layers 32, hidden_size 4096,
      // intermediate_size 14336, num_attention_heads 32, num_key_value_heads 8, vocab_size
      // 128256, hidden_act silu (SwiGLU), tie_word_embeddings false, max_position_embeddings
      // 8192. Published: 8.03e9 parameters.
      m.layers = 32, m.hidden = 4096, m.ffn_hidden = 14336, m.heads = 32, m.kv_heads = 8;
      m.vocab = 128256, m.mlp = MlpKind::kGated, m.tied_embeddings = false, m.seq_length = 8192;
      break;
    case Preset::kLlama3_70b:
      // meta-llama/Meta-Llama-3-70B config.json: 80 layers, hidden 8192, intermediate 28672,
      // 64 heads, 8 key/value heads, vocab 128256, SwiGLU, untied, 8192 positions. 70.6e9.
      m.layers = 80, m.hidden = 8192, m.ffn_hidden = 28672, m.heads = 64, m.kv_heads = 8;
      m.vocab = 128256, m.mlp = MlpKind::kGated, m.tied_embeddings = false, m.seq_length = 8192;
      break;
    case Preset::kGpt3_175b:
      // Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1: n_layers 96,
      // d_model 12288, n_heads 96, d_ff = 4 d_model, context 2048; GPT-2's BPE vocabulary of
      // 50257; GELU MLP; the output layer tied to the embedding. 175e9.
      m.layers = 96, m.hidden = 12288, m.ffn_hidden = 4 * 12288, m.heads = 96, m.kv_heads = 96;
      m.vocab = 50257, m.mlp = MlpKind::kPlain, m.tied_embeddings = true, m.seq_length = 2048;
      break;
    case Preset::kMixtral_8x7b:
      // mistralai/Mixtral-8x7B-v0.1 config.json: 32 layers, hidden 4096, intermediate 14336,
      // 32 heads, 8 key/value heads, vocab 32000, num_local_experts 8, num_experts_per_tok 2,
      // SwiGLU experts, untied, max_position_embeddings 32768. Jiang et al. 2024, "Mixtral of
      // Experts": 46.7e9 parameters, 12.9e9 active per token.
      m.layers = 32, m.hidden = 4096, m.ffn_hidden = 14336, m.heads = 32, m.kv_heads = 8;
      m.vocab = 32000, m.mlp = MlpKind::kGated, m.tied_embeddings = false, m.seq_length = 32768;
      m.experts = 8, m.top_k = 2;
      break;
  }
  return m;
}

void require(bool ok, const ModelShape& shape, const std::string& message) {
  if (!ok) throw InputError("model " + shape.name + ": " + message);
}

std::uint64_t norm_params(const ModelShape& shape) { return 2 * shape.hidden; }
std::uint64_t router_params(const ModelShape& shape) { return shape.is_moe() ? shape.hidden * shape.experts : 0; }

}  // namespace

void check_model_shape(const ModelShape& s) {
  require(s.layers >= 1, s, "layers must be at least 1, got " + std::to_string(s.layers));
  require(s.hidden >= 1, s, "hidden must be at least 1, got " + std::to_string(s.hidden));
  require(s.ffn_hidden >= 1, s, "ffn_hidden must be at least 1, got " + std::to_string(s.ffn_hidden));
  require(s.vocab >= 1, s, "vocab must be at least 1, got " + std::to_string(s.vocab));
  require(s.heads >= 1, s, "heads must be at least 1, got " + std::to_string(s.heads));
  require(s.hidden % s.heads == 0, s,
          "heads " + std::to_string(s.heads) + " do not divide hidden " + std::to_string(s.hidden));
  require(s.heads % s.kv_head_count() == 0, s,
          "kv_heads " + std::to_string(s.kv_heads) + " do not divide heads " + std::to_string(s.heads));
  require(s.experts >= 1, s, "experts must be at least 1, got " + std::to_string(s.experts));
  require(s.top_k >= 1 && s.top_k <= s.experts, s,
          "top_k " + std::to_string(s.top_k) + " is not in [1, experts " + std::to_string(s.experts) + "]");
  if (s.params_override) require(*s.params_override >= 1, s, "a parameter count must be at least 1");
}

std::uint64_t attention_params(const ModelShape& s) { return 2 * s.hidden * s.hidden + 2 * s.hidden * s.kv_width(); }

std::uint64_t mlp_params(const ModelShape& s) {
  return (s.mlp == MlpKind::kGated ? 3 : 2) * s.hidden * s.ffn_hidden;
}

std::uint64_t layer_dense_params(const ModelShape& s) {
  return attention_params(s) + norm_params(s) + router_params(s) + (s.is_moe() ? 0 : mlp_params(s));
}

std::uint64_t layer_expert_params(const ModelShape& s) { return s.is_moe() ? s.experts * mlp_params(s) : 0; }

std::uint64_t embedding_params(const ModelShape& s) { return s.vocab * s.hidden; }

ParamCounts param_counts(const ModelShape& s) {
  ParamCounts counts;
  const std::uint64_t outside_layers = (s.tied_embeddings ? 1 : 2) * embedding_params(s) + s.hidden;
  counts.dense = s.layers * layer_dense_params(s) + outside_layers;
  counts.expert = s.layers * layer_expert_params(s);
  return counts;
}

std::uint64_t active_params(const ModelShape& s) {
  const ParamCounts counts = param_counts(s);
  return counts.dense + (s.is_moe() ? s.layers * s.top_k * mlp_params(s) : 0);
}

double layer_forward_flops(const ModelShape& s, std::uint64_t micro_batch, std::uint64_t seq) {
  const double matmul_params = static_cast<double>(attention_params(s) + router_params(s) + s.top_k * mlp_params(s));
  const double tokens = static_cast<double>(micro_batch) * static_cast<double>(seq);
  return 2 * tokens * matmul_params + attention_core_forward_flops(s, micro_batch, seq);
}

double attention_core_forward_flops(const ModelShape& s, std::uint64_t micro_batch, std::uint64_t seq) {
  const double sd = static_cast<double>(seq);
  return 4 * static_cast<double>(micro_batch) * sd * sd * static_cast<double>(s.hidden);
}

double logits_forward_flops(const ModelShape& s, std::uint64_t micro_batch, std::uint64_t seq) {
  return 2 * static_cast<double>(micro_batch) * static_cast<double>(seq) * static_cast<double>(s.hidden) *
         static_cast<double>(s.vocab);
}

ModelShape model_preset(std::string_view name, std::string_view what) {
  return preset_shape(parse_in(kPresetNames, name, what, "model"));
}

std::string model_preset_names() { return names_in(kPresetNames); }

}  // namespace commsim
