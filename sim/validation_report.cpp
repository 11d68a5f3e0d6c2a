#include "validation_report.h"

#include <algorithm>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "report/table.h"
#include "study/alpha_beta.h"
#include "study/read_measurements.h"
#include "study/text_table.h"
#include "topology/presets.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

std::string percent(double fraction) { return fixed(100 * fraction, 1); }

// Appends `name` unless `names` has it: names in the order each first comes.
void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

std::string sizes_text(const AlphaBetaRun& run) {
  const std::string min = std::to_string(run.min_size_bytes);
  return run.min_size_bytes == run.max_size_bytes ? min : min + ".." + std::to_string(run.max_size_bytes);
}

std::string alpha_text(const std::optional<AlphaBeta>& fit) { return fit ? fixed(fit->alpha_us, 2) : "-"; }
std::string busbw_text(const std::optional<AlphaBeta>& fit) { return fit ? fixed(fit->busbw_GBps, 2) : "-"; }

std::string summary_text(const char* regime, const ErrorSummary& s) {
  if (s.rows == 0) return std::string(regime) + " -";
  return std::string(regime) + " " + percent(s.median_abs_error) + "% / " + percent(s.p90_abs_error) + "% (" +
         counted(s.rows, "row") + ")";
}

}  // namespace

std::string protocol_text(const std::optional<Protocol>& p) { return p ? std::string(protocol_name(*p)) : "-"; }

std::string error_summary(const ValidationResult& result) {
  return summary_text("all", result.all) + "; " + summary_text("<= 64 KiB", result.small) + "; " +
         summary_text("64 KiB..64 MiB", result.mid) + "; " + summary_text(">= 64 MiB", result.large);
}

std::string operation_summary(const ValidationResult& result) {
  if (result.by_operation.size() < 2) return "";
  std::string text;
  for (const OperationErrors& op : result.by_operation) {
    text += (text.empty() ? "" : "; ") + summary_text(measured_operation_name(op.operation).c_str(), op.errors);
  }
  return text;
}

std::string table_errors_text(const TableErrors& table) {
  const std::string name = measured_operation_name(table.operation) + " at " + std::to_string(table.ranks) + " ranks";
  return summary_text(name.c_str(), table.errors);
}

bool has_several_scales(const ValidationResult& result) { return result.by_table.size() > result.by_operation.size(); }

void print_table_errors(std::ostream& out, const ValidationResult& before, const ValidationResult* after) {
  if (!has_several_scales(before)) return;
  COMMSIM_CHECK(!after || after->by_table.size() == before.by_table.size(), "tables differ after calibration");
  std::vector<Column> columns = {{"operation", "", 15}, {"ranks", "", 6}, {"rows", "", 5}};
  const std::vector<std::string> stages =
      after ? std::vector<std::string>{" before", " after"} : std::vector<std::string>{""};
  for (const std::string& stage : stages) {
    for (const std::string& name : {"median" + stage, "p90" + stage}) {
      columns.push_back({name, "%", std::max(8, static_cast<int>(name.size()) + 2)});
    }
  }
  Table table(std::move(columns));
  for (std::size_t i = 0; i < before.by_table.size(); ++i) {
    const TableErrors& t = before.by_table[i];
    std::vector<std::string> cells = {measured_operation_name(t.operation), std::to_string(t.ranks),
                                      std::to_string(t.errors.rows)};
    for (const ValidationResult* result : {&before, after}) {
      if (!result) continue;
      cells.push_back(percent(result->by_table[i].errors.median_abs_error));
      cells.push_back(percent(result->by_table[i].errors.p90_abs_error));
    }
    table.add_row(std::move(cells));
  }
  out << "# |error| by operation and scale:\n";
  table.print(out);
}

