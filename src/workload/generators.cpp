#include "workload/generators.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "workload/rank_writer.h"

namespace commsim {
namespace {

std::vector<RankTrace> empty_ranks(std::size_t count, const std::string& source) {
  return std::vector<RankTrace>(count, RankTrace{source, {}});
}

// "stage07" among 10..99 stages: zero-padded so that sorting by name sorts by stage, which
// keeps group indices when a Chakra group file (sorted by name) is read back.
std::string stage_group_name(std::uint32_t stage, std::uint32_t stages) {
  const std::size_t width = std::to_string(stages - 1).size();
  std::string digits = std::to_string(stage);
  return "stage" + std::string(width - digits.size(), '0') + digits;
}

}  // namespace

Workload generate_collective(const CollectiveWorkloadShape& shape) {
  if (shape.ranks < 2) {
    throw InputError("collective: ranks must be at least 2, got " + std::to_string(shape.ranks));
  }
  const Bytes bytes = nccl_size(shape.kind, shape.size, shape.ranks);
  if (bytes == 0 && shape.kind != CollectiveKind::kBarrier) {
    throw InputError("collective: size " + std::to_string(shape.size) + " B is less than one " +
                     std::to_string(kElementBytes) + "-byte element per rank for " +
                     std::string(collective_name(shape.kind)) + " on " +
                     std::to_string(shape.ranks) + " ranks");
  }
  const std::string name = std::string(collective_name(shape.kind)) + "-" +
                           std::to_string(shape.ranks) + "ranks";
  Workload w{name, empty_ranks(shape.ranks, name), {}};
  for (RankTrace& rank : w.ranks) {
    RankWriter(rank).collective(std::string(collective_name(shape.kind)), shape.kind, bytes,
                                shape.algorithm, std::nullopt, {});
  }
  validate_workload(w);
  return w;
}

std::string compute_action_name(const Action& action) {
  std::string name(action.kind == Action::Kind::kForward ? "F" : "B");
  name += std::to_string(action.microbatch);
  if (action.chunk > 0) {
    name += '.';
    name += std::to_string(action.chunk);
  }
  return name;
}

std::vector<TraceNodeId> append_device_program(const DeviceProgram& program,
                                               const std::function<Rank(std::uint32_t)>& rank_of_device,
                                               Bytes message_bytes, RankWriter& writer,
                                               const ComputeExpander& expand) {
  // What the device must have finished to leave the previous action (generators.h).
  std::vector<TraceNodeId> frontier;
  for (const Action& action : program) {
    if (action.kind != Action::Kind::kCall) {
      frontier = expand(action, std::move(frontier), writer);
      COMMSIM_CHECK(!frontier.empty(), "a compute action of " + compute_action_name(action) +
                                           " expanded to nothing to wait for");
      continue;
    }
    std::vector<TraceNodeId> receives;
    for (const P2POp& op : action.ops) {
      WorkloadNode n;
      n.kind = op.kind == P2POp::Kind::kSend ? NodeKind::kSend : NodeKind::kRecv;
      n.name = (op.kind == P2POp::Kind::kSend ? "send " : "recv ") + describe(op);
      n.peer = rank_of_device(op.peer);
      n.bytes = message_bytes;  // every message of a schedule is one activation or gradient
      n.tag = op.tag;
      const TraceNodeId id = writer.add(std::move(n), frontier);
      if (op.kind == P2POp::Kind::kRecv) receives.push_back(id);
    }
    if (!receives.empty()) frontier = std::move(receives);
  }
  return frontier;
}

std::vector<TraceNodeId> append_device_program(const DeviceProgram& program, Rank first_rank,
                                               Bytes message_bytes, RankTrace& rank) {
  RankWriter writer(rank);
  std::vector<TraceNodeId> computes;
  append_device_program(
      program, [first_rank](std::uint32_t device) { return first_rank + device; }, message_bytes,
      writer, [&computes](const Action& action, std::vector<TraceNodeId> deps, RankWriter& w) {
        computes.push_back(w.compute(compute_action_name(action), action.duration_ps, std::move(deps)));
        return std::vector<TraceNodeId>{computes.back()};
      });
  return computes;
}

Workload generate_pipeline(const PipelineShape& shape) {
  const SchedulePrograms programs(shape);
  std::string name = std::string(schedule_name(shape.schedule)) + "-" +
                     std::to_string(shape.stages) + "stages-" +
                     std::to_string(shape.microbatches) + "microbatches";
  Workload w{name, empty_ranks(shape.stages, name), {}};
  for (std::uint32_t d = 0; d < shape.stages; ++d) {
    append_device_program(stored_program(programs, d), 0, shape.activation_bytes, w.ranks[d]);
  }
  validate_workload(w);
  return w;
}

std::vector<std::vector<std::size_t>> fill_buckets(const std::vector<Bytes>& sizes, Bytes first_cap,
                                                   Bytes cap) {
  std::vector<std::vector<std::size_t>> buckets;
  Bytes filled = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (buckets.empty() || filled >= (buckets.size() == 1 ? first_cap : cap)) {
      buckets.emplace_back();  // the first, or the previous item closed the bucket
      filled = 0;
    }
    buckets.back().push_back(i);
    filled += sizes[i];
  }
  return buckets;
}

