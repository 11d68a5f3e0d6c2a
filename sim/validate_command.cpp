// commsim validate: published measurements against the simulator's prediction.

#include <optional>
#include <ostream>

#include "base/error.h"
#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "report/table.h"
#include "study/read_measurements.h"
#include "study/validation.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

std::string percent(double fraction) { return fixed(100 * fraction, 1); }

std::string summary_text(const char* regime, const ErrorSummary& s) {
  if (s.rows == 0) return std::string(regime) + " -";
  return std::string(regime) + " " + percent(s.median_abs_error) + "% / " + percent(s.p90_abs_error) + "% (" +
         std::to_string(s.rows) + " rows)";
}

std::string protocol_text(const std::optional<Protocol>& p) { return p ? std::string(protocol_name(*p)) : "-"; }

void print_table(std::ostream& out, const ValidationResult& result) {
  Table table({{"operation", "", 13}, {"size", "B", 12}, {"ranks", "", 6}, {"algo", "", 10}, {"proto", "", 7},
               {"measured", "us", 11}, {"predicted", "us", 11}, {"error", "%", 8}, {"busbw", "GB/s", 8},
               {"predicted", "GB/s", 10}});
  for (const ValidationRow& r : result.rows) {
    const Measurement& m = r.measured;
    const double ratio = m.out_of_place.time_us / r.predicted_us;  // busbw scales as 1 / time
    table.add_row({measured_operation_name(m.operation), std::to_string(m.size_bytes), std::to_string(m.ranks),
                   r.algorithm, protocol_text(r.protocol), fixed(m.out_of_place.time_us, 2), fixed(r.predicted_us, 2),
                   fixed(100 * r.error, 1), fixed(m.out_of_place.busbw_GBps, 2),
                   fixed(m.out_of_place.busbw_GBps * ratio, 2)});
  }
  table.print(out);
  out << "# |error| median / p90: " << summary_text("all", result.all) << "; "
      << summary_text("<= 64 KiB", result.small) << "; " << summary_text("64 KiB..64 MiB", result.mid) << "; "
      << summary_text(">= 64 MiB", result.large) << "\n";
}

void write_csv(std::ostream& out, const std::string& topology, const ValidationResult& result) {
  write_csv_row(out, {"source", "operation", "topology", "nranks", "size_bytes", "algorithm", "protocol",
                      "measured_time_us", "predicted_time_us", "error"});
  for (const ValidationRow& r : result.rows) {
    const Measurement& m = r.measured;
    write_csv_row(out, {m.source, measured_operation_name(m.operation), topology, std::to_string(m.ranks),
                        std::to_string(m.size_bytes), r.algorithm, protocol_text(r.protocol),
                        fixed(m.out_of_place.time_us, 6), fixed(r.predicted_us, 6), fixed(r.error, 6)});
  }
}

void write_json(std::ostream& out, const std::string& topology, const ValidationResult& result) {
  const auto summary = [](const ErrorSummary& s) {
    return "{\"rows\": " + std::to_string(s.rows) + ", \"median_abs_error\": " + fixed(s.median_abs_error, 6) +
           ", \"p90_abs_error\": " + fixed(s.p90_abs_error, 6) + "}";
  };
  out << "{\"topology\": " << json_string(topology) << ",\n \"summary\": {\"all\": " << summary(result.all)
      << ", \"small\": " << summary(result.small) << ", \"mid\": " << summary(result.mid)
      << ", \"large\": " << summary(result.large) << "},\n \"rows\": [";
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const ValidationRow& r = result.rows[i];
    const Measurement& m = r.measured;
    out << (i ? ",\n  " : "\n  ") << "{\"source\": " << json_string(m.source)
        << ", \"operation\": " << json_string(measured_operation_name(m.operation)) << ", \"nranks\": " << m.ranks
        << ", \"size_bytes\": " << m.size_bytes << ", \"algorithm\": " << json_string(r.algorithm)
        << ", \"protocol\": " << json_string(protocol_text(r.protocol))
        << ", \"measured_time_us\": " << fixed(m.out_of_place.time_us, 6)
        << ", \"predicted_time_us\": " << fixed(r.predicted_us, 6) << ", \"error\": " << fixed(r.error, 6) << "}";
  }
  out << "\n]}\n";
}

}  // namespace

int run_validate(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options("commsim validate: published measurements (nccl-tests logs or tables, P2P "
                                  "profiles) against the prediction on a topology and library profile");
  options.add_options()("help,h", "show this help");
  options.add_options()("measurements", po::value<std::vector<std::string>>()->multitoken()->value_name("FILE..."),
                        "nccl-tests output logs, measurement tables (CSV) or P2P profiling logs; every row is "
                        "predicted and compared");
  add_option(options, "algorithm", "NAME",
             "the algorithm of every collective row (default: what NCCL would pick at each size)");
  add_option(options, "csv", "FILE",
             "also write rows: source,operation,topology,nranks,size_bytes,algorithm,protocol,"
             "measured_time_us,predicted_time_us,error");
  add_option(options, "json", "FILE", "also write the rows and the error summary as JSON");
  options.add(topology_options());
  options.add(library_options(true));
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim validate --measurements FILE... [options]\n\n" << options << "\n"
        << "error = (predicted - measured) / measured; the summary gives the median and 90th percentile of |error|\n"
        << "over all rows and per size regime. Rows must have as many ranks as the topology has NPUs.\n\n"
        << "Examples:\n"
        << "  commsim validate --measurements ../shared/validation/h100_1node_8gpu_xxrjun_all_gather.csv\n"
        << "  commsim validate --measurements run.log --topology-file topologies/h100-ib-cluster.textproto "
           "--nodes 10 --gpus-per-node 1\n";
    return 0;
  }
  if (!vm.count("measurements")) throw InputError("give --measurements FILE... (nccl-tests logs or tables)");
  const Topology topology = topology_from_options(vm);
  const LibraryChoice library = library_from_options(vm, topology);
  ValidationOptions validation{library.profile, library.protocol, std::nullopt, library.channels};
  if (const auto text = option_text(vm, "algorithm"); text && *text != "nccl") {
    validation.algorithm = parse_algorithm(*text, "--algorithm");
  }
  std::optional<OutputFile> csv, json;  // opened before the work, so a bad path fails at once
  if (const auto path = option_text(vm, "csv")) csv.emplace(*path);
  if (const auto path = option_text(vm, "json")) json.emplace(*path);

  std::vector<Measurement> rows;
  for (const std::string& path : vm["measurements"].as<std::vector<std::string>>()) {
    const MeasurementSet set = read_measurements(path);
    rows.insert(rows.end(), set.rows.begin(), set.rows.end());
  }
  const ValidationResult result = validate_measurements(topology, rows, validation);
  out << "# commsim validate: " << rows.size() << " measured rows on " << topology.name() << " ("
      << topology.description() << "), library " << library.profile.name << "\n"
      << "# error = (predicted - measured) / measured: negative is optimistic\n";
  print_table(out, result);
  if (csv) {
    write_csv(csv->stream(), topology.name(), result);
    csv->commit();
  }
  if (json) {
    write_json(json->stream(), topology.name(), result);
    json->commit();
  }
  return 0;
}

}  // namespace commsim::cli
