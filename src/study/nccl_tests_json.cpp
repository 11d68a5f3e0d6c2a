#include "study/nccl_tests_json.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/error.h"
#include "base/text_proto.h"
#include "proto/nccl_tests_report.pb.h"
#include "study/measurement_fields.h"
#include "study/nccl_tests_columns.h"
#include "study/nccl_tests_log.h"
#include "study/text_table.h"

namespace commsim {
namespace {

namespace report = commsim::nccltests;

MeasuredOperation operation_of(const report::NcclTestsReport& r, const std::string& origin) {
  if (r.args().empty() && r.results().empty()) {
    throw InputError(origin + ": JSON, but no nccl-tests report: it has neither args nor results");
  }
  if (r.args().empty()) throw InputError(origin + ": the report has no args, so no program names its test");
  const auto test = nccl_tests_program_test(r.args(0));
  if (!test) {
    throw InputError(origin + ": args[0] '" + r.args(0) + "' is no nccl-tests program (NAME_perf)");
  }
  if (const auto operation = measured_operation_from_name(*test)) return *operation;
  const LeftOutRun run{std::string(*test), static_cast<std::size_t>(r.results_size()), origin};
  throw InputError(nothing_but_left_out_message(origin, {run}));
}

// One placement's time, algbw and busbw, as the text table prints them; #wrong when checked.
// `row` names the result in messages, `placement` the key ("out_of_place"), `where` both.
MeasuredTime time_of(const report::Placement& p, std::string_view placement, const std::string& row) {
  const std::string where = row + "." + std::string(placement);
  if (p.has_cpu_time()) {
    throw InputError(where + ": 'cpu_time' is " + std::string(kCpuTimeIsNotTheCollectives));
  }
  if (!p.has_time()) throw InputError(where + ": no 'time'");
  MeasuredTime t = checked_measured_time(p.time(), p.alg_bw(), p.bus_bw(), placement, row);
  if (p.has_nwrong()) {
    const double wrong = p.nwrong();
    if (!(wrong >= 0 && wrong < 0x1p64) || wrong != std::floor(wrong)) {
      throw InputError(where + ".nwrong: " + format_number(wrong) + " is not a count of elements");
    }
    t.wrong_elements = static_cast<std::uint64_t>(wrong);
  }
  return t;
}

Measurement row_of(const report::Result& result, const Measurement& run, const std::string& where) {
  Measurement row = run;
  row.size_bytes = result.size();
  row.count_elements = result.count();
  row.type = result.type();
  row.redop = result.redop();
  row.root = parse_root_field(trim_blanks(result.root()), where);
  if (!result.has_out_of_place()) throw InputError(where + ": no out_of_place result");
  row.out_of_place = time_of(result.out_of_place(), "out_of_place", where);
  if (result.has_in_place()) row.in_place = time_of(result.in_place(), "in_place", where);
  row.source = where;
  return row;
}

}  // namespace

bool looks_like_nccl_tests_json(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

MeasurementSet parse_nccl_tests_json(std::string_view json, const std::string& origin) {
  report::NcclTestsReport r;
  parse_json_proto(std::string(json), r, origin, "not an nccl-tests JSON report", UnknownJsonKeys::kIgnore);
  MeasurementSet set;
  set.origin = origin;
  if (r.nccl_version() > 0) set.nccl_version = nccl_version_from_code(static_cast<unsigned>(r.nccl_version()));
  if (!r.config().devices().empty()) set.device_name = r.config().devices(0).device_info();
  if (r.config().blocking_collectives() == "true") {
    add_timing_note(set, blocking_calls_note("blocking_collectives true"), origin);
  }
  if (r.config().graph() > 0) add_timing_note(set, graph_launches_note(r.config().graph()), origin);
  if (r.config().aggregated_iterations() > 1) {
    add_timing_note(set, aggregated_calls_note(r.config().aggregated_iterations()), origin);
  }

  Measurement run;
  run.operation = operation_of(r, origin);
  run.gpus_per_thread = static_cast<std::size_t>(std::max(r.config().ngpus(), 0));
  std::map<std::size_t, std::string> host_by_rank;
  for (const report::Device& d : r.config().devices()) {
    host_by_rank[static_cast<std::size_t>(std::max(d.rank(), 0))] = d.hostname();
  }
  set_ranks_by_host(host_by_rank, run);

  for (int i = 0; i < r.results_size(); ++i) {
    set.rows.push_back(row_of(r.results(i), run, origin + ": results[" + std::to_string(i) + "]"));
  }
  if (set.rows.empty()) throw InputError(origin + ": no results in the report");
  if (r.has_average_bus_bandwidth()) {
    set.reported_averages.push_back({run.operation, r.average_bus_bandwidth().bandwidth(), origin});
  }
  return set;
}

}  // namespace commsim
