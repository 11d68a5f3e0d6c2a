#include "study/training_step_sim.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "base/error.h"
#include "model/parallel_groups.h"
#include "workload/replay.h"
#include "workload/training_step.h"

namespace commsim {
namespace {

// The training step's workload shape, built from the analysis's operations one by one.
class StepLayout {
 public:
  StepLayout(const TrainingAnalysisOptions& o, const TrainingAnalysis& a, std::size_t ranks, std::uint32_t max_slices)
      : parallel_(o.setup.parallel), microbatches_(a.microbatches) {
    const std::uint32_t chunks = parallel_.model_chunks();
    layers_per_step_ = a.microbatches * (o.setup.model.layers / parallel_.pp);
    shape_.ranks = static_cast<std::uint32_t>(ranks);
    // k layers a slice: the largest divisor of the chunk's layers within max_slices slices.
    const std::uint32_t layers = o.setup.model.layers / chunks;
    layers_per_slice_ = 1;
    while (max_slices > 0 && layers / layers_per_slice_ > max_slices) {
      do ++layers_per_slice_; while (layers % layers_per_slice_ != 0);
    }
    shape_.slices = layers / layers_per_slice_;
    shape_.pipeline.schedule = parse_schedule(pp_schedule_name(parallel_.schedule), "schedule");
    shape_.pipeline.stages = parallel_.pp;
    shape_.pipeline.microbatches = static_cast<std::uint32_t>(a.microbatches);
    shape_.pipeline.virtual_stages = parallel_.virtual_stages;
    // Per micro-batch: the forward's share of the hardware FLOPs, the backward the rest.
    const double per_microbatch_s = a.compute_s / static_cast<double>(a.microbatches);
    const TimePs forward = ps_from_seconds(per_microbatch_s * a.forward_share);
    const TimePs backward = ps_from_seconds(per_microbatch_s) - forward;
    shape_.pipeline.forward_ps.assign(parallel_.pp, forward);
    shape_.pipeline.backward_ps.assign(parallel_.pp, backward);
    shape_.pipelines = groups_of(parallel_, ParallelDim::kPp);
  }

  /// The entry, its collectives run by `algorithm` (the analysis's choice; empty: replay's).
  void add(const TrafficEntry& e, std::optional<AlgorithmKind> algorithm) {
    algorithm_ = algorithm;
    switch (e.dimension) {
      case ParallelDim::kTp:
      case ParallelDim::kEp:
        per_layer(e, family(std::string(dimension_name(e.dimension)), e.dimension), 1, e.collective.value(),
                  e.bytes_per_op);
        return;
      case ParallelDim::kCp:
        if (e.collective) {
          per_layer(e, family("cp", e.dimension), 1, *e.collective, e.bytes_per_op);
        } else {  // cp - 1 ring steps of a chunk: the AllGather of the cp chunks
          per_layer(e, family("cp", e.dimension), parallel_.cp - 1, CollectiveKind::kAllGather,
                    e.bytes_per_op * parallel_.cp);
        }
        return;
      case ParallelDim::kPp:
        if (!e.collective) {
          shape_.pipeline.activation_bytes = e.bytes_per_op;
        } else {
          shape_.after_gradients.push_back({*e.collective, e.bytes_per_op, embedding_family(), "pp " + e.what, algorithm_});
        }
        return;
      case ParallelDim::kDp:
        data_parallel(e);
        return;
    }
  }

