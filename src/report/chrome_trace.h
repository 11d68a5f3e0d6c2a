#pragma once
// Chrome trace event JSON ("Trace Event Format", the JSON that Perfetto and chrome://tracing
// open): complete events ("ph": "X") grouped into processes (a rank, a pipeline stage) and
// their tracks (threads: compute, send, ...), named by metadata events ("ph": "M").
//
// Perfetto drops a slice that overlaps a neighbour on its thread partially, so a track whose
// slices overlap (sends in flight together) is split into lanes, threads named "send",
// "send #2", ... (assign_lanes): on every (pid, tid) any two slices are disjoint, one ending
// where the next starts at the latest. Perfetto reads "ts" and "dur" in microseconds and
// rounds each to the nanosecond, so times are written in microseconds on the nanosecond grid
// (3 decimals) and lanes are laid out on that grid: what Perfetto rounds is what was checked.
// Process and thread ids start at 1 (Perfetto treats pid 0 as the kernel's idle process);
// thread ids are unique across processes. Every event has "ph", "ts", "pid" and "tid";
// every slice has "dur" and "args".

#include <concepts>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.h"

namespace commsim {

/// One entry of a slice's "args": a JSON integer (bytes, ranks, steps) or string.
struct TraceArg {
  std::string key;
  std::string json;  // the value as JSON text

  template <std::integral T>
  static TraceArg of(std::string key, T value) {
    return {std::move(key), std::to_string(value)};
  }
  static TraceArg of(std::string key, std::string_view text);
};

/// A row of slices: one of a process's tracks. Tracks of one process share its id and
/// name (the first track's name of it is used).
struct TraceTrack {
  std::uint32_t process;
  std::string process_name;
  std::string name;
};

/// A slice on tracks[track], from start_ps to end_ps (end_ps >= start_ps).
struct TraceSlice {
  std::uint32_t track;
  TimePs start_ps;
  TimePs end_ps;
};

/// What a slice shows: asked for as the slice is written, so that a timeline of a million
/// messages holds only their times until then.
struct TraceEvent {
  std::string name;
  std::string category;
  std::vector<TraceArg> args;
};
using DescribeSlice = std::function<TraceEvent(std::size_t slice)>;

/// Nanoseconds from picoseconds, rounded to the nearest (half up), as Perfetto rounds.
std::int64_t trace_ns(TimePs ps);

/// The lane of each span (start, end) of one track, so that spans on one lane are disjoint:
/// in order of (start, end, index), each takes the lowest lane whose last span has ended by
/// its start (a span may start where another ends; zero-length spans too). Greedy interval
/// partitioning: as few lanes as the most spans that overlap at one instant, and the same
/// lanes for the same spans. O(n log n).
std::vector<std::uint32_t> assign_lanes(const std::vector<std::pair<std::int64_t, std::int64_t>>& spans);

/// Writes the tracks (each split into lanes as its slices need, at least one) and the
/// slices, in order of start time, then end time.
void write_chrome_trace(std::ostream& out, const std::vector<TraceTrack>& tracks, const std::vector<TraceSlice>& slices,
                        const DescribeSlice& describe);

}  // namespace commsim
