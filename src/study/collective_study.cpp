#include "study/collective_study.h"

#include <algorithm>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/footprint.h"

namespace commsim {
namespace {

// The simulator's options with the library's tree layout (default_tree_node_gpus).
CollectiveConfig library_run(const Topology& topology, const CollectiveStudyOptions& o) {
  CollectiveConfig run = o.run;
  run.tree_node_gpus = default_tree_node_gpus(topology, o.library);
  return run;
}

// NCCL's pick (algorithm and protocol) or the algorithm asked for with the protocol asked
// for, else the fastest by NCCL's estimate (fastest_protocol).
NcclChoice choose(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm, Bytes size,
                  const CollectiveStudyOptions& o) {
  const ModelOptions model = model_options(library_run(topology, o));
  if (!algorithm) return nccl_choice(topology, kind, size, model, o.library, o.protocol);
  return {*algorithm, o.protocol ? o.protocol : fastest_protocol(topology, kind, *algorithm, size, model, o.library)};
}

// Refused before any simulation: a chunk needs a byte, and a run beyond the footprint
// limits says so with its estimate (collective/footprint.h).
void check_runs(const Topology& topology, CollectiveKind kind, const std::vector<AlgorithmChoice>& algorithms,
                const std::vector<Bytes>& sizes, const CollectiveConfig& run) {
  if (run.chunks > 1 && !sizes.empty() && run.chunks > sizes.front()) {
    throw InputError("--chunks " + std::to_string(run.chunks) + " is more than the " +
                     std::to_string(sizes.front()) + " bytes of the smallest size: every chunk needs a byte");
  }
  for (const AlgorithmChoice& choice : algorithms) {
    for (const AlgorithmKind algorithm : choice ? std::vector<AlgorithmKind>{*choice} : nccl_algorithms(kind)) {
      if (!choice && inapplicable_reason(kind, algorithm, topology)) continue;  // not a candidate here
      check_collective_footprint(topology, kind, algorithm, run);
    }
  }
}

// A timeline of more than kMaxTimelineMessages is refused before any simulation, with the
// estimate of collective/footprint.h for the algorithm each block runs at the largest size.
void check_timeline(const Topology& topology, CollectiveKind kind, const std::vector<AlgorithmChoice>& algorithms,
                    Bytes largest, const CollectiveStudyOptions& o) {
  for (const AlgorithmChoice& choice : algorithms) {
    const NcclChoice chosen = choose(topology, kind, choice, largest, o);
    const AlgorithmKind algorithm = chosen.algorithm;
    if (reduces_in_switch(algorithm)) continue;  // two or three flows per NPU
    const CollectiveConfig run = library_run(topology, o);
    const auto schedule = make_schedule(kind, algorithm, topology, run.root, run.channels, run.tree_node_gpus);
    const ModelOptions model =
        model_options(run, o.library.costs(kind, algorithm, chosen.protocol, largest, topology.npu_count()));
    const std::size_t chunks =
        o.pipeline_as_library ? library_chunks(topology, kind, algorithm, largest, model, run) : run.chunks;
    const double messages = estimate_footprint(*schedule, chunks).messages;
    if (messages > kMaxTimelineMessages) {
      throw InputError("timeline: " + std::string(algorithm_name(algorithm)) + " " +
                       std::string(collective_name(kind)) + " of " + std::to_string(largest) + " B on " +
                       std::to_string(topology.npu_count()) + " ranks sends about " +
                       std::to_string(static_cast<std::uint64_t>(messages)) + " messages; a timeline holds at most " +
                       std::to_string(static_cast<std::uint64_t>(kMaxTimelineMessages)) + " (fewer ranks or chunks)");
    }
  }
}

// The block of one choice. With run.record_link_stats the run at the last size records its
// links (CollectiveStudy::link_stats_point); with record_timeline the first run at `largest`
// records its messages. The two are independent: one run may record both.
CollectiveBlock run_block(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm,
                          const std::vector<Bytes>& sizes, Bytes largest, const CollectiveStudyOptions& options) {
  CollectiveBlock block{algorithm, {}, {}, {}, 0};
  bool recorded = false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    CollectiveStudyOptions point_options = options;
    point_options.run.record_link_stats = options.run.record_link_stats && i + 1 == sizes.size();
    if (options.record_timeline && sizes[i] == largest && !recorded) {
      block.timeline_point = i;
      recorded = true;
      point_options.run.on_message = [&block](const CollectiveMessage& m) { block.timeline.push_back(m); };
    }
    block.points.push_back(run_collective_point(topology, kind, algorithm, sizes[i], point_options));
    if (options.on_point) options.on_point();
  }
  if (algorithm && !block.points.empty()) block.formula = block.points.front().cost.formula;
  return block;
}

std::vector<CollectivePoint> fastest_at_each_size(const std::vector<CollectiveBlock>& blocks) {
  std::vector<CollectivePoint> fastest;
  for (std::size_t i = 0; i < blocks.front().points.size(); ++i) {
    const CollectivePoint* best = nullptr;
    for (const CollectiveBlock& block : blocks) {
      const CollectivePoint& point = block.points[i];
      if (!best || point.sim_ps < best->sim_ps) best = &point;
    }
    fastest.push_back(*best);
  }
  return fastest;
}

}  // namespace