  TrainingStepShape& shape() { return shape_; }
  /// The dimension of the family a workload group name ("tp03") belongs to.
  std::optional<ParallelDim> dimension_of_group(const std::string& group) const {
    std::string name = group;
    while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back()))) name.pop_back();
    const auto it = family_dimension_.find(name);
    return it == family_dimension_.end() ? std::nullopt : std::optional(it->second);
  }

 private:
  std::size_t family(const std::string& name, ParallelDim dim, std::vector<std::vector<Rank>> groups = {}) {
    for (std::size_t i = 0; i < shape_.families.size(); ++i) {
      if (shape_.families[i].name == name) return i;
    }
    if (groups.empty()) groups = groups_of(parallel_, dim);
    shape_.families.push_back({name, std::move(groups)});
    family_dimension_[name] = dim;
    return shape_.families.size() - 1;
  }

  std::size_t data_parallel_family() {
    return family("dp", ParallelDim::kDp, groups_of(parallel_, {ParallelDim::kDp, ParallelDim::kCp}));
  }

  // The ranks that reduce the experts' gradients: those of a dp x cp group with the same
  // expert coordinate, (index / cp) mod ep in the group (ep is the innermost part of dp).
  std::size_t expert_family() {
    std::vector<std::vector<Rank>> groups;
    for (const std::vector<Rank>& g : groups_of(parallel_, {ParallelDim::kDp, ParallelDim::kCp})) {
      std::vector<std::vector<Rank>> by_expert(parallel_.ep);
      for (std::size_t i = 0; i < g.size(); ++i) by_expert[(i / parallel_.cp) % parallel_.ep].push_back(g[i]);
      groups.insert(groups.end(), by_expert.begin(), by_expert.end());
    }
    return family("edp", ParallelDim::kDp, std::move(groups));
  }

  std::size_t embedding_family() {
    std::vector<std::vector<Rank>> ends;
    for (const std::vector<Rank>& pipeline : shape_.pipelines) ends.push_back({pipeline.front(), pipeline.back()});
    return family("embedding", ParallelDim::kPp, std::move(ends));
  }

  // An entry of so many operations per layer and micro-batch, `per_collective` of them one
  // collective of `kind` and `bytes`, after each layer's slice.
  void per_layer(const TrafficEntry& e, std::size_t fam, std::uint32_t per_collective, CollectiveKind kind,
                 Bytes bytes) {
    COMMSIM_CHECK(e.ops_per_step % (layers_per_step_ * per_collective) == 0,
                  e.what + ": " + std::to_string(e.ops_per_step) + " operations are not a whole number per layer");
    const std::uint64_t count = e.ops_per_step / (layers_per_step_ * per_collective);
    bytes *= layers_per_slice_;
    std::vector<StepCollective>& slice =
        e.phase == TrafficPhase::kForward ? shape_.forward_collectives : shape_.backward_collectives;
    for (std::uint64_t i = 0; i < count; ++i) {
      slice.push_back({kind, bytes, fam, std::string(dimension_name(e.dimension)) + " " + e.what,
                       kind == e.collective ? algorithm_ : std::nullopt});
    }
  }

  void data_parallel(const TrafficEntry& e) {
    const bool dense = e.group_size == parallel_.dp * parallel_.cp;
    const StepCollective whole{e.collective.value(), e.bytes_per_op, dense ? data_parallel_family() : expert_family(),
                               "dp " + e.what, algorithm_};
    if (e.phase == TrafficPhase::kOptimizer) {
      shape_.after_optimizer.push_back(whole);
    } else if (e.collective == CollectiveKind::kAllGather) {  // ZeRO-3: each layer's weights
      per_layer(e, family("dp-weights", ParallelDim::kDp, groups_of(parallel_, {ParallelDim::kDp, ParallelDim::kCp})),
                1, CollectiveKind::kAllGather, e.bytes_per_op);
    } else if (!dense) {
      shape_.after_gradients.push_back(whole);
    } else {
      // Reduced once, in buckets: a reduction after each micro-batch (ZeRO-2) or of each
      // layer (ZeRO-3) counts the gradients of one micro-batch, bytes x count / m.
      shape_.gradients.kind = *e.collective;
      shape_.gradients.algorithm = algorithm_;
      shape_.gradients.family = whole.family;
      shape_.gradients.bytes = e.ops_per_step > 1 ? e.bytes_per_op * e.ops_per_step / microbatches_ : e.bytes_per_op;
    }
  }

  const ParallelConfig& parallel_;
  std::uint64_t microbatches_ = 1;
  std::uint64_t layers_per_step_ = 1;  // layers one rank runs forward per step: m L / pp
  std::uint32_t layers_per_slice_ = 1;
  TrainingStepShape shape_;
  std::map<std::string, ParallelDim> family_dimension_;
  std::optional<AlgorithmKind> algorithm_;  // of the entry being laid out
};

std::vector<double> compute_scale(const std::vector<Straggler>& stragglers, std::size_t ranks) {
  std::vector<double> scale(ranks, 1.0);
  for (const Straggler& s : stragglers) {
    if (s.rank >= ranks) {
      throw InputError("--straggler " + std::to_string(s.rank) + ": the job has ranks 0 to " + std::to_string(ranks - 1));
    }
    if (!(s.factor > 0) || !std::isfinite(s.factor)) throw InputError("--straggler: a factor must be positive");
    scale[s.rank] *= s.factor;
  }
  return scale;
}