std::vector<std::vector<std::uint32_t>> ddp_buckets(const DdpShape& shape) {
  if (shape.layers < 1) throw InputError("ddp: layers must be at least 1");
  if (shape.layer_bytes == 0) throw InputError("ddp: the gradient size of a layer must not be 0");
  if (shape.bucket_bytes == 0 || (shape.first_bucket_bytes && *shape.first_bucket_bytes == 0)) {
    throw InputError("ddp: the bucket size must not be 0");
  }
  // Backward makes the gradients of layer L-1 first: position i is layer L-1-i.
  const std::vector<Bytes> sizes(shape.layers, shape.layer_bytes);
  std::vector<std::vector<std::uint32_t>> buckets;
  for (const std::vector<std::size_t>& positions :
       fill_buckets(sizes, shape.first_bucket_bytes.value_or(shape.bucket_bytes), shape.bucket_bytes)) {
    buckets.emplace_back();
    for (const std::size_t i : positions) {
      buckets.back().push_back(shape.layers - 1 - static_cast<std::uint32_t>(i));
    }
  }
  return buckets;
}

Workload generate_ddp(const DdpShape& shape) {
  if (shape.ranks < 2) {
    throw InputError("ddp: ranks must be at least 2, got " + std::to_string(shape.ranks));
  }
  const auto buckets = ddp_buckets(shape);
  const std::string name = "ddp-" + std::to_string(shape.ranks) + "ranks-" +
                           std::to_string(shape.layers) + "layers";
  Workload w{name, empty_ranks(shape.ranks, name), {}};
  for (RankTrace& rank : w.ranks) {
    RankWriter writer(rank);
    std::vector<TraceNodeId> last;  // the previous compute node
    for (std::uint32_t l = 0; l < shape.layers; ++l) {
      last = {writer.compute("fwd" + std::to_string(l), shape.forward_ps, last)};
    }
    std::vector<TraceNodeId> backward(shape.layers);
    for (std::uint32_t l = shape.layers; l-- > 0;) {
      backward[l] = writer.compute("bwd" + std::to_string(l), shape.backward_ps, last);
      last = {backward[l]};
    }
    std::vector<TraceNodeId> allreduces;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      const std::vector<std::uint32_t>& layers = buckets[b];
      std::vector<TraceNodeId> deps{backward[layers.back()]};
      if (!allreduces.empty()) deps.push_back(allreduces.back());  // one NCCL stream
      std::string label = "allreduce bucket " + std::to_string(b);
      label += layers.size() > 1 ? " (layers " : " (layer ";
      label += std::to_string(layers.front());
      if (layers.size() > 1) {
        label += '-';
        label += std::to_string(layers.back());
      }
      label += ')';
      allreduces.push_back(writer.collective(std::move(label), CollectiveKind::kAllReduce,
                                             multiply_sizes(shape.layer_bytes, layers.size(), "bucket size"), shape.algorithm,
                                             std::nullopt, std::move(deps)));
    }
    if (shape.optimizer_ps > 0) writer.compute("optimizer", shape.optimizer_ps, allreduces);
  }
  validate_workload(w);
  return w;
}

Workload generate_ddp_pipeline(const DdpPipelineShape& shape) {
  if (shape.replicas < 2) {
    throw InputError("ddp-pipeline: replicas must be at least 2, got " +
                     std::to_string(shape.replicas) + " (one replica is a plain pipeline)");
  }
  if (shape.gradient_bytes == 0) {
    throw InputError("ddp-pipeline: the gradient size of a stage must not be 0");
  }
  const PipelineShape& pipe = shape.pipeline;
  const SchedulePrograms programs(pipe);
  const std::uint32_t p = pipe.stages;
  const std::string name = "ddp" + std::to_string(shape.replicas) + "-" +
                           std::string(schedule_name(pipe.schedule)) + "-" + std::to_string(p) +
                           "stages-" + std::to_string(pipe.microbatches) + "microbatches";
  Workload w{name, empty_ranks(static_cast<std::size_t>(shape.replicas) * p, name), {}};
  for (std::uint32_t s = 0; s < p; ++s) {
    CommGroup group{stage_group_name(s, p), {}};
    for (std::uint32_t d = 0; d < shape.replicas; ++d) group.ranks.push_back(d * p + s);
    w.groups.push_back(std::move(group));
  }
  for (std::uint32_t d = 0; d < shape.replicas; ++d) {
    for (std::uint32_t s = 0; s < p; ++s) {
      RankTrace& rank = w.ranks[d * p + s];
      const auto computes = append_device_program(stored_program(programs, s), d * p, pipe.activation_bytes, rank);
      RankWriter writer(rank);
      std::vector<TraceNodeId> deps;
      if (!computes.empty()) deps.push_back(computes.back());
      const TraceNodeId reduce =
          writer.collective("allreduce gradients of stage " + std::to_string(s),
                            CollectiveKind::kAllReduce, shape.gradient_bytes, shape.algorithm, s,
                            std::move(deps));
      if (shape.optimizer_ps > 0) writer.compute("optimizer", shape.optimizer_ps, {reduce});
    }
  }
  validate_workload(w);
  return w;
}

}  // namespace commsim
