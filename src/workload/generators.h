#pragma once
// Synthetic workloads (DESIGN.md section 3, "Workload traces"): the traces `commsim generate`
// writes. Each function returns a Workload that has passed validate_workload(); node ids
// are 1, 2, 3, ... per rank in the order the nodes are listed, which is a topological order.
//
//   collective     one collective on N ranks
//   pipeline       one pipeline-parallel step, converted from the device programs of
//                  pipeline/schedules.h (the mapping is under PipelineShape below)
//   ddp            one data-parallel (PyTorch DDP) training step with gradient buckets
//   ddp-pipeline   D data-parallel replicas of a P-stage pipeline
// and training_step.h builds a whole dp x tp x pp x cp step from the same pieces.
//
// Compute nodes of a rank run one at a time (replay.h); every generator chains them in
// program order through dependencies, so replay runs them in that order.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "pipeline/schedules.h"
#include "workload/rank_writer.h"
#include "workload/workload.h"

namespace commsim {

// --- A single collective ---------------------------------------------------------------

struct CollectiveWorkloadShape {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::uint32_t ranks = 8;
  /// As `commsim collective --size`: rounded down as nccl-tests does (nccl_size), so that the
  /// replayed time is the one `commsim collective` prints for this size.
  Bytes size = 0;
  std::optional<AlgorithmKind> algorithm;  // empty: replay's choice
};

/// Every rank holds one collective node (id 1) among all ranks. Throws InputError for fewer
/// than 2 ranks, or a size that rounds down to 0 bytes (except for Barrier).
Workload generate_collective(const CollectiveWorkloadShape& shape);

// --- A pipeline-parallel step ----------------------------------------------------------
//
// make_pipeline_programs(shape) gives each device (rank) a list of actions: compute tasks
// and communication calls, each call a group of sends and receives. The conversion follows
// `commsim pipeline --p2p-mode overlapped` with no overhead (pipeline_sim.h): a call's
// operations are posted together when the device reaches the call, the device goes on once
// the call's receives have arrived, and sends finish in the background. As a DAG:
//
//   compute action     -> a compute node (name "F3", "B3"; "F3.1" for chunk 1)
//   send / receive op  -> a send / recv node: the op's peer, tag and activation_bytes,
//                         named after what it carries ("activation of micro-batch 3
//                         between stages 0 and 1")
//   dependencies       -> every node of action k depends on the nodes that let the device
//                         leave action k-1: the compute node when action k-1 is a compute
//                         (so a send depends on the compute that produced its data, and a
//                         receive is posted only when the device reaches its call), the
//                         call's receives when it is a call (so a compute waits for its
//                         input). A call with no receive lets the device through at once:
//                         its actions depend on what the call's own actions depended on.
//
// By transitivity each compute depends on the previous one, so replay keeps program order,
// and replaying the result takes exactly as long as simulate_pipeline in overlapped mode
// with o = 0 on the same topology (tests/workload/generators_test.cpp checks this). With an
// overhead the two differ by design: simulate_pipeline charges o per launch on the device,
// one launch after another, replay charges it per message in the network. Batched mode with
// o = 0 is overlapped mode; sequential mode (blocking operations in turn) is not generated.

/// Rank d is device d. Throws InputError as make_pipeline_programs does.
Workload generate_pipeline(const PipelineShape& shape);

/// Appends the DAG of one device's program to `rank` (ids continue from the largest id
/// there). Peers are devices; `first_rank` is added to them (the rank of device 0). Returns
/// the ids of the device's compute nodes, in program order.
std::vector<TraceNodeId> append_device_program(const DeviceProgram& program, Rank first_rank,
                                               Bytes message_bytes, RankTrace& rank);

/// "F3", "B3"; "F3.1" for chunk 1: a compute action's node name.
std::string compute_action_name(const Action& action);

/// Writes the nodes of one compute action through `writer`: `deps` is what the device had
/// to finish to reach the action (empty at the start), the action's first nodes depend on
/// it. Returns what the device must finish to leave the action (never empty): the action's
/// output sends and the next action depend on it.
using ComputeExpander =
    std::function<std::vector<TraceNodeId>(const Action& action, std::vector<TraceNodeId> deps, RankWriter& writer)>;

/// The conversion above in general: device d of the program runs on rank_of_device(d) (the
/// peer of a send or receive), and each compute action becomes what `expand` writes (the
/// overload above writes one compute node of the action's duration, named as
/// compute_action_name says). Returns what the device must finish to leave its last action.
std::vector<TraceNodeId> append_device_program(const DeviceProgram& program,
                                               const std::function<Rank(std::uint32_t)>& rank_of_device,
                                               Bytes message_bytes, RankWriter& writer,
                                               const ComputeExpander& expand);

// --- A data-parallel (DDP) step ---------------------------------------------------------
//
// PyTorch DistributedDataParallel (Li et al., "PyTorch Distributed: Experiences on
// Accelerating Data Parallel Training", VLDB 2020, sections 3.2.3 and 4.2): gradients are
// grouped into buckets in the order backward produces them (the last layer first); a
// bucket's AllReduce is launched as soon as the last gradient of the bucket is ready, and
// runs while backward goes on with earlier layers. A bucket is closed once it holds at least
// the cap (reducer.cpp, compute_bucket_assignment_by_size: `if (bucket.size >= limit)`), so
// with equal layers of g bytes and a cap of c bytes every bucket but the last holds
// ceil(c / g) layers. The AllReduces run in bucket order, one after another, as they do on
// the process group's single NCCL stream.
//
// Per rank: forward of layers 0..L-1, backward of layers L-1..0 (each compute node after the
// previous one), one AllReduce per bucket after the backward of the bucket's last layer and
// after the previous bucket's AllReduce, and an optional optimizer step after all of them.
// The AllReduces run among all ranks (no group).

struct DdpShape {
  std::uint32_t ranks = 8;
  std::uint32_t layers = 8;
  TimePs forward_ps = 0;   // per layer
  TimePs backward_ps = 0;  // per layer
  Bytes layer_bytes = 0;   // gradient bytes of each layer
  /// bucket_cap_mb in bytes: PyTorch's default is 25 MiB (25 * 2^20).
  Bytes bucket_bytes = Bytes{25} << 20;
  /// The cap of the first bucket (the last layers' gradients). Empty: bucket_bytes. PyTorch
  /// caps it at 1 MiB (dist._DEFAULT_FIRST_BUCKET_BYTES) once it has rebuilt its buckets
  /// after the first iteration; give Bytes{1} << 20 to model that.
  std::optional<Bytes> first_bucket_bytes;
  TimePs optimizer_ps = 0;                 // 0: no optimizer node
  std::optional<AlgorithmKind> algorithm;  // of the AllReduces; empty: replay's choice
};

/// The layers of each bucket, in AllReduce order: {{L-1, L-2, ...}, ...}. Throws InputError
/// for no layers, or a zero layer or bucket size.
std::vector<std::vector<std::uint32_t>> ddp_buckets(const DdpShape& shape);

/// The bucketing above for items of any sizes, given in the order their gradients become
/// ready: each item joins the open bucket, and a bucket closes once it holds at least its
/// cap (`first_cap` for the first bucket, `cap` after). Returns the positions of each
/// bucket's items in `sizes`; no bucket for no items.
std::vector<std::vector<std::size_t>> fill_buckets(const std::vector<Bytes>& sizes, Bytes first_cap,
                                                   Bytes cap);

/// Throws InputError for fewer than 2 ranks and as ddp_buckets does.
Workload generate_ddp(const DdpShape& shape);

// --- Data + pipeline parallelism --------------------------------------------------------
//
// D replicas of the pipeline, rank r = d * P + s running stage (device) s of replica d, the
// pipeline's sends and receives within its replica. After a device's last compute its
// gradients (gradient_bytes) are AllReduced across the D replicas of that stage, in group
// "stage<s>" = {s, P + s, ..., (D - 1) P + s} (names zero-padded, so that name order is stage
// order), then the optional optimizer step runs.

struct DdpPipelineShape {
  std::uint32_t replicas = 2;  // D
  PipelineShape pipeline;
  Bytes gradient_bytes = 0;    // per device: the gradients of its stage (all its chunks)
  TimePs optimizer_ps = 0;     // 0: no optimizer node
  std::optional<AlgorithmKind> algorithm;
};

/// Throws InputError for fewer than 2 replicas, a zero gradient size, and as
/// make_pipeline_programs does.
Workload generate_ddp_pipeline(const DdpPipelineShape& shape);

}  // namespace commsim
