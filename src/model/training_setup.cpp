#include "model/training_setup.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<Dtype, 3> kDtypeNames{{
    {Dtype::kBf16, "bf16"},
    {Dtype::kFp16, "fp16"},
    {Dtype::kFp32, "fp32"},
}};

constexpr NameTable<OptimizerKind, 2> kOptimizerNames{{
    {OptimizerKind::kAdam, "adam"},
    {OptimizerKind::kSgdMomentum, "sgd"},
}};

constexpr NameTable<ZeroStage, 4> kZeroNames{{
    {ZeroStage::k0, "0"},
    {ZeroStage::k1, "1"},
    {ZeroStage::k2, "2"},
    {ZeroStage::k3, "3"},
}};

constexpr NameTable<Recompute, 3> kRecomputeNames{{
    {Recompute::kNone, "none"},
    {Recompute::kSelective, "selective"},
    {Recompute::kFull, "full"},
}};

/// The shape's split, scaled to the override when there is one.
ParamCounts counted_params(const ModelShape& shape) {
  const ParamCounts counts = param_counts(shape);
  if (!shape.params_override) return counts;
  ParamCounts scaled;
  const double fraction = static_cast<double>(counts.expert) / static_cast<double>(counts.total());
  scaled.expert = static_cast<std::uint64_t>(fraction * static_cast<double>(*shape.params_override) + 0.5);
  scaled.dense = *shape.params_override - scaled.expert;
  return scaled;
}

}  // namespace

std::uint32_t dtype_bytes(Dtype dtype) { return dtype == Dtype::kFp32 ? 4 : 2; }
std::string_view dtype_name(Dtype dtype) { return name_in(kDtypeNames, dtype); }
std::string_view optimizer_name(OptimizerKind kind) { return name_in(kOptimizerNames, kind); }
std::string_view zero_name(ZeroStage stage) { return name_in(kZeroNames, stage); }
std::string_view recompute_name(Recompute recompute) { return name_in(kRecomputeNames, recompute); }

Dtype parse_dtype(std::string_view name, std::string_view what) { return parse_in(kDtypeNames, name, what, "dtype"); }
OptimizerKind parse_optimizer(std::string_view name, std::string_view what) {
  return parse_in(kOptimizerNames, name, what, "optimizer");
}
ZeroStage parse_zero(std::string_view name, std::string_view what) {
  return parse_in(kZeroNames, name, what, "ZeRO stage");
}
Recompute parse_recompute(std::string_view name, std::string_view what) {
  return parse_in(kRecomputeNames, name, what, "recomputation");
}

void check_training_setup(const TrainingSetup& setup, std::uint64_t gpus) {
  check_parallel_config(setup.parallel, setup.model, setup.batch, gpus);
}

std::uint64_t dense_replicas(const ParallelConfig& p) { return std::uint64_t{p.dp} * p.cp; }
std::uint64_t expert_replicas(const ParallelConfig& p) { return std::uint64_t{p.dp} / p.ep * p.cp; }

GpuParams params_per_gpu(const ModelShape& shape, const ParallelConfig& p) {
  const double tp = p.tp;
  const double pp = p.pp;
  const double ep = p.ep;
  GpuParams out;
  if (shape.params_override) {
    const ParamCounts counts = counted_params(shape);
    out.dense = static_cast<double>(counts.dense) / (tp * pp);
    out.expert = static_cast<double>(counts.expert) / (tp * pp * ep);
    return out;
  }
  const double layers = layers_per_stage(p, shape);
  const double embedding = static_cast<double>(embedding_params(shape));
  const double hidden = static_cast<double>(shape.hidden);
  // The last rank holds the output layer, or with tied embeddings and pp > 1 Megatron-LM's
  // copy of the embedding; with pp = 1 it is also the first.
  const double output = (shape.tied_embeddings && p.pp == 1) ? 0 : embedding;
  const double first_extra = embedding;
  const double last_extra = output + hidden + (p.pp == 1 ? embedding : 0);
  const double extra = p.pp == 1 ? last_extra : std::max(first_extra, last_extra);
  out.dense = (layers * static_cast<double>(layer_dense_params(shape)) + extra) / tp;
  out.expert = layers * static_cast<double>(layer_expert_params(shape)) / (tp * ep);
  return out;
}

}  // namespace commsim
