#pragma once
// Memory of one GPU in a training step, bytes: weights, gradients, optimizer state and
// activations, on the GPU that holds the most (training_setup.h: P = P_dense + P_expert).
//
// Model states (Rajbhandari et al. 2020, "ZeRO", section 3.1: mixed-precision Adam holds
// 2 + 2 + 12 = 16 B per parameter):
//   weights     P * d            d = 2 (bf16, fp16) or 4 (fp32)
//   gradients   P * d            in the training dtype, as the ZeRO paper counts them
//   optimizer   P * k            mixed precision: Adam k = 12 (fp32 master 4, m 4, v 4),
//                                SGD with momentum k = 8 (master 4, momentum 4);
//                                fp32: no master copy, Adam 8 (m, v), SGD 4 (momentum)
// ZeRO-1 divides the optimizer term, ZeRO-2 also the gradients, ZeRO-3 also the weights, by
// the ranks sharing the parameters: dp * cp for P_dense, dp / ep * cp for P_expert.
//
// Activations of one layer and one micro-batch (Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models", Table 2; 16-bit activations, 1-byte dropout
// masks; s the tokens per GPU, seq / cp):
//   no recomputation                  s b h (10 + 24/t + 5 a s / (h t))
//   ... with sequence parallelism     s b h / t (34 + 5 a s / h)
//   selective recomputation           s b h (10 + 24/t)
//   ... with sequence parallelism     s b h / t * 34
//   full recomputation                2 s b h, with sequence parallelism 2 s b h / t
// The paper's layer has a 4h GELU MLP and multi-head attention; other shapes take the same
// formula. MoE (a simple rule of ours): a token's MLP intermediates are held for each of its
// top_k experts, so the MLP's TP-split 16 of the 24 (and of the 34) becomes 16 * top_k:
// 24 -> 8 + 16 k, 34 -> 18 + 16 k. fp32 activations double everything (masks included).
// The paper's terms outside the layers (embedding, final norm, logits) are left out.
//
// Layers held: L/pp per rank, each for the micro-batches in flight on the first rank, the
// one that holds the most:
//   1F1B          min(pp, m)                 (so L layers' worth in all)
//   interleaved   pp + (pp - 1) / v          (L (1 + (pp-1)/(pp v)); Korthikanti sec. 4.2.3)
//   GPipe         m

#include <cstdint>
#include <string>

#include "model/training_setup.h"

namespace commsim {

/// One term of memory and how it was formed, e.g. "5.019e+08 params x 2 B (bf16)".
struct MemoryTerm {
  double bytes = 0;
  std::string formula;
};

struct TrainingMemory {
  GpuParams params;  // per GPU, before ZeRO partitions them
  MemoryTerm weights;
  MemoryTerm gradients;
  MemoryTerm optimizer;
  MemoryTerm activations;
  double total_bytes = 0;
  bool fits(double gpu_memory_bytes) const { return total_bytes <= gpu_memory_bytes; }
};

/// k above: Adam 12, SGD 8 in mixed precision; 8 and 4 in fp32.
std::uint32_t optimizer_bytes_per_param(OptimizerKind optimizer, Dtype dtype);

struct LayerActivationInput {
  std::uint64_t micro_batch = 1;  // b
  std::uint64_t seq = 1;          // s, tokens on one GPU (seq / cp)
  std::uint32_t tp = 1;           // t
  bool sequence_parallel = false;
  Recompute recompute = Recompute::kNone;
  Dtype dtype = Dtype::kBf16;
};

/// One layer, one micro-batch (Korthikanti et al. 2022, Table 2, above).
MemoryTerm layer_activations(const ModelShape& shape, const LayerActivationInput& input);

/// Micro-batches whose activations the first pipeline rank holds at its peak (above).
double microbatches_in_flight(const ParallelConfig& parallel, std::uint64_t microbatches);

/// Every term for a setup that check_training_setup accepts.
TrainingMemory training_memory(const TrainingSetup& setup);

}  // namespace commsim