// The time rank `r` had some communication of each dimension under way and no compute: a
// sweep over the start and end of its nodes.
std::map<ParallelDim, TimePs> exposed_by_dimension(const Workload& w, const ReplayResult& replay, Rank r,
                                                   const StepLayout& layout) {
  struct Edge {
    TimePs at;
    int compute;  // +1 / -1
    std::optional<ParallelDim> dim;
    int comm;
  };
  std::vector<Edge> edges;
  for (const ReplayedNode& n : replay.timeline) {
    if (n.rank != r) continue;
    const WorkloadNode& node = w.ranks[r].nodes[n.index];
    if (node.kind == NodeKind::kCompute) {
      edges.push_back({n.start_ps, 1, std::nullopt, 0});
      edges.push_back({n.end_ps, -1, std::nullopt, 0});
      continue;
    }
    const std::optional<ParallelDim> dim = node.kind == NodeKind::kCollective && node.group
                                               ? layout.dimension_of_group(w.groups[*node.group].name)
                                               : std::optional(ParallelDim::kPp);
    edges.push_back({n.start_ps, 0, dim, 1});
    edges.push_back({n.end_ps, 0, dim, -1});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.at < b.at; });
  std::map<ParallelDim, TimePs> exposed;
  std::map<ParallelDim, int> active;
  int computing = 0;
  TimePs last = 0;
  for (const Edge& e : edges) {
    if (computing == 0) {
      for (const auto& [dim, count] : active) {
        if (count > 0) exposed[dim] += e.at - last;
      }
    }
    computing += e.compute;
    if (e.dim) active[*e.dim] += e.comm;
    last = e.at;
  }
  return exposed;
}

}  // namespace

SimulatedStep simulate_training_step(const Topology& topology, const TrainingAnalysisOptions& options,
                                     const TrainingAnalysis& analysis, const StepSimulationOptions& simulation) {
  StepLayout layout(options, analysis, topology.npu_count(), simulation.max_slices);
  for (const DimensionCost& d : analysis.dimensions) {
    for (const CostedTraffic& c : d.operations) layout.add(c.entry, c.algorithm);
  }
  TrainingStepShape& shape = layout.shape();
  shape.gradients.bucket_bytes = simulation.bucket_bytes;
  shape.compute_scale = compute_scale(simulation.stragglers, topology.npu_count());
  std::size_t laid_out = 0;
  const Workload workload = generate_training_step(shape, [&] {
    if (simulation.on_layout_progress) simulation.on_layout_progress(++laid_out, shape.ranks);
  });
  ReplayOptions replay_options;
  replay_options.library = options.library;
  replay_options.overhead_ps = options.overhead_ps;
  replay_options.record_timeline = true;
  replay_options.record_link_stats = simulation.record_link_stats;
  std::size_t total = 0;
  for (const RankTrace& rank : workload.ranks) total += rank.nodes.size();
  const double total_work = simulation.on_progress ? replay_work(workload) : 0;
  if (simulation.on_progress) {
    replay_options.on_node_done = [&](double work) { simulation.on_progress(work, total, total_work); };
  }
  const ReplayResult replay = replay_workload(workload, topology, replay_options);

  SimulatedStep step;
  step.step_ps = replay.total_ps;
  for (Rank r = 0; r < replay.ranks.size(); ++r) {
    if (replay.ranks[r].finish_ps > replay.ranks[step.last_rank].finish_ps) step.last_rank = r;
  }
  step.compute_ps = replay.ranks[step.last_rank].compute_ps;
  step.exposed_ps = replay.ranks[step.last_rank].exposed_comm_ps;
  const auto exposed = exposed_by_dimension(workload, replay, step.last_rank, layout);
  for (const DimensionCost& d : analysis.dimensions) {
    const auto it = exposed.find(d.dimension);
    step.exposed_by_dimension.emplace_back(d.dimension, it == exposed.end() ? 0 : it->second);
  }
  step.mfu = analysis.flops.model_flops /
             (seconds_from_ps(step.step_ps) * static_cast<double>(analysis.gpus) * options.peak_tflops * 1e12);
  for (const RankTrace& rank : workload.ranks) step.nodes += rank.nodes.size();
  step.link_stats = replay.link_stats;
  return step;
}

}  // namespace commsim
