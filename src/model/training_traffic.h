#pragma once
// The communication of one training step, per parallel dimension, in closed form: which
// operation, how large, how often, in which group and phase. No times: costing the entries on
// a topology is a later step.
//
// Sizes follow nccl-tests (base/collectives.h): AllReduce the buffer each rank holds;
// AllGather the gathered output and ReduceScatter the input, i.e. the full buffer, of which
// each rank holds or ends with 1/group; AllToAll what each rank sends in all; a P2P send
// the message. An entry's ops_per_step counts what one group runs in a step: for a collective
// the calls all members make together; for P2P rounds of sends, a round being one message
// across one pipeline-stage boundary (PP) or one ring step in which every member of the CP
// group sends bytes_per_op to the next (CP ring).
//
// With d the dtype's bytes, b the micro-batch, s' = seq / cp the tokens of a sequence per GPU,
// m micro-batches per step, L' = L / pp layers per rank, P_dense and P_expert the parameters of
// a GPU (training_setup.h):
//   dp  gradients of P_dense over dp * cp ranks, of P_expert over dp / ep * cp (Rajbhandari et
//       al. 2020; Megatron-LM's distributed optimizer):
//         ZeRO-0  AllReduce P d, once (backward)
//         ZeRO-1  ReduceScatter of the gradients P d, once (backward), and AllGather of the
//                 updated weights P d, once (optimizer)
//         ZeRO-2  as ZeRO-1, but the ReduceScatter after each of the m micro-batches: a rank
//                 keeps only its share of the gradients, so it cannot accumulate the rest
//         ZeRO-3  AllGather of each layer's weights (P / L') d before its forward and again
//                 before its backward, and ReduceScatter of its gradients after the backward:
//                 L' m times each (the rank's embedding and norms spread over its layers)
//   tp  per layer and micro-batch, b s' h d each (Shoeybi et al. 2019, "Megatron-LM", sec. 3:
//       one AllReduce after attention and one after the MLP, forward; two backward). With
//       sequence parallelism (Korthikanti et al. 2022, sec. 4.2.2) each becomes an AllGather
//       before and a ReduceScatter after: 2 + 2 forward, 2 + 2 backward, same sizes
//   cp  ring (Liu et al. 2023; Megatron-LM's context parallelism): per layer and micro-batch
//       cp - 1 ring steps forward, each passing a K,V chunk of 2 b s' h_kv d / tp (a TP rank
//       holds 1/tp of the heads), and 2 (cp - 1) backward (the K,V chunk onwards and the
//       dK,dV chunk onwards). Ulysses (Jacobs et al. 2023): AllToAll of q and of the output,
//       b s' h d / tp, and of k and v, b s' h_kv d / tp, forward; the same four backward
//   ep  per layer and micro-batch, AllToAll dispatch and combine of b s' h top_k d / tp (each
//       token to its top_k experts; the tokens are split over the TP ranks, as sequence
//       parallelism, which Megatron-LM requires with MoE and tp > 1, does), forward; the
//       same two backward
//   pp  per micro-batch and stage boundary (pp v - 1 of them), the activation forward and its
//       gradient backward: b s' h d, over tp with sequence parallelism (each TP rank sends
//       its own part, as Megatron-LM's scatter-gather optimisation does without it). With
//       tied embeddings and pp > 1 the first and last rank AllReduce the embedding's
//       gradients, V h / tp d, once (backward)
// Full recomputation repeats each layer's forward in the backward phase, and with it the
// forward tp, cp and ep operations (entries "... (recomputed)"); selective recomputation
// repeats no communication. Left out: the embedding's and the loss's small TP collectives,
// MoE load imbalance and capacity factors, and the splitting of gradient buffers into buckets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "model/parallel_config.h"
#include "model/training_setup.h"

namespace commsim {

enum class TrafficPhase { kForward, kBackward, kOptimizer };

struct TrafficEntry {
  ParallelDim dimension = ParallelDim::kDp;
  std::optional<CollectiveKind> collective;  // empty: point-to-point sends
  Bytes bytes_per_op = 0;                    // the nccl-tests size (above)
  std::uint64_t ops_per_step = 0;            // per group (above)
  std::uint32_t group_size = 1;
  TrafficPhase phase = TrafficPhase::kForward;
  std::string what;                          // "gradients", "K,V chunks (recomputed)"

  double bytes_per_step() const { return static_cast<double>(bytes_per_op) * static_cast<double>(ops_per_step); }
};

std::string_view traffic_phase_name(TrafficPhase phase);  // "forward", "backward", "optimizer"
/// The collective's name ("allreduce") or "send".
std::string_view traffic_op_name(const TrafficEntry& entry);

/// Every entry for a setup that check_training_setup accepts, dimension by dimension in the
/// order dp, tp, pp, cp, ep; none for a dimension of degree 1.
std::vector<TrafficEntry> training_traffic(const TrainingSetup& setup);

}  // namespace commsim