void print_validation_table(std::ostream& out, const ValidationResult& result) {
  Table table({{"operation", "", 13}, {"size", "B", 12}, {"ranks", "", 6}, {"algo", "", 10}, {"proto", "", 7},
               {"ch", "", 4}, {"measured", "us", 11}, {"predicted", "us", 11}, {"error", "%", 8}, {"busbw", "GB/s", 8},
               {"predicted", "GB/s", 10}});
  for (const ValidationRow& r : result.rows) {
    const Measurement& m = r.measured;
    const double ratio = m.out_of_place.time_us / r.predicted_us;  // busbw scales as 1 / time
    const double busbw = m.out_of_place.busbw_GBps.value();        // every validated row has one
    table.add_row({measured_operation_name(m.operation), std::to_string(m.size_bytes), std::to_string(m.ranks),
                   r.algorithm, protocol_text(r.protocol), r.channels ? std::to_string(*r.channels) : "-",
                   fixed(m.out_of_place.time_us, 2), fixed(r.predicted_us, 2), fixed(100 * r.error, 1), fixed(busbw, 2),
                   fixed(busbw * ratio, 2)});
  }
  table.print(out);
  if (result.discarded_rows > 0) {
    out << "# " << counted(result.discarded_rows, "row")
        << " of no elements left out: the library discards such a call, and nccl-tests times its own loop\n";
  }
  print_alpha_beta_runs(out, result);
  if (const std::string by_operation = operation_summary(result); !by_operation.empty()) {
    out << "# |error| median / p90 by operation: " << by_operation << "\n";
  }
  print_table_errors(out, result);
  out << "# |error| median / p90: " << error_summary(result) << "\n";
}

void print_alpha_beta_runs(std::ostream& out, const ValidationResult& result) {
  const std::vector<AlphaBetaRun> runs = alpha_beta_runs(result);
  if (runs.empty()) return;
  out << "# each run of one algorithm and protocol as a line, time = alpha + size x bus factor / busbw\n"
         "# (least squares on the relative error; '-' below two sizes or where time does not grow):\n";
  Table table({{"operation", "", 13},
               {"ranks", "", 6},
               {"algo", "", 10},
               {"proto", "", 7},
               {"sizes", "B", 24},
               {"rows", "", 5},
               {"alpha", "us", 10},
               {"predicted", "us", 10},
               {"busbw", "GB/s", 8},
               {"predicted", "GB/s", 10}});
  for (const AlphaBetaRun& run : runs) {
    table.add_row({measured_operation_name(run.operation), std::to_string(run.ranks), run.algorithm,
                   protocol_text(run.protocol), sizes_text(run), std::to_string(run.rows), alpha_text(run.measured),
                   alpha_text(run.predicted), busbw_text(run.measured), busbw_text(run.predicted)});
  }
  table.print(out);
}

Figure validation_figure(const std::string& title, const ValidationResult& result) {
  PlotPanel time{"time per call", "size (B)", "time (us)", true, true, true, {}};
  PlotPanel busbw{"bus bandwidth", "size (B)", "busbw (GB/s)", true, false, true, {}};
  std::vector<std::string> operations;  // in order of first appearance: their colours
  for (const ValidationRow& r : result.rows) {
    const std::string name = measured_operation_name(r.measured.operation);
    auto it = std::find(operations.begin(), operations.end(), name);
    const auto index = static_cast<std::size_t>(it - operations.begin());
    if (it == operations.end()) {
      operations.push_back(name);
      const int color = static_cast<int>(operations.size());
      for (PlotPanel* panel : {&time, &busbw}) {
        panel->series.push_back({name + " measured", false, color, {}});
        panel->series.push_back({name + " predicted", true, color, {}});
      }
    }
    const auto size = static_cast<double>(r.measured.size_bytes);
    const MeasuredTime& m = r.measured.out_of_place;
    time.series[2 * index].points.emplace_back(size, m.time_us);
    time.series[2 * index + 1].points.emplace_back(size, r.predicted_us);
    busbw.series[2 * index].points.emplace_back(size, m.busbw_GBps.value());
    busbw.series[2 * index + 1].points.emplace_back(size, m.busbw_GBps.value() * m.time_us / r.predicted_us);
  }
  return {title, {time, busbw}};
}

