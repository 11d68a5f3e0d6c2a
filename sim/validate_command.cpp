// commsim validate: published measurements against the simulator's prediction.

#include <optional>
#include <ostream>
#include <set>

#include "base/counted.h"
#include "base/error.h"
#include "base/output_file.h"
#include "command_line.h"
#include "commands.h"
#include "report/table.h"
#include "study/alpha_beta.h"
#include "study/read_measurements.h"
#include "study/text_table.h"
#include "topology_options.h"
#include "validation_report.h"

namespace commsim::cli {
namespace {

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns{"source",   "operation",        "topology",          "nranks",
                                                "size_bytes", "algorithm",      "protocol",          "channels",
                                                "measured_time_us", "predicted_time_us", "error"};
  return columns;
}

void write_csv(std::ostream& out, const std::string& topology, const ValidationResult& result) {
  write_csv_row(out, csv_columns());
  for (const ValidationRow& r : result.rows) {
    const Measurement& m = r.measured;
    write_csv_row(out, {m.source, measured_operation_name(m.operation), topology, std::to_string(m.ranks),
                        std::to_string(m.size_bytes), r.algorithm, protocol_text(r.protocol),
                        r.channels ? std::to_string(*r.channels) : "-", fixed(m.out_of_place.time_us, 6),
                        fixed(r.predicted_us, 6), fixed(r.error, 6)});
  }
}

// {"operation": ..., "alpha_us": {"measured": 571.16, "predicted": 168.2}, "busbw_GBps": {...}}, null where no line.
std::string alpha_beta_json(const AlphaBetaRun& run) {
  const auto pair = [&](auto field) {
    const auto value = [&](const std::optional<AlphaBeta>& fit) { return fit ? fixed(field(*fit), 6) : "null"; };
    return "{\"measured\": " + value(run.measured) + ", \"predicted\": " + value(run.predicted) + "}";
  };
  return "{\"operation\": " + json_string(measured_operation_name(run.operation)) +
         ", \"nranks\": " + std::to_string(run.ranks) + ", \"algorithm\": " + json_string(run.algorithm) +
         ", \"protocol\": " + json_string(protocol_text(run.protocol)) +
         ", \"min_size_bytes\": " + std::to_string(run.min_size_bytes) +
         ", \"max_size_bytes\": " + std::to_string(run.max_size_bytes) + ", \"rows\": " + std::to_string(run.rows) +
         ", \"alpha_us\": " + pair([](const AlphaBeta& f) { return f.alpha_us; }) +
         ", \"busbw_GBps\": " + pair([](const AlphaBeta& f) { return f.busbw_GBps; }) + "}";
}

void write_json(std::ostream& out, const std::string& topology, const ValidationResult& result) {
  const auto summary = [](const ErrorSummary& s) {
    return "{\"rows\": " + std::to_string(s.rows) + ", \"median_abs_error\": " + fixed(s.median_abs_error, 6) +
           ", \"p90_abs_error\": " + fixed(s.p90_abs_error, 6) + "}";
  };
  out << "{\"topology\": " << json_string(topology) << ",\n \"summary\": {\"all\": " << summary(result.all)
      << ", \"small\": " << summary(result.small) << ", \"mid\": " << summary(result.mid)
      << ", \"large\": " << summary(result.large) << "},\n \"by_operation\": {";
  for (std::size_t i = 0; i < result.by_operation.size(); ++i) {
    const OperationErrors& op = result.by_operation[i];
    out << (i ? ", " : "") << json_string(measured_operation_name(op.operation)) << ": " << summary(op.errors);
  }
  out << "},\n \"by_table\": [";
  for (std::size_t i = 0; i < result.by_table.size(); ++i) {
    const TableErrors& table = result.by_table[i];
    out << (i ? ",\n  " : "\n  ") << "{\"operation\": " << json_string(measured_operation_name(table.operation))
        << ", \"nranks\": " << table.ranks << ", \"errors\": " << summary(table.errors) << "}";
  }
  out << "],\n \"lines\": [";
  const std::vector<AlphaBetaRun> runs = alpha_beta_runs(result);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << (i ? ",\n  " : "\n  ") << alpha_beta_json(runs[i]);
  }
  out << "],\n \"rows\": [";
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const ValidationRow& r = result.rows[i];
    const Measurement& m = r.measured;
    out << (i ? ",\n  " : "\n  ") << "{\"source\": " << json_string(m.source)
        << ", \"operation\": " << json_string(measured_operation_name(m.operation)) << ", \"nranks\": " << m.ranks
        << ", \"size_bytes\": " << m.size_bytes << ", \"algorithm\": " << json_string(r.algorithm)
        << ", \"protocol\": " << json_string(protocol_text(r.protocol))
        << ", \"channels\": " << (r.channels ? std::to_string(*r.channels) : "null")
        << ", \"measured_time_us\": " << fixed(m.out_of_place.time_us, 6)
        << ", \"predicted_time_us\": " << fixed(r.predicted_us, 6) << ", \"error\": " << fixed(r.error, 6) << "}";
  }
  out << "\n]}\n";
}