std::size_t library_chunks(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                           const ModelOptions& model, const CollectiveConfig& run) {
  const std::size_t chunks = least_time_chunks(topology, kind, algorithm, size, model);
  if (chunks == 1) return 1;
  const auto schedule = make_schedule(kind, algorithm, topology, run.root, run.channels, run.tree_node_gpus);
  return chunks_within_limits(*schedule, chunks);
}

ModelOptions model_options(const CollectiveConfig& run, const ProtocolCosts& costs) {
  ModelOptions model;
  model.library = costs;
  model.overhead_s = seconds_from_ps(run.overhead_ps);
  model.channels = run.channels;
  model.tree_node_gpus = run.tree_node_gpus;
  model.gamma_s_per_byte = run.gamma_s_per_byte;
  model.chunks = run.chunks;
  model.root = run.root;
  model.rate_caps_by_class = run.rate_caps_by_class;
  return model;
}

PlannedPoint plan_collective_point(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm,
                                   Bytes size, const CollectiveStudyOptions& options) {
  PlannedPoint planned{choose(topology, kind, algorithm, size, options), library_run(topology, options)};
  const NcclChoice& choice = planned.choice;
  CollectiveConfig& run = planned.run;
  run.library = options.library.costs(kind, choice.algorithm, choice.protocol, size, topology.npu_count());
  run.rate_caps_by_class = collective_rate_caps(topology, kind, choice.algorithm, size, choice.protocol,
                                                options.library, model_options(run));
  if (options.pipeline_as_library) {
    run.chunks = library_chunks(topology, kind, choice.algorithm, size, model_options(run, run.library), run);
  }
  return planned;
}

TimePs one_node_ramp_floor_ps(const Topology& topology, CollectiveKind kind, const NcclChoice& choice, Bytes size,
                              const CollectiveStudyOptions& options) {
  const std::optional<double> scale = one_node_ramp_scale(topology, kind, size, options.library);
  if (!scale) return 0;
  // The same algorithm and protocol at the ramp's last size, where it runs at its asymptote.
  const Bytes top = options.library.one_node_ramp.back().bytes;
  CollectiveStudyOptions at_top = options;
  at_top.protocol = choice.protocol;
  const PlannedPoint planned = plan_collective_point(topology, kind, choice.algorithm, top, at_top);
  const ModelOptions model = model_options(planned.run, planned.run.library);
  const double top_s = collective_cost(topology, kind, choice.algorithm, top, model).time_s(model.gamma_s_per_byte);
  return ps_from_seconds(top_s * *scale);
}

