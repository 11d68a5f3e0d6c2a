#pragma once
// The fields of an nccl-tests row, parsed alike from a log's columns and from a CSV's: each
// parser takes the field's text and `where` ("PATH:LINE"), and throws InputError
// "PATH:LINE: <field>: ..." naming the value when it is not what nccl-tests prints.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/units.h"
#include "study/measurement.h"

namespace commsim {

/// nccl-tests' size column: whole bytes, at most kMaxBytes.
Bytes parse_size_field(std::string_view text, const std::string& where);
/// nccl-tests' count column: whole elements.
std::uint64_t parse_count_field(std::string_view text, const std::string& where);
/// nccl-tests' root column: -1 (no root) or a rank.
int parse_root_field(std::string_view text, const std::string& where);
/// A number of ranks, nodes or GPUs per node.
std::size_t parse_rank_count_field(std::string_view text, std::string_view field,
                                   const std::string& where);
/// One placement's time (microseconds, > 0); `placement` is "out-of-place" or "in-place"
/// and names the field in messages.
double parse_time_field(std::string_view text, std::string_view placement, const std::string& where);
/// One placement's algbw or busbw (`name`), GB/s, >= 0.
double parse_bandwidth_field(std::string_view text, std::string_view placement, std::string_view name,
                             const std::string& where);
/// One placement's time, algbw and busbw from numbers already read (a JSON report's), held
/// to what the parsers above hold text to: InputError "<where>: <placement> time (us): 0 is
/// not positive", "... algbw (GB/s): ..." for a negative bandwidth.
MeasuredTime checked_measured_time(double time_us, double algbw_GBps, double busbw_GBps, std::string_view placement,
                                   const std::string& where);
/// One placement's time, algbw and busbw, as above.
MeasuredTime parse_measured_time(std::string_view time_us, std::string_view algbw_GBps,
                                 std::string_view busbw_GBps, std::string_view placement,
                                 const std::string& where);

}  // namespace commsim
