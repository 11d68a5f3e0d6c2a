#pragma once
// How a training job is split over its GPUs: the degrees of data (dp), tensor (tp), pipeline
// (pp), context (cp) and expert (ep) parallelism, the pipeline schedule, the placement order
// of the dimensions on the ranks, and the batch.
//
//   GPUs = dp * tp * pp * cp
//
// Expert parallelism splits the data-parallel ranks (Megatron-LM before its "MoE parallel
// folding": expert_model_parallel_size divides data_parallel_size): ep divides dp, and an EP
// group is ep ranks of one DP group that differ only in the innermost part of their dp
// coordinate, dp = edp * ep + ep_coordinate (Megatron-LM's order "tp-cp-ep-dp-pp"). The
// experts' gradients are then reduced over the remaining dp / ep ranks (times cp), the dense
// gradients over all dp * cp (context-parallel ranks hold the same weights; Megatron-LM's
// data-parallel group with context parallelism).
//
// The placement order lists tp, cp, dp and pp innermost first: "tp-cp-dp-pp" (Megatron-LM's
// default) puts the ranks of a TP group next to each other, rank = tp_coordinate +
// tp * (cp_coordinate + cp * (dp_coordinate + dp * pp_coordinate)). ep is not in the order: it
// is always the innermost part of dp.
//
// Micro-batches per step: m = global_batch / (micro_batch * dp) (context parallelism splits
// each sequence, not the batch). 1F1B and interleaved need m >= pp to fill the pipeline;
// interleaved also needs m % pp == 0, as Megatron-LM does.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/model_shape.h"

namespace commsim {

enum class ParallelDim { kTp, kCp, kDp, kPp, kEp };
/// The pipeline schedules of pipeline/schedules.h, named the same (model may not include it).
enum class PpSchedule { kGPipe, k1F1B, kInterleaved };
/// How context parallelism shares attention: a ring of K,V chunks (Liu et al. 2023, "Ring
/// Attention with Blockwise Transformers"; Megatron-LM's context parallelism) or all-to-all of
/// heads (Jacobs et al. 2023, "DeepSpeed Ulysses").
enum class CpKind { kRing, kUlysses };

/// tp, cp, dp, pp, innermost first.
using PlacementOrder = std::array<ParallelDim, 4>;
inline constexpr PlacementOrder kMegatronOrder{ParallelDim::kTp, ParallelDim::kCp, ParallelDim::kDp,
                                               ParallelDim::kPp};

struct ParallelConfig {
  std::uint32_t dp = 1;
  std::uint32_t tp = 1;
  std::uint32_t pp = 1;
  std::uint32_t cp = 1;
  std::uint32_t ep = 1;
  std::uint32_t virtual_stages = 1;  // v, model chunks per pipeline rank (interleaved only)
  PpSchedule schedule = PpSchedule::k1F1B;
  bool sequence_parallel = false;    // Korthikanti et al. 2022: norms and dropout split over tp
  CpKind cp_kind = CpKind::kRing;
  PlacementOrder order = kMegatronOrder;

  std::uint32_t degree(ParallelDim dim) const;
  std::uint64_t gpus() const { return std::uint64_t{dp} * tp * pp * cp; }
  /// Pipeline stages a micro-batch crosses: pp * v.
  std::uint32_t model_chunks() const { return pp * virtual_stages; }
};

struct BatchConfig {
  std::uint64_t global_batch = 1;  // sequences per optimizer step
  std::uint64_t micro_batch = 1;   // b, sequences per micro-batch
  std::uint64_t seq_length = 1;    // s, tokens per sequence
};

std::string_view dimension_name(ParallelDim dim);  // "tp"
std::string_view pp_schedule_name(PpSchedule schedule);  // "1f1b"
std::string_view cp_kind_name(CpKind kind);  // "ring"
/// Throw InputError "<what>: unknown schedule 'x' (known: gpipe, 1f1b, interleaved)" and so on.
PpSchedule parse_pp_schedule(std::string_view name, std::string_view what);
CpKind parse_cp_kind(std::string_view name, std::string_view what);

/// "tp-cp-dp-pp": each of tp, cp, dp and pp once, innermost first. Throws InputError naming
/// `what` and the text for an unknown, missing or repeated dimension.
PlacementOrder parse_placement_order(std::string_view text, std::string_view what);
std::string placement_order_text(const PlacementOrder& order);

/// m = global_batch / (micro_batch * dp); throws InputError when it is not a whole number.
std::uint64_t micro_batch_count(const ParallelConfig& parallel, const BatchConfig& batch);
/// Transformer layers per pipeline rank: L / pp (its v chunks together).
std::uint32_t layers_per_stage(const ParallelConfig& parallel, const ModelShape& shape);

/// Throws InputError with the numbers when the configuration cannot run the model on `gpus`
/// GPUs: a degree of 0; dp*tp*pp*cp != gpus ("dp 4 x tp 8 x pp 2 x cp 1 = 64, not the 128
/// GPUs"); tp not dividing heads or kv_heads (Megatron-LM splits query groups over tp);
/// pp * v not dividing the layers; ep not dividing dp or the experts, or ep > 1 on a dense
/// model; cp (and with sequence parallelism tp) not dividing the sequence; Ulysses with heads
/// not divisible by tp * cp; virtual stages with a schedule other than interleaved; a batch
/// that is not a whole number of micro-batches per DP rank, or too few for the schedule.
void check_parallel_config(const ParallelConfig& parallel, const ModelShape& shape, const BatchConfig& batch,
                           std::uint64_t gpus);

}  // namespace commsim