// What the rows' host threads cost, as their files say they ran (nccl-tests -g G; a log's
// nGpus), else as the library's system runs it: one line per count, in increasing order.
std::string thread_lines(const LibraryProfile& library, const std::vector<Measurement>& rows) {
  std::set<std::size_t> counts;
  for (const Measurement& m : rows) counts.insert(library.gpus_per_thread_or(m.gpus_per_thread));
  std::string text;
  for (const std::size_t gpus : counts) text += gpus_per_thread_line(library, gpus);
  return text;
}

// --max-error MEDIAN,P90 in percent ("10,25" or "10%,25%"): what each table may miss by.
ErrorLimits parse_max_error(const std::string& text) {
  const std::vector<std::string_view> fields = comma_fields(text);
  if (fields.size() != 2) {
    throw InputError("--max-error: expected MEDIAN,P90 in percent, e.g. 10,25, got '" + text + "'");
  }
  const auto fraction = [&](std::string_view field, const std::string& what) {
    std::string part(field);
    if (!part.empty() && part.back() == '%') part.pop_back();
    const double percent = parse_real(part, "--max-error " + what);
    if (percent < 0) throw InputError("--max-error: the " + what + " must not be negative, got '" + text + "'");
    return percent == 0 ? 0.0 : percent / 100;  // "-0" too, which would print as -0%
  };
  return {fraction(fields[0], "median"), fraction(fields[1], "p90")};
}

// "10%,25%"
std::string limits_text(const ErrorLimits& limits) {
  return format_number(100 * limits.median_abs_error) + "%," + format_number(100 * limits.p90_abs_error) + "%";
}

// The tables held to --max-error: a line saying which are over; the status 1 if any is.
int check_max_error(const ValidationResult& result, const ErrorLimits& limits, std::ostream& out, std::ostream& err) {
  const std::vector<TableErrors> over = tables_over(result, limits);
  const std::string tables = counted(result.by_table.size(), "table");
  out << "# --max-error " << limits_text(limits) << " (median, p90 of |error| of each operation at each scale): ";
  if (result.by_table.empty()) {
    out << "no table to hold (every row left out)\n";
    return 0;
  }
  if (over.empty()) {
    out << "every table within (" << tables << ")\n";
    return 0;
  }
  out << over.size() << " of " << tables << " over: ";
  for (std::size_t i = 0; i < over.size(); ++i) {
    out << (i ? "; " : "") << table_errors_text(over[i]);
  }
  out << "\n";
  err << "commsim: validate: " << over.size() << " of " << tables << " over --max-error " << limits_text(limits)
      << "\n";
  return 1;
}

}  // namespace