po::options_description prediction_options() {
  po::options_description o = library_options(true);
  add_option(o, "operation", "NAME[,NAME...]",
             "only the rows of these operations: " + joined(measured_operation_names()) +
                 " (nccl-tests' names too: all_reduce; default: every row)");
  add_option(o, "algorithm", "NAME", "the algorithm of every collective row (default: what NCCL would pick at each size)");
  add_option(o, "jobs", "N", "threads predicting rows at once, the output the same for any (default: every core)");
  return o;
}

std::vector<Measurement> selected_rows(const po::variables_map& vm, const std::vector<Measurement>& rows,
                                       const std::string& what) {
  const auto text = option_text(vm, "operation");
  if (!text) return rows;
  std::vector<MeasuredOperation> kept;
  for (const std::string_view name : comma_fields(*text)) kept.push_back(parse_measured_operation(name, "--operation"));
  std::vector<Measurement> selected;
  std::vector<std::string> present;  // the rows' operations, in the order each first comes
  for (const Measurement& m : rows) {
    if (std::find(kept.begin(), kept.end(), m.operation) != kept.end()) selected.push_back(m);
    add_once(present, measured_operation_name(m.operation));
  }
  if (selected.empty()) {
    throw InputError("--operation " + *text + ": none of the " + counted(rows.size(), what + " row") +
                     (present.empty() ? "" : " (" + joined(present) + ")"));
  }
  return selected;
}

ValidationOptions validation_options(const po::variables_map& vm, const Topology& topology) {
  const LibraryChoice library = library_from_options(vm, topology);
  // Rings at once as --channels says, else each topology's own (rows at several scales).
  const auto channels = vm.count("channels") ? std::optional(library.channels) : std::nullopt;
  ValidationOptions validation{library.profile, library.protocol, std::nullopt, channels, jobs_option(vm)};
  if (const auto text = option_text(vm, "algorithm"); text && *text != "nccl") {
    validation.algorithm = parse_algorithm(*text, "--algorithm");
  }
  return validation;
}

void check_algorithm_runs_rows(const ValidationOptions& options, const std::vector<Measurement>& rows) {
  if (!options.algorithm) return;
  std::vector<std::string> runs, refused;  // operation names, in the order each first comes
  const Measurement* first_refused = nullptr;
  for (const Measurement& m : rows) {
    const bool fits = m.operation.is_p2p() || implements(*options.algorithm, *m.operation.collective);
    if (!fits && !first_refused) first_refused = &m;
    add_once(fits ? runs : refused, measured_operation_name(m.operation));
  }
  if (!first_refused) return;
  const std::string algorithm(algorithm_name(*options.algorithm));
  throw InputError("--algorithm " + algorithm + " does not run " + joined(refused) + " (" + first_refused->source +
                   ")" + (runs.empty() ? "" : "; --operation " + joined(runs, ",") + " keeps the rows it runs"));
}

std::vector<MeasurementSet> read_measurement_sets(const std::vector<std::string>& paths) {
  std::vector<MeasurementSet> sets;
  for (const std::string& path : paths) sets.push_back(read_measurements(path));
  return sets;
}

std::vector<Measurement> rows_of(const std::vector<MeasurementSet>& sets) {
  std::vector<Measurement> rows;
  for (const MeasurementSet& set : sets) rows.insert(rows.end(), set.rows.begin(), set.rows.end());
  return rows;
}

namespace {

// "# left out: gather (20 rows, t.log:12): commsim has no model of that operation\n", or
// nothing when `set` left nothing out.
std::string left_out_line(const MeasurementSet& set) {
  if (set.left_out.empty()) return "";
  return "# left out: " + left_out_text(set.left_out) + ": commsim has no model of " +
         (set.left_out.size() == 1 ? "that operation" : "those operations") + "\n";
}

// What `set`'s rows leave out or hold beyond a prediction: its left-out line, then a
// "# note: ..." line per timing note.
std::string caveat_lines(const MeasurementSet& set) {
  std::string text = left_out_line(set);
  for (const std::string& note : set.timing_notes) text += "# note: " + note + "\n";
  return text;
}

}  // namespace

