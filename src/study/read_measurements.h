#pragma once
// One entry for every file of measurements: which reader a file needs is read from its
// content, not its name.
//   nccl-tests log     '#' header lines nccl-tests prints ("# nccl-tests version", "# Using
//                      devices", the "#  size  count ..." column header, "# Avg bus bandwidth")
//   nccl-tests JSON    a JSON object: the report of nccl-tests -J FILE (nccl_tests_json.h)
//   P2P profile log    a CSV header row with config_id and duration_ns (p2p_profile_log.h)
//   measurement CSV    any other CSV header row (measurement_csv.h), whose reader refuses
//                      the CSVs that are not nccl-tests rows saying what they are: a
//                      p2pBandwidthLatencyTest matrix file is read with p2p_matrix.h
// Anything else is an InputError naming the file.

#include <string>
#include <string_view>

#include "study/measurement.h"

namespace commsim {

enum class MeasurementFormat { kNcclTestsLog, kNcclTestsJson, kMeasurementCsv, kP2pProfileLog };

/// The files read_measurements reads, for help texts.
inline constexpr std::string_view kMeasurementFiles =
    "nccl-tests output logs or JSON reports (-J), measurement tables (CSV) or P2P profiling logs";

/// "nccl-tests log", "nccl-tests JSON report", "measurement CSV", "P2P profile log".
std::string_view measurement_format_name(MeasurementFormat format);
/// The format of `text`, as above; `origin` names it in messages.
MeasurementFormat detect_measurement_format(std::string_view text, const std::string& origin);

MeasurementSet read_measurements(const std::string& path);
/// The same from text in memory; `origin` names it in messages and in each row's source.
MeasurementSet parse_measurements(std::string_view text, const std::string& origin);

}  // namespace commsim