CollectivePoint run_collective_point(const Topology& topology, CollectiveKind kind, AlgorithmChoice algorithm,
                                     Bytes size, const CollectiveStudyOptions& options) {
  const PlannedPoint planned = plan_collective_point(topology, kind, algorithm, size, options);
  const NcclChoice& choice = planned.choice;
  const CollectiveConfig& run = planned.run;
  CollectivePoint point;
  point.algorithm = choice.algorithm;
  point.protocol = choice.protocol;
  point.costs = run.library;
  point.size = size;
  point.chunks = run.chunks;
  if (options.library.discards(kind, size, topology.npu_count())) return point;  // no time, no cost
  const CollectiveResult result = simulate_collective(topology, kind, choice.algorithm, size, run);
  point.channels =
      collective_call_channels(topology, kind, choice.algorithm, size, choice.protocol, options.library, run.channels);
  // A call takes at least what the thread issuing it allows and what the one-node ramp
  // gives its size, sim and model alike.
  point.ramp_floor_ps = one_node_ramp_floor_ps(topology, kind, choice, size, options);
  const TimePs issue_ps =
      std::max(options.library.thread_issue_ps(options.gpus_per_thread, point.channels), point.ramp_floor_ps);
  point.sim_ps = std::max(result.time_ps, issue_ps);
  point.verify_error = result.verify_error;
  point.link_stats = result.link_stats;
  if (point.link_stats) extend_run(*point.link_stats, point.sim_ps);  // utilisation over the call's time
  const ModelOptions model = model_options(run, point.costs);
  point.cost = collective_cost(topology, kind, choice.algorithm, size, model);
  point.model_s = std::max(point.cost.time_s(model.gamma_s_per_byte), seconds_from_ps(issue_ps));
  point.bound_s = collective_lower_bound_s(topology, kind, size, model);
  point.algbw_GBps = rate_GBps(size, point.sim_ps);
  point.busbw_GBps = point.algbw_GBps * busbw_factor(kind, topology.npu_count());
  if (point.model_s > 0) point.sim_over_model = seconds_from_ps(point.sim_ps) / point.model_s;
  return point;
}

const CollectivePoint* CollectiveBlock::first_verify_failure() const {
  const auto failed =
      std::find_if(points.begin(), points.end(), [](const CollectivePoint& p) { return !p.verify_error.empty(); });
  return failed == points.end() ? nullptr : &*failed;
}

const CollectivePoint* CollectiveStudy::link_stats_point() const {
  const CollectivePoint* point = nullptr;
  if (!fastest.empty()) {
    point = &fastest.back();
  } else if (!blocks.empty() && !blocks.front().points.empty()) {
    point = &blocks.front().points.back();
  }
  return point && point->link_stats ? point : nullptr;
}

bool CollectiveStudy::all_verified() const {
  return std::all_of(blocks.begin(), blocks.end(),
                     [](const CollectiveBlock& b) { return b.first_verify_failure() == nullptr; });
}

std::vector<Bytes> collective_sizes(CollectiveKind kind, const std::vector<Bytes>& requested, std::size_t ranks) {
  if (kind == CollectiveKind::kBarrier) return {0};
  std::vector<Bytes> sizes;
  for (const Bytes r : requested) {
    const Bytes size = nccl_size(kind, r, ranks);
    if (sizes.empty() || sizes.back() != size) sizes.push_back(size);
  }
  return sizes;
}

CollectiveStudy study_collective(const Topology& topology, CollectiveKind kind,
                                 const std::vector<AlgorithmChoice>& algorithms, const std::vector<Bytes>& sizes,
                                 const CollectiveStudyOptions& options) {
  check_runs(topology, kind, algorithms, sizes, library_run(topology, options));
  const Bytes largest = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  if (options.record_timeline) check_timeline(topology, kind, algorithms, largest, options);
  CollectiveStudy study;
  for (const AlgorithmChoice& algorithm : algorithms) {
    study.blocks.push_back(run_block(topology, kind, algorithm, sizes, largest, options));
  }
  if (study.blocks.size() > 1) study.fastest = fastest_at_each_size(study.blocks);
  return study;
}

}  // namespace commsim
