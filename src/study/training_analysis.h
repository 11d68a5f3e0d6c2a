#pragma once
// A training step in closed form (DESIGN.md section 3, "Closed-form model"): the memory of
// each GPU (model/training_memory.h), the communication of each parallel dimension
// (model/training_traffic.h) costed on the links its groups span, the compute at a sustained
// rate, and the step's upper bound with nothing overlapped:
//
//   T_bound = T_compute + bubble (T_compute + T_tp + T_cp + T_ep) + sum over dimensions of T_dim
//   bubble  = (pp - 1) / m for GPipe and 1F1B, (pp - 1) / (v m) interleaved (Narayanan et
//             al. 2021, sec. 2.2), of each micro-batch's whole work: its compute and the
//             TP, CP and EP communication it waits for
//   T_dim   = sum over the dimension's operations of count x the time of one
//   MFU     = model FLOPs / (T x GPUs x peak FLOP/s)
//
// One operation's time: a collective's closed form (model/collective_model.h) for NCCL's
// choice of algorithm and protocol under the dimension's library, on the topology the
// group of rank 0 spans (topology/group_topology.h), on the library's channels and tree
// layout there, NVLS included where the group's switch reduces; a round of P2P sends, the
// slowest send's
// closed form (model/p2p_model.h) on the whole topology. Ranks run on NPUs in order.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/training_compute.h"
#include "model/training_memory.h"
#include "model/training_traffic.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct TrainingAnalysisOptions {
  TrainingSetup setup;
  double tflops = 400;          // achieved per GPU (dense, the setup's dtype)
  /// Measured instead: one layer's forward and backward of one micro-batch on one GPU, s.
  /// Then T_compute = L/pp x m x (f + b), plus f again with full recomputation.
  std::optional<double> layer_forward_s;
  std::optional<double> layer_backward_s;
  double peak_tflops = 989;     // per GPU, for MFU: H100 SXM dense bf16 (NVIDIA H100 datasheet)
  double gpu_memory_bytes = 80e9;
  LibraryProfile library;       // every dimension's
  std::optional<LibraryProfile> dp_library;  // the data-parallel dimension's, if another (Gloo)
  TimePs overhead_ps = 0;       // o per message
};

/// One operation of the step, costed.
struct CostedTraffic {
  TrafficEntry entry;
  std::optional<AlgorithmKind> algorithm;  // collectives: what NCCL's choice runs
  std::optional<Protocol> protocol;
  /// The channels it runs on under a library (collective_call_channels; a send's P2P
  /// channels, the slowest send's); empty under ideal.
  std::optional<std::uint32_t> channels;
  double time_per_op_s = 0;
  double time_per_step_s = 0;              // x ops_per_step
};

struct DimensionCost {
  ParallelDim dimension = ParallelDim::kDp;
  std::vector<Rank> group;      // rank 0's group, as costed
  LinkClass slowest = LinkClass::kNvlink;  // the slowest class of link its routes use
  std::string library;
  std::vector<CostedTraffic> operations;
  double bytes_per_step = 0;    // per group
  double time_per_step_s = 0;
};

struct TrainingAnalysis {
  std::uint64_t gpus = 0;
  std::uint64_t microbatches = 0;
  TrainingMemory memory;
  bool fits = false;
  StepCompute flops;
  double compute_s = 0;         // the busiest GPU's FLOPs at `tflops` (or its layers' times)
  double forward_share = 0;     // of compute_s, the forwards' (the rest: backwards, recomputation)
  double bubble_s = 0;          // of the compute and the TP, CP and EP communication
  std::vector<DimensionCost> dimensions;  // those of degree > 1: dp, tp, pp, cp, ep
  double communication_s = 0;
  double step_bound_s = 0;      // compute + bubble + communication
  double mfu_at_bound = 0;
};

/// Throws InputError when the setup cannot run on the topology (check_training_setup; the
/// GPUs are the topology's NPUs), or a tensor-parallel group crosses the network (a node
/// cannot hold it).
TrainingAnalysis analyze_training(const Topology& topology, const TrainingAnalysisOptions& options);

/// The pipeline bubble as a fraction of the compute: (pp - 1) / m, or / (v m) interleaved.
double bubble_fraction(const ParallelConfig& parallel, std::uint64_t microbatches);

}  // namespace commsim