std::string measured_with_lines(const std::vector<MeasurementSet>& sets) {
  std::string text;
  for (const MeasurementSet& set : sets) {
    std::string what = set.device_name.empty() ? "" : set.device_name + ", ";
    what += set.nccl_version.empty() ? "NCCL release not stated" : "NCCL " + set.nccl_version;
    if (!set.nccl_tests_version.empty()) what += ", nccl-tests " + set.nccl_tests_version;
    text += "# measured: " + set.origin + ": " + what + "\n" + caveat_lines(set);
  }
  return text;
}

std::string caveat_lines(const std::vector<MeasurementSet>& sets) {
  std::string text;
  for (const MeasurementSet& set : sets) text += caveat_lines(set);
  return text;
}

SpecScale measured_scale(const std::vector<Measurement>& rows) {
  const auto common = [&](std::size_t Measurement::*field) -> std::optional<std::uint32_t> {
    if (rows.empty() || rows.front().*field == 0) return std::nullopt;
    for (const Measurement& m : rows) {
      if (m.*field != rows.front().*field) return std::nullopt;
    }
    return static_cast<std::uint32_t>(rows.front().*field);
  };
  return {common(&Measurement::nodes), common(&Measurement::gpus_per_node)};
}

std::optional<std::string> measured_system_preset(const po::variables_map& vm,
                                                  const std::vector<MeasurementSet>& sets) {
  if (vm.count("topology-file") || vm.count("topology") || sets.empty()) return std::nullopt;
  const std::string& device = sets.front().device_name;
  bool across_nodes = false;
  for (const MeasurementSet& set : sets) {
    if (set.device_name.empty() || set.device_name != device) return std::nullopt;
    for (const Measurement& m : set.rows) across_nodes = across_nodes || m.nodes > 1;
  }
  const auto preset = preset_of_device(device, across_nodes);
  return preset ? std::optional<std::string>(*preset) : std::nullopt;
}

std::string measured_system_line(const std::optional<std::string>& preset, const std::vector<MeasurementSet>& sets) {
  if (!preset) return "";
  return "# topology: " + *preset + ", the preset of the " + sets.front().device_name +
         " the measurements name (--topology-file gives another)\n";
}

std::vector<MeasuredRows> measured_groups(const po::variables_map& vm, const std::vector<Measurement>& rows,
                                          const std::optional<std::string>& measured_system) {
  using Shape = std::pair<std::size_t, std::size_t>;  // nodes, GPUs a node; 0: not said
  const auto shape_of = [](const Measurement& m) { return Shape{m.nodes, m.gpus_per_node}; };
  std::vector<Shape> shapes;
  for (const Measurement& m : rows) {
    if (shape_of(m) != Shape{0, 0} && std::find(shapes.begin(), shapes.end(), shape_of(m)) == shapes.end()) {
      shapes.push_back(shape_of(m));
    }
  }
  if (shapes.size() <= 1) {
    return {{topology_from_options(vm, default_topology_config(), measured_scale(rows), measured_system), rows}};
  }
  const auto unplaced = std::find_if(rows.begin(), rows.end(), [&](const Measurement& m) {
    return shape_of(m) == Shape{0, 0};
  });
  if (unplaced != rows.end()) {
    throw InputError(unplaced->source + ": the row does not say its nodes and GPUs a node, and the others ran at " +
                     std::to_string(shapes.size()) + " scales: give its file alone, with --nodes and --gpus-per-node");
  }
  std::vector<MeasuredRows> groups;
  for (const Shape& shape : shapes) {
    std::vector<Measurement> at;
    std::vector<std::size_t> places;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (shape_of(rows[i]) != shape) continue;
      at.push_back(rows[i]);
      places.push_back(i);
    }
    groups.push_back({topology_from_options(vm, default_topology_config(), measured_scale(at), measured_system),
                      std::move(at), std::move(places)});
  }
  return groups;
}

std::string groups_text(const std::vector<MeasuredRows>& groups) {
  std::string descriptions;
  for (const MeasuredRows& group : groups) {
    descriptions += (descriptions.empty() ? "" : "; ") + group.topology.description();
  }
  return groups.front().topology.name() + " (" + descriptions + ")";
}

}  // namespace commsim::cli
