#pragma once
// A training step simulated (DESIGN.md section 3, "Workload traces"): the job of a training
// analysis (study/training_analysis.h) laid out as a workload (workload/training_step.h) and
// replayed on the topology, so that the groups of all dimensions share links and contend,
// gradient buckets overlap the last backward, and the pipeline schedule runs as it runs.
//
// The layout, from the analysis's operations:
//   compute      every stage the busiest GPU's: per micro-batch forward T_c / m x F / H and
//                backward the rest (T_c the step's compute, F the forward's share of the
//                model FLOPs, F = model / 3, H the hardware FLOPs with recomputation), cut
//                into one slice per layer of a model chunk (or per k layers, max_slices)
//   tp, ep, cp   per layer, after its slice, the operations of one layer in their group;
//                the context-parallel ring's cp - 1 K,V sends as one AllGather of the cp
//                chunks (the same bytes each rank receives)
//   pp           the pipeline's activations and gradients; the tied embedding's gradients
//                AllReduced by the first and last stage after the step
//   dp           the gradients, in buckets overlapping the last micro-batch's backward:
//                AllReduce (ZeRO-0) or ReduceScatter (ZeRO-1, 2, 3; reduced once, after the
//                last micro-batch, where ZeRO-2 reduces after each), then the AllGather of
//                the updated weights; ZeRO-3 gathers each layer's weights before its forward
//                and backward slice; the experts' gradients after the step in their group
// Not simulated: the optimizer's compute.

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "network/link_stats.h"
#include "study/training_analysis.h"

namespace commsim {

struct Straggler {
  Rank rank = 0;
  double factor = 1;  // its compute takes factor times as long
};

struct StepSimulationOptions {
  Bytes bucket_bytes = Bytes{25} << 20;  // PyTorch DDP's bucket_cap_mb, 25 MiB
  /// At most this many slices per model chunk (0: one per layer). With k layers a slice,
  /// each per-layer collective becomes one of k times the bytes after the slice: k times
  /// fewer nodes, and k times fewer latencies paid (a coarser, faster simulation).
  std::uint32_t max_slices = 0;
  std::vector<Straggler> stragglers;
  /// Called as each rank's nodes are laid out, with the ranks done and their total; then as
  /// each node of the replay finishes, with its work (workload/replay.h node_work) and the
  /// nodes and work of the whole replay (progress). Either may be empty.
  std::function<void(std::size_t done, std::size_t total)> on_layout_progress;
  std::function<void(double work, std::size_t total_nodes, double total_work)> on_progress;
  bool record_link_stats = false;  // per-link statistics of the step (network/link_stats.h)
};

struct SimulatedStep {
  TimePs step_ps = 0;
  Rank last_rank = 0;              // the rank that finished last (the lowest of equals)
  TimePs compute_ps = 0;           // its compute
  TimePs exposed_ps = 0;           // its time with communication under way and no compute
  /// Of that exposed time, the part with each dimension's communication under way (one
  /// instant may count for two dimensions), for the dimensions of the analysis.
  std::vector<std::pair<ParallelDim, TimePs>> exposed_by_dimension;
  double mfu = 0;
  std::size_t nodes = 0;           // of the workload
  std::optional<LinkStats> link_stats;  // with record_link_stats, T = step_ps
};

/// Throws InputError for a straggler rank out of range or a factor that is not positive, and
/// as generate_training_step and replay_workload do.
SimulatedStep simulate_training_step(const Topology& topology, const TrainingAnalysisOptions& options,
                                     const TrainingAnalysis& analysis, const StepSimulationOptions& simulation);

}  // namespace commsim
