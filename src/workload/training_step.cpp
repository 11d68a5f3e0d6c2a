#include "workload/training_step.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.h"
#include "workload/generators.h"
#include "workload/rank_writer.h"
#include "workload/training_step_layout.h"

namespace commsim {
namespace {

// `a` followed by the ids of `b` it does not hold: dependencies have no repeats.
std::vector<TraceNodeId> joined(std::vector<TraceNodeId> a, const std::vector<TraceNodeId>& b) {
  for (const TraceNodeId id : b) {
    if (std::find(a.begin(), a.end(), id) == a.end()) a.push_back(id);
  }
  return a;
}

// Piece i of `total` cut into `parts`: total / parts each, the remainder one more on the last
// pieces, so that the pieces sum to the total exactly.
template <typename T>
T piece_of(T total, std::uint64_t i, std::uint64_t parts) {
  const T remainder = total % static_cast<T>(parts);
  return total / static_cast<T>(parts) + (i >= parts - static_cast<std::uint64_t>(remainder) ? 1 : 0);
}

// Writes one rank's step: its stage's program with the compute actions sliced, then the
// gradient reduction and what follows it (training_step.h).
class RankStep {
 public:
  RankStep(const TrainingStepShape& shape, const StepLayout& layout, Rank rank, RankTrace& trace)
      : s_(shape), layout_(layout), rank_(rank), writer_(trace),
        scale_(shape.compute_scale.empty() ? 1.0 : shape.compute_scale[rank]) {}

  void write(const DeviceProgram& program) {
    backwards_left_.assign(s_.pipeline.virtual_stages, 0);
    for (const Action& a : program) {
      if (a.kind == Action::Kind::kBackward) ++backwards_left_.at(a.chunk);
    }
    const std::vector<Rank>& pipeline = s_.pipelines[layout_.pipeline_of[rank_]];
    std::vector<TraceNodeId> tail = append_device_program(
        program, [&pipeline](std::uint32_t stage) { return pipeline.at(stage); }, s_.pipeline.activation_bytes,
        writer_, [this](const Action& a, std::vector<TraceNodeId> deps, RankWriter&) {
          return expand(a, std::move(deps));
        });
    if (const std::optional<TraceNodeId> last_bucket = reduce_gradients()) tail = joined(tail, {*last_bucket});
    tail = in_order(s_.after_gradients, "", tail);
    if (s_.optimizer_ps > 0) tail = {writer_.compute("optimizer", scaled(s_.optimizer_ps), tail)};
    in_order(s_.after_optimizer, "", tail);
  }

 private:
  // One compute action: its slices, each followed by its collectives.
  std::vector<TraceNodeId> expand(const Action& a, std::vector<TraceNodeId> deps) {
    const bool forward = a.kind == Action::Kind::kForward;
    // The chunk's last backward makes its gradients (the earlier ones accumulate into them).
    const bool makes_gradients = !forward && --backwards_left_.at(a.chunk) == 0;
    const std::string action = compute_action_name(a);
    for (std::uint32_t i = 0; i < s_.slices; ++i) {
      const std::string name = s_.slices == 1 ? action : action + " slice " + std::to_string(i);
      const TraceNodeId slice = writer_.compute(name, scaled(piece_of(a.duration_ps, i, s_.slices)), std::move(deps));
      if (makes_gradients) gradient_slices_.push_back(slice);
      deps = in_order(forward ? s_.forward_collectives : s_.backward_collectives, name + ": ", {slice});
    }
    return deps;
  }

  // The collectives of `list` the rank has a group for, in order: each depends on `after`
  // and the one before it. Returns what comes next depends on: the last one, or `after`.
  std::vector<TraceNodeId> in_order(const std::vector<StepCollective>& list, const std::string& prefix,
                                    const std::vector<TraceNodeId>& after) {
    std::optional<TraceNodeId> previous;
    for (const StepCollective& c : list) {
      const std::optional<std::size_t> group = layout_.group_of[c.family][rank_];
      if (!group) continue;
      const std::string what =
          c.what.empty() ? s_.families[c.family].name + " " + std::string(collective_name(c.kind)) : c.what;
      std::vector<TraceNodeId> deps = after;
      if (previous) deps.push_back(*previous);  // one stream
      previous = writer_.collective(prefix + what, c.kind, c.bytes, c.algorithm, group, std::move(deps));
    }
    return previous ? std::vector<TraceNodeId>{*previous} : after;
  }

  // The buckets' collectives, one after another, each once its last slice is done; returns
  // the last one, if any.
  std::optional<TraceNodeId> reduce_gradients() {
    const GradientReduction& g = s_.gradients;
    if (g.bytes == 0) return std::nullopt;
    const std::optional<std::size_t> group = layout_.group_of[g.family][rank_];
    if (!group) return std::nullopt;
    const std::size_t units = gradient_slices_.size();  // v chunks x slices
    COMMSIM_CHECK(units == std::size_t{s_.pipeline.virtual_stages} * s_.slices,
                  "rank " + std::to_string(rank_) + " has " + std::to_string(units) + " gradient slices");
    std::vector<Bytes> sizes(units);
    for (std::size_t j = 0; j < units; ++j) sizes[j] = piece_of(g.bytes, j, units);
    std::optional<TraceNodeId> previous;
    const auto buckets = fill_buckets(sizes, g.bucket_bytes, g.bucket_bytes);
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      Bytes bytes = 0;
      for (const std::size_t j : buckets[b]) bytes += sizes[j];
      std::vector<TraceNodeId> deps{gradient_slices_[buckets[b].back()]};
      if (previous) deps.push_back(*previous);  // one stream
      previous = writer_.collective(std::string(collective_name(g.kind)) + " gradients, bucket " + std::to_string(b),
                                    g.kind, bytes, g.algorithm, group, std::move(deps));
    }
    return previous;
  }

  TimePs scaled(TimePs ps) const {
    if (scale_ == 1.0) return ps;
    constexpr double kClockEnd = 9223372036854775808.0;  // 2^63 ps, past the largest TimePs
    const double result = std::round(static_cast<double>(ps) * scale_);
    if (!(result < kClockEnd)) {
      throw InputError("training step: rank " + std::to_string(rank_) + ": compute of " + std::to_string(ps) +
                       " ps scaled by its compute_scale goes beyond the clock's range");
    }
    return static_cast<TimePs>(result);
  }

  const TrainingStepShape& s_;
  const StepLayout& layout_;
  Rank rank_;
  RankWriter writer_;
  double scale_;
  std::vector<std::uint32_t> backwards_left_;  // per chunk: backward actions not yet written
  std::vector<TraceNodeId> gradient_slices_;    // the slices that make gradients, in order
};

}  // namespace

Workload generate_training_step(const TrainingStepShape& shape, const std::function<void()>& on_rank_written) {
  const SchedulePrograms programs(shape.pipeline);
  StepLayout layout = make_step_layout(shape);
  const PipelineShape& p = shape.pipeline;
  const std::string name = "training-step-" + std::to_string(shape.ranks) + "ranks-" +
                           std::string(schedule_name(p.schedule)) + "-" + std::to_string(p.stages) + "stages-" +
                           std::to_string(p.microbatches) + "microbatches";
  Workload w{name, std::vector<RankTrace>(shape.ranks, RankTrace{name, {}}), std::move(layout.groups)};
  for (Rank r = 0; r < shape.ranks; ++r) {
    RankStep(shape, layout, r, w.ranks[r]).write(stored_program(programs, layout.stage_of[r]));
    if (on_rank_written) on_rank_written();
  }
  validate_workload(w);
  return w;
}

}  // namespace commsim
