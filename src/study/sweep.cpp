#include "study/sweep.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/input_file.h"
#include "collective/algorithms.h"
#include "collective/footprint.h"
#include "model/collective_model.h"
#include "model/one_node_ramp.h"
#include "report/table.h"
#include "study/pipeline_study.h"
#include "study/text_table.h"
#include "topology/placement.h"

namespace commsim {
namespace {

template <typename T>
void require_some(const std::vector<T>& list, const char* what) {
  if (list.empty()) throw InputError(std::string("a sweep needs at least one ") + what);
}

// The algorithm choices a name stands for on this topology and collective.
std::vector<AlgorithmChoice> choices(const std::string& name, CollectiveKind kind, const Topology& topology) {
  if (name == "nccl") return {std::nullopt};
  if (name == "all") {
    const std::vector<AlgorithmKind> all = applicable_algorithms(kind, topology);
    return std::vector<AlgorithmChoice>(all.begin(), all.end());
  }
  const AlgorithmKind algorithm = parse_algorithm(name, "--algorithm");
  if (inapplicable_reason(kind, algorithm, topology)) return {};
  return {algorithm};
}

// A sweep CSV's layout and its rows by point index (text_table.h's line and field
// splitting), each as wide as the header.
struct SweepCsv {
  SweepLayout layout = SweepLayout::kCollective;
  std::map<std::size_t, std::string> rows;
};

SweepCsv read_sweep_csv(const std::string& path) {
  const std::string text = read_input_file(path, "sweep CSV");
  const std::vector<TextLine> lines = split_lines(text);  // views into `text`
  const std::string where = line_location(path, 1);
  SweepCsv csv{sweep_layout(lines.empty() ? "" : std::string(lines.front().text), where), {}};
  const CsvHeader header(lines.front().text, where);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string at = line_location(path, lines[i].number);
    const std::vector<std::string_view> fields = header.row_fields(lines[i].text, at);
    const std::uint64_t index = parse_count(fields.front(), at + ": point", 0, std::numeric_limits<std::uint64_t>::max());
    csv.rows[index] = std::string(lines[i].text);
  }
  return csv;
}

// The pipeline of a point: one stage per NPU, the point's size as activations.
PipelineShape pipeline_shape(const PipelineAxes& axes, std::size_t npus, PipelineSchedule schedule, Bytes size) {
  const auto stages = static_cast<std::uint32_t>(npus);
  PipelineShape shape{schedule, stages, axes.microbatches,
                      schedule == PipelineSchedule::kInterleaved ? axes.virtual_stages : 1,
                      std::vector<TimePs>(stages, axes.forward_ps), std::vector<TimePs>(stages, axes.backward_ps),
                      size};
  return shape;
}

// The points of one topology, library and rank order, appended to `points`.
void collective_points(const SweepPlan& plan, const Topology& topology, SweepPoint at, std::vector<SweepPoint>& points,
                       std::map<std::string, bool>& named_applies) {
  for (const CollectiveKind kind : plan.collectives) {
    at.kind = kind;
    for (const std::string& name : plan.algorithms) {
      const std::vector<AlgorithmChoice> runs = choices(name, kind, topology);
      named_applies[name] = named_applies[name] || !runs.empty() || name == "all";
      for (const AlgorithmChoice& algorithm : runs) {
        at.algorithm = algorithm;
        for (const Bytes size : collective_sizes(kind, plan.sizes, topology.npu_count())) {
          at.index = points.size();
          at.size = size;
          points.push_back(at);
        }
      }
    }
  }
}

void pipeline_points(const PipelineAxes& axes, const std::vector<Bytes>& sizes, const Topology& topology,
                     SweepPoint at, std::vector<SweepPoint>& points) {
  for (const PipelineSchedule schedule : axes.schedules) {
    make_pipeline_programs(pipeline_shape(axes, topology.npu_count(), schedule, 0));  // InputError if it cannot run
    at.schedule = schedule;
    for (const P2PMode mode : axes.modes) {
      at.mode = mode;
      for (const Bytes size : sizes) {
        at.index = points.size();
        at.size = size;
        points.push_back(at);
      }
    }
  }
}

const char* layout_name(SweepLayout layout) { return layout == SweepLayout::kPipeline ? "pipeline" : "collective"; }

// The cells that say which point a row is: (column, value) as the row writes them.
std::vector<std::pair<std::string, std::string>> identity(const SweepPlan& plan, const SweepPoint& p,
                                                          const std::string& topology) {
  std::vector<std::pair<std::string, std::string>> cells{
      {"topology", topology},
      {"library", plan.libraries.at(p.library).name},
      {"rank_order", plan.rank_orders.at(p.rank_order)},
      {"overhead_us", fixed(us_from_ps(plan.run.overhead_ps), 3)}};
  if (plan.pipeline) {
    cells.insert(cells.end(), {{"schedule", std::string(schedule_name(p.schedule))},
                               {"p2p_mode", std::string(p2p_mode_name(p.mode))},
                               {"activation_bytes", std::to_string(p.size)}});
  } else {
    cells.insert(cells.end(), {{"collective", std::string(collective_name(p.kind))}, {"size_bytes", std::to_string(p.size)}});
    if (p.algorithm) cells.emplace_back("algorithm", std::string(algorithm_name(*p.algorithm)));
  }
  return cells;
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepPlan& plan) {
  require_some(plan.topologies, "topology");
  require_some(plan.libraries, "library");
  require_some(plan.rank_orders, "rank order");
  if (plan.pipeline) {
    require_some(plan.pipeline->schedules, "schedule");
    require_some(plan.pipeline->modes, "P2P mode");
  } else {
    require_some(plan.collectives, "collective");
    require_some(plan.algorithms, "algorithm");
  }
  require_some(plan.sizes, "message size");
  std::vector<SweepPoint> points;
  std::map<std::string, bool> named_applies;  // an explicit algorithm name: applies somewhere
  for (std::size_t t = 0; t < plan.topologies.size(); ++t) {
    const Topology topology = build_topology(plan.topologies[t]);
    if (topology.npu_count() < 2) continue;
    for (const std::string& order : plan.rank_orders) parse_rank_order(order, topology.npu_count());
    for (std::size_t l = 0; l < plan.libraries.size(); ++l) {
      for (std::size_t o = 0; o < plan.rank_orders.size(); ++o) {
        SweepPoint at;
        at.topology = t;
        at.library = l;
        at.rank_order = o;
        if (plan.pipeline) {
          pipeline_points(*plan.pipeline, plan.sizes, topology, at, points);
        } else {
          collective_points(plan, topology, at, points, named_applies);
        }
      }
    }
  }
  for (const auto& [name, applies] : named_applies) {
    if (!applies) throw InputError("--algorithm " + name + " applies to none of the sweep's topologies and collectives");
  }
  if (points.empty()) throw InputError("the sweep has no points (every topology has one NPU)");
  return points;
}

namespace {

// A message costs the simulator more the more flows are in flight with it: timed, direct
// AllReduce (every rank's p-1 sends at once) takes 10x (1,024 NPUs) and 12x (2,048) the
// time per message of ring AllReduce (one send a rank), about the cube root of the ratio
// of flows in flight (1,023 and 2,047).
double message_work(double messages, double flows_in_flight) {
  return messages * std::cbrt(std::max(1.0, flows_in_flight));
}

// A collective point's study options: the plan's, on the library's channels, pipelined as
// the library pipelines, in the point's rank order, its GPUs driven as the library's system
// drives them.
CollectiveStudyOptions point_options(const SweepPlan& plan, const SweepPoint& point, const Topology& topology) {
  CollectiveStudyOptions options;
  options.run = plan.run;
  options.library = library_for_span(plan.libraries.at(point.library), topology);
  options.gpus_per_thread = options.library.gpus_per_thread;
  options.run.channels = default_channels(topology, options.library);
  options.pipeline_as_library = !options.library.ideal();
  options.run.npu_of_rank = parse_rank_order(plan.rank_orders.at(point.rank_order), topology.npu_count());
  return options;
}

}  // namespace

double sweep_point_work(const SweepPlan& plan, const SweepPoint& point, const Topology& topology) {
  const auto links = static_cast<double>(topology.link_count());
  const auto p = static_cast<double>(topology.npu_count());
  if (plan.pipeline) {
    const PipelineShape shape = pipeline_shape(*plan.pipeline, topology.npu_count(), point.schedule, point.size);
    return links + message_work(2.0 * shape.stages * shape.microbatches * shape.virtual_stages, shape.stages);
  }
  const PlannedPoint planned =
      plan_collective_point(topology, point.kind, point.algorithm, point.size, point_options(plan, point, topology));
  if (reduces_in_switch(planned.choice.algorithm)) return links + message_work(2 * p, 2 * p);
  const CollectiveConfig& run = planned.run;
  const auto schedule =
      make_schedule(point.kind, planned.choice.algorithm, topology, run.root, run.channels, run.tree_node_gpus);
  const CollectiveFootprint footprint = estimate_footprint(*schedule, run.chunks);
  return links + message_work(footprint.messages, footprint.peak_flows);
}

CollectivePoint run_sweep_point(const SweepPlan& plan, const SweepPoint& point) {
  const Topology topology = build_topology(plan.topologies.at(point.topology));
  return run_collective_point(topology, point.kind, point.algorithm, point.size, point_options(plan, point, topology));
}

std::string run_sweep_row(const SweepPlan& plan, const SweepPoint& point, const TopologyFacts& facts) {
  const SweepRowSetting setting{plan.libraries.at(point.library).name, plan.rank_orders.at(point.rank_order),
                                plan.run.overhead_ps};
  if (!plan.pipeline) return sweep_csv_row(point.index, facts, setting, point.kind, run_sweep_point(plan, point));
  const Topology topology = build_topology(plan.topologies.at(point.topology));
  PipelineStudyOptions options;
  options.shape = pipeline_shape(*plan.pipeline, topology.npu_count(), point.schedule, point.size);
  options.virtual_stages = options.shape.virtual_stages;
  options.schedules = {point.schedule};
  options.modes = {point.mode};
  options.run.overhead_ps = plan.run.overhead_ps;
  options.run.npu_of_device = parse_rank_order(setting.rank_order, topology.npu_count());
  options.library = plan.libraries.at(point.library);
  const PipelineStudy study = study_pipeline(topology, options);
  return pipeline_csv_row(point.index, facts, setting, options.shape, study.protocol, study.runs.at(0));
}

SweepLayout sweep_plan_layout(const SweepPlan& plan) {
  return plan.pipeline ? SweepLayout::kPipeline : SweepLayout::kCollective;
}

std::vector<std::string> merge_sweep_csv(const std::vector<std::string>& paths) {
  std::map<std::size_t, std::pair<std::string, std::string>> merged;  // index -> (row, its file)
  std::optional<SweepLayout> layout;
  for (const std::string& path : paths) {
    const SweepCsv csv = read_sweep_csv(path);
    if (layout && *layout != csv.layout) throw InputError(path + ": its rows are of another kind of sweep than " + paths.front() + "'s");
    layout = csv.layout;
    for (const auto& [index, row] : csv.rows) {
      const auto [it, fresh] = merged.emplace(index, std::pair(row, path));
      if (!fresh && it->second.first != row) {
        throw InputError(path + ": point " + std::to_string(index) + " differs from the same point in " +
                         it->second.second);
      }
    }
  }
  std::vector<std::string> lines{sweep_layout_header(layout.value_or(SweepLayout::kCollective))};
  for (const auto& [index, row] : merged) lines.push_back(row.first);
  return lines;
}

std::vector<std::size_t> resumed_points(const std::string& path, const SweepPlan& plan,
                                        const std::vector<SweepPoint>& points) {
  if (!std::ifstream(path)) return {};
  const std::string text = read_input_file(path, "sweep CSV");
  const std::vector<TextLine> lines = split_lines(text);  // views into `text`
  const SweepLayout layout = sweep_layout(lines.empty() ? "" : std::string(lines.front().text), line_location(path, 1));
  if (layout != sweep_plan_layout(plan)) {
    throw InputError(path + ": holds " + layout_name(layout) + " rows, and this sweep writes " +
                     layout_name(sweep_plan_layout(plan)) + " rows");
  }
  const CsvHeader header(lines.front().text, line_location(path, 1));
  std::vector<std::string> topology_names;
  for (const TopologyConfig& c : plan.topologies) topology_names.push_back(build_topology(c).name());
  std::vector<std::size_t> held;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string at = line_location(path, lines[i].number);
    const std::vector<std::string_view> cells = header.row_fields(lines[i].text, at);
    const std::uint64_t index = parse_count(cells.front(), at + ": point", 0, points.size() - 1);
    const SweepPoint& point = points[index];
    for (const auto& [column, value] : identity(plan, point, topology_names[point.topology])) {
      if (cells[header.require(column)] != value) {
        throw InputError(at + ": point " + std::to_string(index) + " has " + column + " " +
                         std::string(cells[header.require(column)]) + ", and this sweep's has " + value +
                         " (the output of another sweep? resume with the options that began it)");
      }
    }
    held.push_back(index);
  }
  return held;
}

}  // namespace commsim
