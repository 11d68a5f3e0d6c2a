#include "report/chrome_trace.h"

#include <cstdio>
#include <set>

#include "report/table.h"

namespace commsim {
void write_chrome_trace(std::ostream& out, const std::vector<TraceTrack>& tracks,
                        const std::vector<TraceSpan>& spans) {
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  bool first = true;
  const auto separator = [&] {
    out << (first ? "  " : ",\n  ");
    first = false;
  };
  std::set<std::uint32_t> named;
  for (const TraceTrack& t : tracks) {
    if (named.insert(t.process).second) {
      separator();
      out << "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " << t.process
          << ", \"args\": {\"name\": " << json_string(t.process_name) << "}}";
    }
    separator();
    out << "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " << t.process
        << ", \"tid\": " << t.thread << ", \"args\": {\"name\": " << json_string(t.thread_name) << "}}";
  }
  for (const TraceSpan& s : spans) {
    separator();
    out << "{\"name\": " << json_string(s.name) << ", \"cat\": " << json_string(s.category)
        << ", \"ph\": \"X\", \"ts\": " << fixed(us_from_ps(s.start_ps), 6)
        << ", \"dur\": " << fixed(us_from_ps(s.end_ps - s.start_ps), 6) << ", \"pid\": " << s.process
        << ", \"tid\": " << s.thread << "}";
  }
  out << "\n]}\n";
}

}  // namespace commsim
