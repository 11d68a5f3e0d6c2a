#pragma once
// The shape of a decoder-only transformer, its parameter count and its FLOPs: the model half
// of a training-step analysis (training_memory.h, training_traffic.h, training_compute.h).
//
// Parameters (biases left out; a norm counts h, RMSNorm's weight — LayerNorm's bias would add
// h more, under 0.01% of any preset here):
//   per layer   attention  q, o: h*h each; k, v: h*h_kv each, h_kv = h*kv_heads/heads (GQA)
//               MLP        gated (SwiGLU: gate, up, down): 3*h*ffn; plain (up, down): 2*h*ffn
//               MoE        the MLP E times, plus a router of h*E
//               norms      2*h
//   model       embedding V*h, output V*h unless tied, final norm h
// Learned position embeddings (GPT-3: 2048*h, 0.01%) are left out. Every layer is a
// mixture-of-experts layer when experts > 1 (Mixtral's rule; models that alternate dense and
// MoE layers are not described). Expert parameters are the experts' MLPs; the router, like the
// rest, is dense (replicated across expert parallelism).
//
// FLOPs, forward, one micro-batch of b sequences of s tokens, per layer (Narayanan et al. 2021,
// "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC'21,
// section 5.1, whose FLOP count its appendix derives):
//   2*b*s*W + 4*b*s^2*h
// with W the weights a token multiplies (matmul parameters: attention, top_k experts' MLP and
// the router; not norms), 2 FLOPs per multiply-add; 4*b*s^2*h is the attention scores Q K^T
// and the context (scores x V), 2*b*s^2*h each, counted without causal masking (as the paper
// does: a causal kernel skips about half of it). The output layer (logits) adds 2*b*s*h*V.
// Backward is twice forward. For GPT-3 (W = 12 h^2) and full recomputation the step total is
// the paper's 96 B s L h^2 (1 + s/(6h) + V/(16 L h)).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace commsim {

enum class MlpKind { kGated, kPlain };  // SwiGLU: 3 matrices; GELU MLP: 2

struct ModelShape {
  std::string name = "custom";
  std::uint32_t layers = 0;          // L
  std::uint64_t hidden = 0;          // h
  std::uint64_t ffn_hidden = 0;      // the MLP's inner width (per expert)
  std::uint32_t heads = 0;           // a, query heads
  std::uint32_t kv_heads = 0;        // key/value heads (GQA); 0: as many as heads
  std::uint64_t vocab = 0;           // V
  MlpKind mlp = MlpKind::kGated;
  bool tied_embeddings = false;      // the output layer reuses the embedding's weights
  std::uint32_t experts = 1;         // E; 1: dense
  std::uint32_t top_k = 1;           // experts per token
  std::uint64_t seq_length = 0;      // the preset's training sequence length, a default
  /// A published total to use instead of the count from the shape (training_setup.h says how
  /// it is spread over the GPUs).
  std::optional<std::uint64_t> params_override;

  std::uint32_t kv_head_count() const { return kv_heads == 0 ? heads : kv_heads; }
  /// h_kv = h * kv_heads / heads: the width of K and of V.
  std::uint64_t kv_width() const { return hidden / heads * kv_head_count(); }
  bool is_moe() const { return experts > 1; }
};

/// Throws InputError naming the model and the field for a shape that describes no model: a
/// zero size, heads that do not divide h, kv_heads that do not divide heads, top_k outside
/// [1, experts].
void check_model_shape(const ModelShape& shape);

struct ParamCounts {
  std::uint64_t dense = 0;   // everything but the experts' MLPs
  std::uint64_t expert = 0;  // the experts' MLPs, all E of every layer
  std::uint64_t total() const { return dense + expert; }
};

// Counts from the shape, the override ignored (training_setup.h applies it).
std::uint64_t attention_params(const ModelShape& shape);       // one layer
std::uint64_t mlp_params(const ModelShape& shape);             // one layer, one expert
std::uint64_t layer_dense_params(const ModelShape& shape);     // one layer
std::uint64_t layer_expert_params(const ModelShape& shape);    // one layer, all experts
std::uint64_t embedding_params(const ModelShape& shape);       // V*h
ParamCounts param_counts(const ModelShape& shape);
/// The parameters one token passes through: dense plus top_k experts' MLPs.
std::uint64_t active_params(const ModelShape& shape);

/// FLOPs of one layer's forward for a micro-batch of `micro_batch` sequences of `seq` tokens:
/// 2*b*s*W + 4*b*s^2*h (above).
double layer_forward_flops(const ModelShape& shape, std::uint64_t micro_batch, std::uint64_t seq);
/// The attention scores and context alone: 4*b*s^2*h.
double attention_core_forward_flops(const ModelShape& shape, std::uint64_t micro_batch, std::uint64_t seq);
/// The output layer (logits): 2*b*s*h*V.
double logits_forward_flops(const ModelShape& shape, std::uint64_t micro_batch, std::uint64_t seq);

/// The named shapes: "llama3-8b", "llama3-70b", "gpt3-175b", "mixtral-8x7b". Throws InputError
/// "<what>: unknown model 'x' (known: ...)".
ModelShape model_preset(std::string_view name, std::string_view what = "model");
/// "llama3-8b, llama3-70b, ...", for help and errors.
std::string model_preset_names();

}  // namespace commsim