int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description options("commsim validate: published measurements (nccl-tests logs or tables, P2P "
                                  "profiles) against the prediction on a topology and library profile");
  options.add_options()("help,h", "show this help");
  options.add_options()("measurements", po::value<std::vector<std::string>>()->multitoken()->value_name("FILE..."),
                        (std::string(kMeasurementFiles) + "; every row is predicted and compared").c_str());
  std::string columns;
  for (const std::string& column : csv_columns()) columns += (columns.empty() ? "" : ",") + column;
  add_option(options, "csv", "FILE", "also write rows: " + columns);
  add_option(options, "json", "FILE", "also write the rows, their lines (alpha, busbw) and the error summary as JSON");
  add_option(options, "plot", "FILE.svg",
             "also draw measured and predicted time and bus bandwidth against size, log axes (needs gnuplot; "
             "FILE.png draws a PNG)");
  add_option(options, "max-error", "MEDIAN,P90",
             "hold each table (an operation at one scale) to a median and 90th percentile of |error| in percent, "
             "e.g. 10,25: exit status 1 if one is over");
  options.add(topology_options());
  options.add(prediction_options());
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim validate --measurements FILE... [options]\n\n"
        << options << "\n"
        << "error = (predicted - measured) / measured; the summary gives the median and 90th percentile of |error|\n"
        << "over all rows and per size regime. Before it, each run of rows one algorithm and protocol predicted\n"
        << "is drawn as a line, time = alpha + size x bus factor / busbw, measured beside predicted: a latency's\n"
        << "miss or a bandwidth's. Rows must have as many ranks as the topology has NPUs: a cluster\n"
        << "spec is built at the nodes and GPUs a node its files name, each file's rows at their own. Without a\n"
        << "topology option, logs and JSON reports of H100, H200, A100 (SXM) or B200 GPUs run on their system's\n"
        << "preset (the node's, or the cluster's across nodes); other files on the default H100 node.\n\n"
        << "Examples:\n"
        << "  commsim validate --measurements ../shared/validation/h100_1node_8gpu_xxrjun_all_gather.csv\n"
        << "  commsim validate --measurements run.log --topology-file topologies/h100-ib-cluster.textproto "
           "--nodes 10 --gpus-per-node 1\n"
        << "  commsim validate --measurements run.log --topology-file topologies/h100-ib-cluster.textproto "
           "--max-error 10,25\n"
        << "  commsim validate --measurements run.log --topology-file topologies/h100-ib-cluster.textproto "
           "--operation allreduce --algorithm ring\n\n"
        << "Exit status: 0; 1 when a table is over --max-error; 2 on bad input.\n";
    return 0;
  }
  if (!vm.count("measurements")) throw InputError("give --measurements FILE... (nccl-tests logs or tables)");
  std::optional<ErrorLimits> max_error;
  if (const auto text = option_text(vm, "max-error")) max_error = parse_max_error(*text);
  std::optional<OutputFile> csv = output_option(vm, "csv"), json = output_option(vm, "json");
  ImageFormat plot_format = ImageFormat::kSvg;
  if (const auto path = option_text(vm, "plot")) {
    plot_format = image_format(*path, "--plot");
    require_gnuplot();
  }
  std::optional<OutputFile> plot = output_option(vm, "plot");
  const std::vector<MeasurementSet> sets = read_measurement_sets(vm["measurements"].as<std::vector<std::string>>());
  const std::vector<Measurement> rows = selected_rows(vm, rows_of(sets), "measured");
  const std::optional<std::string> preset = measured_system_preset(vm, sets);
  const std::vector<MeasuredRows> groups = measured_groups(vm, rows, preset);
  const Topology& topology = groups.front().topology;
  const ValidationOptions validation = validation_options(vm, topology);
  check_algorithm_runs_rows(validation, rows);
  const ValidationResult result = validate_measurements(groups, validation);
  out << "# commsim validate: " << counted(rows.size(), "measured row") << " on " << groups_text(groups) << ", library "
      << validation.library.name << "\n"
      << measured_with_lines(sets) << measured_system_line(preset, sets) << thread_lines(validation.library, rows)
      << one_node_ramp_line(topology, validation.library)
      << "# error = (predicted - measured) / measured: negative is optimistic\n";
  print_validation_table(out, result);
  if (csv) {
    write_csv(csv->stream(), topology.name(), result);
    csv->commit();
  }
  if (json) {
    write_json(json->stream(), topology.name(), result);
    json->commit();
  }
  if (plot) {
    plot->stream() << render_image(validation_figure(topology.name() + ", library " + validation.library.name, result),
                                   plot_format);
    plot->commit();
  }
  return max_error ? check_max_error(result, *max_error, out, err) : 0;
}

}  // namespace commsim::cli
