#pragma once
// The execution log of a point-to-point profiling run: one CSV row per timed transfer, taken
// by the sending process around a blocking send/receive (CPU clock, nanoseconds), each
// configuration (a directed GPU pair and a size) repeated several times in shuffled order:
//
//   config_id,src,dst,size,repetition,timestamp_start_ns,timestamp_end_ns,duration_ns
//   0,0,1,1024,0,1234567890123456,1234567890173456,50000
//
// The reader checks every row (whole numbers, duration == end - start, one row per
// repetition, one (src, dst, size) per config_id) and gives one timing per (src, dst, size):
// the median duration over its repetitions. '#' lines are comments; columns are found by
// name.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.h"
#include "study/measurement.h"

namespace commsim {

/// The repetitions of one transfer: `src_rank` sent `size_bytes` to `dst_rank`.
struct P2pTransferTiming {
  std::uint64_t config_id = 0;
  std::size_t src_rank = 0;
  std::size_t dst_rank = 0;
  Bytes size_bytes = 0;
  std::size_t repetitions = 0;
  double median_duration_ns = 0;  // the mean of the middle two for an even count
  std::uint64_t min_duration_ns = 0;
  std::uint64_t max_duration_ns = 0;
  std::string source;  // "PATH:LINE" of its first row
};

/// Sorted by (src_rank, dst_rank, size_bytes).
std::vector<P2pTransferTiming> read_p2p_profile_log(const std::string& path);
/// The same from text in memory; `origin` names it in messages and in each row's source.
std::vector<P2pTransferTiming> parse_p2p_profile_log(std::string_view text,
                                                     const std::string& origin);

/// Each timing as a P2P measurement row: time = median duration, algbw = busbw = size /
/// time (a send's bus factor is 1; 0 for a median of 0 ns), src and dst ranks and
/// repetitions set; ranks, nodes, count, type unknown.
MeasurementSet p2p_profile_measurements(const std::vector<P2pTransferTiming>& timings,
                                        const std::string& origin);

}  // namespace commsim
