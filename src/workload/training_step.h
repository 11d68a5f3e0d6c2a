#pragma once
// One training step of a dp x tp x pp x cp (x ep) job as a Workload (DESIGN.md section 3,
// "Workload traces"), for replay_workload to run on a topology where the groups of all
// dimensions share links and contend. The caller (the study layer) fills the shape from a
// model of the job: which ranks form each pipeline and each group, what each rank computes
// and which collectives follow; this file only lays out the DAG.
//
// Per rank, in program order (rank r runs stage s of pipeline k, the stage's device
// program of pipeline/schedules.h):
//
//   compute action   -> `slices` compute nodes ("F3 slice 0" .. ; "F3" for one slice) of
//                       duration / slices each (the remainder's picoseconds go to the last
//                       slices), times the rank's compute_scale; after each slice its
//                       forward (backward) collectives in order. Megatron-LM runs tensor-
//                       parallel communication on the compute stream, so it blocks the next
//                       slice: the first collective depends on the slice, each further one
//                       on the slice and the collective before it (one stream), the next
//                       slice on the last collective.
//   send / receive   -> as generate_pipeline (generators.h), the peer being the rank of the
//                       neighbouring stage in the same pipeline; a send depends on the last
//                       collective of the slice that made its data (the activation is whole
//                       only once reduced).
//   gradients        -> overlapped with the last micro-batch's backward, as PyTorch DDP and
//                       Megatron-LM's overlap_grad_reduce do: gradients.bytes become ready
//                       evenly over the backward slices of each chunk's last backward (v
//                       chunks x slices pieces, the remainder's bytes on the last pieces), are
//                       bucketed as fill_buckets does, and each bucket's collective starts
//                       once its last slice is done and the previous bucket's collective has
//                       finished (one stream; Li et al., VLDB 2020, sec. 3.2.3).
//   after_gradients  -> in order, after the program's last action and every bucket (e.g.
//                       the AllReduce of tied embedding gradients, a gradient-norm AllReduce)
//   optimizer        -> one compute node after those
//   after_optimizer  -> in order, after the optimizer (e.g. the distributed optimizer's or
//                       ZeRO's AllGather of the updated weights)
//
// A rank in no group of a family skips that family's collectives (e.g. a family holding only
// the embedding group of the first and last stages).
//
// Every member of a group must meet the same collectives in the same order (replay.h pairs
// the k-th collective of each member). The per-slice collectives follow the program, so
// every group of a family they use must hold ranks of one stage (which run the same
// program); and the gradient buckets run beside backward, so their family may carry no
// per-slice collective (give those their own communicator, as Megatron-LM does).
// generate_training_step checks both.
//
// Size: per rank 2 m v slices compute nodes, m v slices (forward + backward collectives)
// collective nodes, the schedule's sends and receives, the buckets and the few nodes after
// them: linear in ranks x microbatches x slices x (1 + collectives per slice).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "pipeline/schedules.h"
#include "topology/topology.h"
#include "workload/workload.h"

namespace commsim {

/// A collective the members of each group of one family run together.
struct StepCollective {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  Bytes bytes = 0;                         // nccl-tests' size, as WorkloadNode::bytes; 0 for Barrier only
  std::size_t family = 0;                  // index into TrainingStepShape::families
  std::string what;                        // "tp allreduce" in node names; empty: "<family> <kind>"
  std::optional<AlgorithmKind> algorithm;  // empty: replay's choice
};

/// The groups of one parallel dimension, e.g. "tp": every TP group. A rank is in at most one
/// group of a family. Group g is registered in Workload::groups as name + g, zero-padded to
/// the width of the last index ("tp3", "dp07").
struct GroupFamily {
  std::string name;
  std::vector<std::vector<Rank>> groups;  // each group's ranks in the order the algorithm uses
};

/// The data-parallel reduction of a rank's gradients.
struct GradientReduction {
  Bytes bytes = 0;                        // per rank: its gradients (all its chunks); 0: none
  /// A bucket closes once it holds at least this: PyTorch's bucket_cap_mb default, 25 MiB.
  Bytes bucket_bytes = Bytes{25} << 20;
  std::size_t family = 0;                 // e.g. "dp" (dp x cp ranks with context parallelism)
  CollectiveKind kind = CollectiveKind::kAllReduce;  // or kReduceScatter (ZeRO, distributed optimizer)
  std::optional<AlgorithmKind> algorithm;  // empty: replay's choice
};

struct TrainingStepShape {
  std::uint32_t ranks = 0;
  /// The schedule every pipeline runs: schedule, stages (pp), micro-batches, virtual stages,
  /// per-stage forward and backward time of one micro-batch (all the stage's layers) and
  /// the activation bytes sent between stages.
  PipelineShape pipeline;
  /// Each pipeline's ranks in stage order, `pipeline.stages` of them; every rank in exactly
  /// one pipeline.
  std::vector<std::vector<Rank>> pipelines;
  std::vector<GroupFamily> families;
  /// Each compute action is cut into this many equal slices (e.g. the layers of a model chunk).
  std::uint32_t slices = 1;
  std::vector<StepCollective> forward_collectives;   // after each forward slice, in order
  std::vector<StepCollective> backward_collectives;  // after each backward slice, in order
  GradientReduction gradients;
  std::vector<StepCollective> after_gradients;
  TimePs optimizer_ps = 0;  // 0: no optimizer node
  std::vector<StepCollective> after_optimizer;
  /// Per rank, empty = all 1: every compute node of the rank lasts factor times as long
  /// (rounded to the picosecond), a straggler's factor being above 1.
  std::vector<double> compute_scale;
};

/// Throws InputError naming the field and the value: slices 0; a pipeline of the wrong
/// length; a rank out of range, in no pipeline or in two; a family with no name, a repeated
/// group name, an empty group, a rank in two groups of a family; a collective of a family
/// that does not exist or has no groups, of 0 bytes (a barrier of more); a per-slice family
/// whose group spans stages; a gradient family that carries per-slice collectives, a gradient
/// kind other than AllReduce and ReduceScatter, a zero bucket size; a compute_scale of the
/// wrong length or a factor that is not positive and finite; and as make_pipeline_programs
/// does. `on_rank_written`, if given, is called after each rank's nodes are written (progress).
Workload generate_training_step(const TrainingStepShape& shape, const std::function<void()>& on_rank_written = {});

}  // namespace commsim
