// commsim calibrate: fit a library profile to measurements and write the calibrated spec.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "base/output_file.h"
#include "command_line.h"
#include "commands.h"
#include "report/table.h"
#include "run_progress.h"
#include "study/calibration.h"
#include "study/read_measurements.h"
#include "topology/spec_message.h"
#include "topology_options.h"
#include "validation_report.h"

namespace commsim::cli {
namespace {

// A term's sd as the table shows it: "-" where no row moves with it (the prior alone holds it).
std::string sd_text(const FittedTerm& t) { return t.shown && std::isfinite(t.sd) ? format_number(t.sd) : "-"; }

void print_terms(std::ostream& out, const std::vector<FittedTerm>& terms) {
  Table table(
      {{"term", "", 28}, {"unit", "", 5}, {"start", "", 11}, {"fitted", "", 11}, {"sd", "", 11}, {"change", "%", 8}});
  for (const FittedTerm& t : terms) {
    const std::string change = t.start != 0 ? fixed(100 * (t.fitted - t.start) / t.start, 1) : "-";
    table.add_row({t.name, t.unit.empty() ? "-" : t.unit, format_number(t.start), format_number(t.fitted), sd_text(t),
                   change + (t.at_bound ? " (bound)" : "")});
  }
  table.print(out);
}

// "launch and simple call latency (-1.00), ...": the pairs the rows tell apart poorly.
std::string trading_text(const std::vector<TradingTerms>& pairs) {
  std::vector<std::string> items;
  for (const TradingTerms& p : pairs)
    items.push_back(p.first + " and " + p.second + " (" + fixed(p.correlation, 2) + ")");
  return joined(items);
}

// "bandwidth factors beside allreduce and broadcast, which have none", when the rows held
// several collectives; else empty.
std::string reference_text(const CalibrationResult& result) {
  std::vector<std::string> names;
  for (const CollectiveKind kind : result.reference_collectives) names.emplace_back(collective_name(kind));
  if (names.empty()) return "";
  if (names.size() == 1) return "bandwidth factors beside " + names.front() + ", which has none";
  const std::string last = names.back();
  names.pop_back();
  return "bandwidth factors beside " + joined(names) + " and " + last + ", which have none";
}

// print_table_errors as comment lines of a spec file: the rows' leading space becomes '#'
// (the operation column is two wider than any name).
std::string table_errors_comment(const ValidationResult& result) {
  std::ostringstream table;
  print_table_errors(table, result);
  std::string text = table.str();
  for (std::size_t at = 0; at < text.size();) {
    if (text[at] == ' ') text[at] = '#';
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return text;
}

// The base spec with the fitted library and bandwidths, and comments that say how it was made.
// A cluster spec keeps the shape it was fitted at (GPUs per node, nodes: the topology's
// levels); fitted at several, the base's own. `operations`: the --operation the rows were kept by.
std::string calibrated_spec(const std::string& base_path, const std::vector<MeasuredRows>& groups,
                            const CalibrationResult& result, const std::vector<std::string>& fitted,
                            const std::vector<std::string>& held_out, const std::optional<std::string>& operations) {
  const std::string kept = operations ? "; --operation " + *operations : "";
  spec::TopologySpec spec = read_spec_message(base_path);
  const Topology& topology = groups.front().topology;
  if (groups.size() == 1 && topology.shape().kind == TopologyKind::kHierarchical && spec.has_builder()) {
    spec.mutable_builder()->set_gpus_per_node(topology.shape().levels.at(0));
    spec.mutable_builder()->set_nodes(topology.shape().levels.at(1));
  }
  scale_link_bandwidths(spec, result.fit.bandwidth_scale);
  if (result.fit.both_ways_efficiency) set_both_ways_efficiency(spec, *result.fit.both_ways_efficiency);
  *spec.mutable_library() = library_message(result.fit.library);
  spec.set_description(spec.description() + " (calibrated)");
  std::ostringstream text;
  text << "# Calibrated from " << base_path << " by commsim calibrate: robust (soft-L1) least squares on the\n"
       << "# relative error of " << result.before.rows.size() << " measured rows (" << joined(fitted) << kept
       << "), each term held to its start with prior weight " << result.prior_weight << ".\n"
       << "# |error| median / p90 before: " << error_summary(result.before) << "\n"
       << "#                       after: " << error_summary(result.after) << "\n";
  if (const std::string by_operation = operation_summary(result.after); !by_operation.empty()) {
    text << "#     after, by operation: " << by_operation << "\n";
  }
  text << table_errors_comment(result.after);
  if (!held_out.empty()) {
    text << "# Held out (" << joined(held_out) << kept << "), before: " << error_summary(result.holdout_before) << "\n"
         << "#                       after: " << error_summary(result.holdout_after) << "\n";
  }
  text << "# Fitted terms (start -> fitted):\n";
  for (const FittedTerm& t : result.terms) {
    text << "#   " << t.name << " " << format_number(t.start) << " -> " << format_number(t.fitted) << " (sd "
         << sd_text(t) << ")" << (t.unit.empty() ? "" : " ") << t.unit << (t.at_bound ? " (at a bound)" : "") << "\n";
  }
  if (!result.trading.empty()) text << "#   told apart poorly: " << trading_text(result.trading) << "\n";
  if (const std::string references = reference_text(result); !references.empty()) text << "#   " << references << "\n";
  return text.str() + spec_text(spec);
}

// The held-out rows by scale, as measured_groups; rows that name no scale run where the
// fitted rows ran, when those ran at one.
std::vector<MeasuredRows> held_out_groups(const po::variables_map& vm, const std::vector<Measurement>& holdout,
                                          const std::vector<MeasuredRows>& fitted,
                                          const std::optional<std::string>& measured_system) {
  if (holdout.empty()) return {};
  const bool unscaled = std::none_of(holdout.begin(), holdout.end(),
                                     [](const Measurement& m) { return m.nodes != 0 || m.gpus_per_node != 0; });
  if (unscaled && fitted.size() == 1) return {{fitted.front().topology, holdout}};
  return measured_groups(vm, holdout, measured_system);
}

std::vector<std::string> files_option(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// CalibrationOptions' default prior weight as --help shows it: "0.001".
std::string default_prior_weight() {
  std::ostringstream text;
  text << CalibrationOptions{}.prior_weight;
  return text.str();
}

}  // namespace

int run_calibrate(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options("commsim calibrate: fit a library profile's terms to measurements (least "
                                  "squares on the relative error) and write the calibrated topology spec");
  options.add_options()("help,h", "show this help");
  options.add_options()("measurements", po::value<std::vector<std::string>>()->multitoken()->value_name("FILE..."),
                        (std::string(kMeasurementFiles) + " to fit").c_str());
  options.add_options()("holdout", po::value<std::vector<std::string>>()->multitoken()->value_name("FILE..."),
                        "measurements kept out of the fit: their error is reported before and after");
  add_option(options, "output", "FILE",
             "write the base spec with the fitted library block and bandwidths (protobuf text format)");
  add_option(options, "max-iterations", "N", "Levenberg-Marquardt iterations at most (default 60)");
  add_option(options, "prior-weight", "W",
             "how strongly each term is held to the base library's value: a change of 1 us of a latency (1 of "
             "a ratio) weighs as a relative error of W on one row (default " +
                 default_prior_weight() + "; 0: the rows alone)");
  add_quiet_option(options);
  options.add(topology_options());
  options.add(prediction_options());
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim calibrate --measurements FILE... [--topology-file BASE] [--output FITTED.textproto]\n\n"
        << options << "\n"
        << "Fits, by class of link present, the bandwidth the library sustains (a scale on the spec's), and per\n"
        << "protocol its call and step latencies; with a reducing switch its in-switch terms, with P2P channels\n"
        << "their rates; with several collectives measured, a bandwidth factor for each beside the first (and,\n"
        << "with half-duplex links, the first that moves the other way). Each term stays within physical bounds;\n"
        << "the fit starts from the base spec's library. A cluster spec is built at the nodes and GPUs a node the\n"
        << "files name, each file's rows at their own: logs of several scales are fitted together. Without\n"
        << "--topology-file the base is the preset of the GPUs the logs name, as validate chooses it.\n\n"
        << "Example:\n"
        << "  commsim calibrate --measurements ../shared/validation/h100_1node_8gpu_xxrjun_all_reduce.csv \\\n"
        << "      --holdout ../shared/validation/h100_1node_8gpu_xxrjun_all_gather.csv \\\n"
        << "      --topology-file topologies/h100-nvswitch-node.textproto --output h100-calibrated.textproto\n";
    return 0;
  }
  if (!vm.count("measurements")) throw InputError("give --measurements FILE... (nccl-tests logs or tables) to fit");
  std::optional<OutputFile> output = output_option(vm, "output");
  CalibrationOptions calibration;
  if (const auto text = option_text(vm, "max-iterations")) {
    calibration.max_iterations = parse_count(*text, "--max-iterations", 1, 10000);
  }
  if (const auto text = option_text(vm, "prior-weight")) {
    calibration.prior_weight = parse_real(*text, "--prior-weight");
    if (calibration.prior_weight < 0 || calibration.prior_weight > 1) {
      throw InputError("--prior-weight: '" + *text + "' is out of range [0, 1]");
    }
  }
  const std::vector<std::string> fitted = files_option(vm, "measurements");
  const std::vector<std::string> held_out = files_option(vm, "holdout");
  const std::vector<MeasurementSet> fitted_sets = read_measurement_sets(fitted);
  const std::vector<MeasurementSet> held_out_sets = read_measurement_sets(held_out);
  // The base: the spec given, else the preset of the GPUs the fitted files name.
  const std::optional<std::string> preset = measured_system_preset(vm, fitted_sets);
  const std::optional<std::string> base = preset ? preset : option_text(vm, "topology-file");
  if (!base) {
    throw InputError(
        "give the base system as --topology-file FILE: calibrate fits its library and writes a spec (the files "
        "name no GPU of a shipped preset)");
  }
  const std::vector<Measurement> rows = selected_rows(vm, rows_of(fitted_sets), "measured");
  const std::vector<Measurement> holdout =
      held_out.empty() ? std::vector<Measurement>{} : selected_rows(vm, rows_of(held_out_sets), "held-out");
  const std::vector<MeasuredRows> groups = measured_groups(vm, rows, preset);
  const std::vector<MeasuredRows> holdout_groups = held_out_groups(vm, holdout, groups, preset);
  calibration.validation = validation_options(vm, groups.front().topology);
  check_algorithm_runs_rows(calibration.validation, rows);
  check_algorithm_runs_rows(calibration.validation, holdout);

  // Progress on stderr once the fit has taken 2 s, by iteration: most fits end well before
  // the last one allowed, so the time left it shows is at most.
  Progress progress = run_progress(vm, calibration.max_iterations, "iterations (at most)");
  calibration.on_iteration = [&] { progress.advance(); };
  const CalibrationResult result = calibrate(groups, holdout_groups, calibration);
  progress.finish();
  out << "# commsim calibrate: " << counted(rows.size(), "measured row") << " on " << groups_text(groups)
      << ", library " << calibration.validation.library.name << "\n"
      << measured_system_line(preset, fitted_sets) << caveat_lines(fitted_sets) << caveat_lines(held_out_sets);
  print_terms(out, result.terms);
  if (const std::string references = reference_text(result); !references.empty()) out << "# " << references << "\n";
  out << "# sd: one standard deviation of each fitted value, s^2 (J'J)^-1 with the prior, s the rows' rms error "
      << "(one the rows barely show has about s x its scale / " << result.prior_weight
      << "; -: no row moves with it at the fit)\n";
  if (!result.trading.empty()) {
    out << "# told apart poorly, correlation of the fitted values (-1: the rows show their sum or product): "
        << trading_text(result.trading) << "\n";
  }
  out << "# fit: " << result.iterations << " iterations, " << result.evaluations
      << " predictions of every row, prior weight " << result.prior_weight << "\n"
      << "# |error| median / p90 before: " << error_summary(result.before) << "\n"
      << "# |error| median / p90 after:  " << error_summary(result.after) << "\n";
  if (const std::string by_operation = operation_summary(result.before); !by_operation.empty()) {
    out << "# by operation, before: " << by_operation << "\n"
        << "# by operation, after:  " << operation_summary(result.after) << "\n";
  }
  print_table_errors(out, result.before, &result.after);
  if (!holdout.empty()) {
    out << "# held out, before: " << error_summary(result.holdout_before) << "\n"
        << "# held out, after:  " << error_summary(result.holdout_after) << "\n";
  }
  if (output) {
    output->stream() << calibrated_spec(*base, groups, result, fitted, held_out, option_text(vm, "operation"));
    output->commit();
    out << "# wrote " << *option_text(vm, "output") << "\n";
  }
  return 0;
}

}  // namespace commsim::cli
