#pragma once
// Chrome trace event JSON ("Trace Event Format", the JSON that chrome://tracing and Perfetto
// open): complete events ("ph": "X") with microsecond timestamps, grouped into processes
// (one per pipeline stage or rank) and threads (tracks within it), named by metadata events.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "base/units.h"

namespace commsim {

struct TraceSpan {
  std::uint32_t process;
  std::uint32_t thread;
  std::string name;
  std::string category;
  TimePs start_ps;
  TimePs end_ps;
};

struct TraceTrack {
  std::uint32_t process;
  std::uint32_t thread;
  std::string process_name;
  std::string thread_name;
};

void write_chrome_trace(std::ostream& out, const std::vector<TraceTrack>& tracks,
                        const std::vector<TraceSpan>& spans);

}  // namespace commsim
