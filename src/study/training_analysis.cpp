#include "study/training_analysis.h"

#include <algorithm>

#include "base/error.h"
#include "collective/algorithms.h"
#include "model/collective_model.h"
#include "model/one_node_ramp.h"
#include "model/parallel_groups.h"
#include "study/p2p_study.h"
#include "topology/group_topology.h"

namespace commsim {
namespace {

std::string rank_list(const std::vector<Rank>& ranks) {
  std::string text;
  for (const Rank r : ranks) text.append(text.empty() ? "" : ",").append(std::to_string(r));
  return "{" + text + "}";
}

// Tensor parallelism needs its group inside a node: no member reached over the network.
void check_tp_inside_nodes(const Topology& topology, const ParallelConfig& parallel) {
  if (parallel.tp < 2) return;
  for (const std::vector<Rank>& group : groups_of(parallel, ParallelDim::kTp)) {
    for (const Rank member : group) {
      if (topology.route_class(topology.route(group.front(), member)) != LinkClass::kNet) continue;
      throw InputError("--tp " + std::to_string(parallel.tp) + ": the tensor-parallel group " + rank_list(group) +
                       " crosses the network between NPUs " + std::to_string(group.front()) + " and " +
                       std::to_string(member) + " of topology '" + topology.name() +
                       "': a node holds fewer GPUs, and tensor parallelism needs its group inside one");
    }
  }
}

// Rank 0's group of a dimension; the data-parallel one holds the context-parallel ranks too
// (they reduce the dense gradients together).
std::vector<Rank> dimension_group(const ParallelConfig& parallel, ParallelDim dim) {
  return dim == ParallelDim::kDp ? group_of(parallel, {ParallelDim::kDp, ParallelDim::kCp}, 0) : group_of(parallel, dim, 0);
}

const LibraryProfile& dimension_library(const TrainingAnalysisOptions& o, ParallelDim dim) {
  return dim == ParallelDim::kDp && o.dp_library ? *o.dp_library : o.library;
}

// The ranks an operation runs among: its dimension's group. An operation of fewer members
// takes some of them: the tied embedding's gradients the first and last pipeline stage; the
// experts' gradients (dp / ep x cp) every k-th member, an approximation of their group.
std::vector<Rank> operation_group(const ParallelConfig& parallel, const TrafficEntry& e) {
  const std::vector<Rank> all = dimension_group(parallel, e.dimension);
  if (all.size() == e.group_size) return all;
  if (e.dimension == ParallelDim::kPp && e.group_size == 2) return {all.front(), all.back()};
  COMMSIM_CHECK(e.group_size > 0 && all.size() % e.group_size == 0,
                "a group of " + std::to_string(e.group_size) + " inside one of " + std::to_string(all.size()));
  std::vector<Rank> some;
  for (std::size_t i = 0; i < all.size(); i += all.size() / e.group_size) some.push_back(all[i]);
  return some;
}

// The sends of one round: between consecutive pipeline stages (the last back to the first
// when the schedule interleaves), or from each context-parallel rank to the next in a ring.
std::vector<Message> round_of_sends(const ParallelConfig& parallel, const TrafficEntry& e,
                                    const std::vector<Rank>& group) {
  std::vector<Message> sends;
  const bool ring = e.dimension == ParallelDim::kCp || parallel.virtual_stages > 1;
  for (std::size_t i = 0; i + 1 < group.size() || (ring && i < group.size()); ++i) {
    sends.push_back({group[i], group[(i + 1) % group.size()], e.bytes_per_op});
  }
  return sends;
}

// A library's choice is NCCL's (model/collective_model.h nccl_choice: NVLS where the group's
// GPUs' switch reduces and serves more than 2 of them, as a TP group on an H100 node's
// NVSwitch), as a replayed trace takes it; under ideal, the algorithm of least closed-form
// time. On the library's channels and tree layout of the topology the group spans, pipelined
// as the library pipelines, as the replay of the simulated step runs them.
CostedTraffic cost_collective(const Topology& spanned, const TrafficEntry& e, const LibraryProfile& system_library,
                              TimePs overhead_ps) {
  const LibraryProfile library = library_for_span(system_library, spanned);  // a group inside a node: its factors
  CostedTraffic best{e, std::nullopt, std::nullopt, std::nullopt, 0, 0};
  ModelOptions model;
  model.overhead_s = seconds_from_ps(overhead_ps);
  model.channels = default_channels(spanned, library);
  model.tree_node_gpus = default_tree_node_gpus(spanned, library);
  // The closed form of `algorithm` under `protocol` at `bytes`, pipelined as the library pipelines.
  const auto time_s = [&](AlgorithmKind algorithm, std::optional<Protocol> protocol, Bytes bytes) {
    ModelOptions with_costs = model;
    with_costs.library = library.costs(*e.collective, algorithm, protocol, bytes, spanned.npu_count());
    with_costs.rate_caps_by_class =
        collective_rate_caps(spanned, *e.collective, algorithm, bytes, protocol, library, with_costs);
    if (!library.ideal()) with_costs.chunks = least_time_chunks(spanned, *e.collective, algorithm, bytes, with_costs);
    return collective_cost(spanned, *e.collective, algorithm, bytes, with_costs).time_s(0);
  };
  const auto cost = [&](AlgorithmKind algorithm) {
    const std::optional<Protocol> protocol =
        fastest_protocol(spanned, *e.collective, algorithm, e.bytes_per_op, model, library);
    return CostedTraffic{e, algorithm, protocol, std::nullopt, time_s(algorithm, protocol, e.bytes_per_op), 0};
  };
  if (!library.ideal()) {
    best = cost(nccl_choice(spanned, *e.collective, e.bytes_per_op, model, library).algorithm);
  } else {
    for (const AlgorithmKind algorithm : nccl_algorithms(*e.collective)) {
      if (reduces_in_switch(algorithm) || inapplicable_reason(*e.collective, algorithm, spanned)) continue;
      const CostedTraffic c = cost(algorithm);
      if (!best.algorithm || c.time_per_op_s < best.time_per_op_s) best = c;
    }
  }
  COMMSIM_CHECK(best.algorithm.has_value(), "no algorithm for " + std::string(collective_name(*e.collective)));
  // Inside one NVLink node the call takes at least the one-node ramp's time (it never
  // changes the choice), as the replay of the simulated step runs it.
  if (const auto scale = one_node_ramp_scale(spanned, *e.collective, e.bytes_per_op, library)) {
    const double top_s = time_s(*best.algorithm, best.protocol, library.one_node_ramp.back().bytes);
    best.time_per_op_s = std::max(best.time_per_op_s, top_s * *scale);
  }
  if (!library.ideal()) {
    best.channels = collective_call_channels(spanned, *e.collective, *best.algorithm, e.bytes_per_op, best.protocol,
                                             library, model.channels);
  }
  return best;
}

CostedTraffic cost_operation(const Topology& topology, const ParallelConfig& parallel, const TrafficEntry& e,
                             const LibraryProfile& library, TimePs overhead_ps) {
  CostedTraffic c{e, std::nullopt, std::nullopt, std::nullopt, 0, 0};
  const std::vector<Rank> group = operation_group(parallel, e);
  if (e.collective) {
    c = cost_collective(group_topology(topology, group), e, library, overhead_ps);
  } else {
    const std::vector<Message> sends = round_of_sends(parallel, e, group);
    c.protocol = p2p_protocol(topology, sends, overhead_ps, library);
    const Message* slowest = nullptr;
    for (const Message& m : sends) {
      const double time_s = p2p_message_model_s(topology, m, overhead_ps, library.costs(c.protocol), library);
      if (!slowest || time_s > c.time_per_op_s) slowest = &m;
      c.time_per_op_s = std::max(c.time_per_op_s, time_s);
    }
    if (slowest) c.channels = p2p_send_channels(topology, slowest->src, slowest->dst, slowest->bytes, library);
  }
  c.time_per_step_s = c.time_per_op_s * static_cast<double>(e.ops_per_step);
  return c;
}

LinkClass slowest_class(const Topology& topology, const std::vector<Rank>& group) {
  LinkClass slowest = LinkClass::kNvlink;
  for (const Rank member : group) {
    const LinkClass c = topology.route_class(topology.route(group.front(), member));
    if (member != group.front() && static_cast<int>(c) > static_cast<int>(slowest)) slowest = c;
  }
  return slowest;
}

std::vector<DimensionCost> dimension_costs(const Topology& topology, const TrainingAnalysisOptions& o) {
  const ParallelConfig& parallel = o.setup.parallel;
  std::vector<DimensionCost> dimensions;
  for (const TrafficEntry& e : training_traffic(o.setup)) {
    const LibraryProfile& library = dimension_library(o, e.dimension);
    if (dimensions.empty() || dimensions.back().dimension != e.dimension) {
      const std::vector<Rank> group = dimension_group(parallel, e.dimension);
      dimensions.push_back({e.dimension, group, slowest_class(topology, group), library.name, {}, 0, 0});
    }
    DimensionCost& d = dimensions.back();
    d.operations.push_back(cost_operation(topology, parallel, e, library, o.overhead_ps));
    d.bytes_per_step += e.bytes_per_step();
    d.time_per_step_s += d.operations.back().time_per_step_s;
  }
  return dimensions;
}

}  // namespace

double bubble_fraction(const ParallelConfig& parallel, std::uint64_t microbatches) {
  const double v = parallel.schedule == PpSchedule::kInterleaved ? parallel.virtual_stages : 1;
  return static_cast<double>(parallel.pp - 1) / (v * static_cast<double>(microbatches));
}

TrainingAnalysis analyze_training(const Topology& topology, const TrainingAnalysisOptions& o) {
  check_training_setup(o.setup, topology.npu_count());
  check_tp_inside_nodes(topology, o.setup.parallel);
  TrainingAnalysis a;
  a.gpus = topology.npu_count();
  a.microbatches = micro_batch_count(o.setup.parallel, o.setup.batch);
  a.memory = training_memory(o.setup);
  a.fits = a.memory.fits(o.gpu_memory_bytes);
  a.flops = step_compute(o.setup);
  if (o.layer_forward_s) {
    const double f = *o.layer_forward_s, b = o.layer_backward_s.value_or(2 * f);
    const double recomputed = o.setup.recompute == Recompute::kFull ? f : 0;
    const double layers = static_cast<double>(layers_per_stage(o.setup.parallel, o.setup.model));
    a.compute_s = layers * static_cast<double>(a.microbatches) * (f + b + recomputed);
    a.forward_share = f / (f + b + recomputed);
  } else {
    a.compute_s = compute_time_s(a.flops.gpu_flops, o.tflops);
    a.forward_share = a.flops.model_flops / (3 * a.flops.hardware_flops);
  }
  a.dimensions = dimension_costs(topology, o);
  double on_compute_stream_s = 0;  // tp, cp, ep: each micro-batch's work waits for them
  for (const DimensionCost& d : a.dimensions) {
    a.communication_s += d.time_per_step_s;
    if (d.dimension != ParallelDim::kDp && d.dimension != ParallelDim::kPp) on_compute_stream_s += d.time_per_step_s;
  }
  a.bubble_s = (a.compute_s + on_compute_stream_s) * bubble_fraction(o.setup.parallel, a.microbatches);
  a.step_bound_s = a.compute_s + a.bubble_s + a.communication_s;
  a.mfu_at_bound = a.flops.model_flops / (a.step_bound_s * static_cast<double>(a.gpus) * o.peak_tflops * 1e12);
  return a;
}

}  // namespace commsim
