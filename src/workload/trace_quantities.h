#pragma once
// Durations and sizes in commsim's trace format (proto/workload.proto) are strings with
// units, as in topology specs. A whole number with a unit is converted with integer
// arithmetic, so that every picosecond and byte count written by the writer reads back
// exactly; anything else ("1.5ms", "0.5M") goes through the parsers of base/units.h.

#include <string>
#include <string_view>

#include "base/units.h"

namespace commsim {

/// "150us", "1234ps", "2s", "1.5ms", "0". Throws InputError starting with `what`.
TimePs parse_trace_duration(std::string_view text, std::string_view what);
/// "1048576", "1M" (2^20), "1MB" (10^6), "1.5K". Throws InputError starting with `what`.
Bytes parse_trace_size(std::string_view text, std::string_view what);

/// The largest unit that keeps the value exact: 150000000 ps -> "150us", 1234 -> "1234ps".
std::string format_trace_duration(TimePs duration_ps);
/// Plain decimal bytes: "1048576".
std::string format_trace_size(Bytes bytes);

}  // namespace commsim
