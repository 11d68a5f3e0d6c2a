#pragma once
// One training job as the closed form sees it: the model, its split over the GPUs, the batch,
// the number format, the optimizer, the ZeRO stage and the activation recomputation; and the
// parameters each GPU holds, which memory (training_memory.h) and gradient traffic
// (training_traffic.h) both start from.
//
// Parameters per GPU, on the pipeline rank that holds the most (Megatron-LM's split):
//   P_dense  = (L/pp * layer_dense + extra) / tp,  extra = the embedding V*h on the first
//              rank; the output layer V*h (or, tied, the embedding's copy Megatron-LM keeps
//              there) and the final norm on the last; all of them when pp = 1
//   P_expert = L/pp * layer_expert / (tp * ep)
// The larger of the first and last rank's P_dense + P_expert is taken. Norms are counted as
// split over tp like the rest (Megatron-LM replicates them: a few h per layer).
// With a parameter-count override the total replaces the shape's count, split into dense and
// expert in the shape's proportion, and is spread evenly: P_dense = dense / (tp * pp),
// P_expert = expert / (tp * pp * ep).

#include <cstdint>
#include <string_view>

#include "model/model_shape.h"
#include "model/parallel_config.h"

namespace commsim {

enum class Dtype { kBf16, kFp16, kFp32 };
enum class OptimizerKind { kAdam, kSgdMomentum };
/// Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
/// Models": stage 1 partitions the optimizer state over the data-parallel ranks, stage 2 also
/// the gradients, stage 3 also the weights.
enum class ZeroStage { k0, k1, k2, k3 };
/// Korthikanti et al. 2022: keep all activations, recompute the attention core (selective),
/// or keep only each layer's input and recompute the layer (full).
enum class Recompute { kNone, kSelective, kFull };

struct TrainingSetup {
  ModelShape model;
  ParallelConfig parallel;
  BatchConfig batch;
  Dtype dtype = Dtype::kBf16;  // weights, gradients and activations; bf16/fp16 train in mixed precision
  OptimizerKind optimizer = OptimizerKind::kAdam;
  ZeroStage zero = ZeroStage::k0;
  Recompute recompute = Recompute::kNone;
};

/// 2 for bf16 and fp16, 4 for fp32.
std::uint32_t dtype_bytes(Dtype dtype);
std::string_view dtype_name(Dtype dtype);              // "bf16"
std::string_view optimizer_name(OptimizerKind kind);   // "adam", "sgd"
std::string_view zero_name(ZeroStage stage);           // "0" .. "3"
std::string_view recompute_name(Recompute recompute);  // "none", "selective", "full"
/// Throw InputError "<what>: unknown dtype 'x' (known: bf16, fp16, fp32)" and so on.
Dtype parse_dtype(std::string_view name, std::string_view what);
OptimizerKind parse_optimizer(std::string_view name, std::string_view what);
ZeroStage parse_zero(std::string_view name, std::string_view what);
Recompute parse_recompute(std::string_view name, std::string_view what);

/// The shape, and the configuration on `gpus` GPUs (check_parallel_config).
void check_training_setup(const TrainingSetup& setup, std::uint64_t gpus);

/// The data-parallel ranks that share a dense parameter: dp * cp; an expert one: dp / ep * cp.
std::uint64_t dense_replicas(const ParallelConfig& parallel);
std::uint64_t expert_replicas(const ParallelConfig& parallel);

struct GpuParams {
  double dense = 0;
  double expert = 0;
  double total() const { return dense + expert; }
};

/// The parameters of the GPU that holds the most (above).
GpuParams params_per_gpu(const ModelShape& shape, const ParallelConfig& parallel);

}  // namespace commsim
