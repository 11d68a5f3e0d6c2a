#include "study/read_measurements.h"

#include <algorithm>

#include "base/error.h"
#include "base/input_file.h"
#include "study/measurement_csv.h"
#include "study/nccl_tests_json.h"
#include "study/nccl_tests_log.h"
#include "study/p2p_profile_log.h"
#include "study/text_table.h"

namespace commsim {
namespace {

// A '#' line only nccl-tests prints.
bool is_nccl_tests_comment(std::string_view line) {
  const auto words = whitespace_fields(trim_blanks(line).substr(1));
  return starts_with_words(words, {"nccl-tests", "version"}) ||
         starts_with_words(words, {"Collective", "test", "starting:"}) ||
         starts_with_words(words, {"Using", "devices"}) ||
         starts_with_words(words, {"size", "count"}) ||
         starts_with_words(words, {"Avg", "bus", "bandwidth"});
}

}  // namespace

std::string_view measurement_format_name(MeasurementFormat format) {
  switch (format) {
    case MeasurementFormat::kNcclTestsLog: return "nccl-tests log";
    case MeasurementFormat::kNcclTestsJson:
      return "nccl-tests JSON report";
    case MeasurementFormat::kMeasurementCsv: return "measurement CSV";
    case MeasurementFormat::kP2pProfileLog: return "P2P profile log";
  }
  return "unknown";
}

MeasurementFormat detect_measurement_format(std::string_view text, const std::string& origin) {
  if (looks_like_nccl_tests_json(text)) return MeasurementFormat::kNcclTestsJson;
  const std::vector<TextLine> lines = split_lines(text);
  for (const TextLine& line : lines) {
    const std::string_view body = without_launcher_tag(line.text);
    if (is_comment(body) && is_nccl_tests_comment(body)) {
      return MeasurementFormat::kNcclTestsLog;
    }
  }
  const auto first = std::find_if(lines.begin(), lines.end(), [](const TextLine& line) {
    return !is_blank(line.text) && !is_comment(line.text);
  });
  if (first != lines.end() && first->text.find(',') != std::string_view::npos) {
    const std::string where = line_location(origin, first->number);
    const CsvHeader header(first->text, where);
    if (header.has("config_id") && header.has("duration_ns")) {
      return MeasurementFormat::kP2pProfileLog;
    }
    // Any other CSV goes to the table reader, which names what it lacks or what it is.
    return MeasurementFormat::kMeasurementCsv;
  }
  throw InputError(origin +
                   ": not a file of measurements (expected an nccl-tests log or JSON report, a "
                   "measurement CSV with collective,...,size_bytes,...,oop_time_us "
                   "columns, or a P2P profile log with config_id,...,duration_ns)");
}

MeasurementSet parse_measurements(std::string_view text, const std::string& origin) {
  switch (detect_measurement_format(text, origin)) {
    case MeasurementFormat::kNcclTestsLog: return parse_nccl_tests_log(text, origin);
    case MeasurementFormat::kNcclTestsJson:
      return parse_nccl_tests_json(text, origin);
    case MeasurementFormat::kMeasurementCsv: return parse_measurement_csv(text, origin);
    case MeasurementFormat::kP2pProfileLog:
      return p2p_profile_measurements(parse_p2p_profile_log(text, origin), origin);
  }
  throw InternalError("unknown measurement format");
}

MeasurementSet read_measurements(const std::string& path) {
  return parse_measurements(read_input_file(path, "measurement file"), path);
}

}  // namespace commsim
