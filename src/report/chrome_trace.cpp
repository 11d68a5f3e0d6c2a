#include "report/chrome_trace.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <set>

#include "base/error.h"
#include "report/table.h"

namespace commsim {
namespace {

// "1234.567": nanoseconds as microseconds, exactly.
std::string us_text(std::int64_t ns) {
  const std::string fraction = std::to_string(1000 + ns % 1000).substr(1);
  return std::to_string(ns / 1000) + "." + fraction;
}

// Where each slice lands: its lane's thread id, and its times on the nanosecond grid.
struct Placed {
  std::uint32_t tid = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// Lanes of every track; tids numbered from 1 in track order, a track's lanes in a row.
// first_tid[t] is track t's lane 0; lanes[t] its lane count.
struct Layout {
  std::vector<Placed> placed;
  std::vector<std::uint32_t> first_tid;
  std::vector<std::uint32_t> lanes;
};

Layout lay_out(const std::vector<TraceTrack>& tracks, const std::vector<TraceSlice>& slices) {
  Layout layout;
  layout.placed.resize(slices.size());
  std::vector<std::vector<std::size_t>> on_track(tracks.size());
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const TraceSlice& s = slices[i];
    COMMSIM_CHECK(s.track < tracks.size() && s.end_ps >= s.start_ps,
                  "trace slice " + std::to_string(i) + " on an unknown track or ending before it starts");
    layout.placed[i] = {0, trace_ns(s.start_ps), trace_ns(s.end_ps)};
    on_track[s.track].push_back(i);
  }
  std::uint32_t next_tid = 1;
  for (std::size_t t = 0; t < tracks.size(); ++t) {
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const std::size_t i : on_track[t]) spans.emplace_back(layout.placed[i].start_ns, layout.placed[i].end_ns);
    const std::vector<std::uint32_t> lane = assign_lanes(spans);
    const std::uint32_t count = lane.empty() ? 1 : *std::max_element(lane.begin(), lane.end()) + 1;
    for (std::size_t k = 0; k < lane.size(); ++k) layout.placed[on_track[t][k]].tid = next_tid + lane[k];
    layout.first_tid.push_back(next_tid);
    layout.lanes.push_back(count);
    next_tid += count;
  }
  return layout;
}

void write_args(std::ostream& out, const std::vector<TraceArg>& args) {
  out << "{";
  for (std::size_t i = 0; i < args.size(); ++i) {
    out << (i ? ", " : "") << json_string(args[i].key) << ": " << args[i].json;
  }
  out << "}";
}

// Chrome's own metadata events carry "ts": 0 and a tid; so do these.
void write_metadata(std::ostream& out, const char* what, std::uint32_t pid, std::uint32_t tid,
                    const std::string& name) {
  out << "{\"name\": \"" << what << "\", \"ph\": \"M\", \"ts\": 0, \"pid\": " << pid << ", \"tid\": " << tid
      << ", \"args\": {\"name\": " << json_string(name) << "}}";
}

}  // namespace

TraceArg TraceArg::of(std::string key, std::string_view text) {
  return {std::move(key), json_string(std::string(text))};
}

std::int64_t trace_ns(TimePs ps) {
  COMMSIM_CHECK(ps >= 0, "negative trace time");
  return (ps + 500) / 1000;
}

std::vector<std::uint32_t> assign_lanes(const std::vector<std::pair<std::int64_t, std::int64_t>>& spans) {
  std::vector<std::size_t> order(spans.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return spans[a] < spans[b]; });
  using Busy = std::pair<std::int64_t, std::uint32_t>;  // (end, lane), earliest end first
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::set<std::uint32_t> free_lanes;
  std::uint32_t lanes = 0;
  std::vector<std::uint32_t> lane(spans.size());
  for (const std::size_t i : order) {
    const auto [start, end] = spans[i];
    while (!busy.empty() && busy.top().first <= start) {
      free_lanes.insert(busy.top().second);
      busy.pop();
    }
    if (free_lanes.empty()) {
      lane[i] = lanes++;
    } else {
      lane[i] = *free_lanes.begin();
      free_lanes.erase(free_lanes.begin());
    }
    busy.emplace(end, lane[i]);
  }
  return lane;
}

void write_chrome_trace(std::ostream& out, const std::vector<TraceTrack>& tracks, const std::vector<TraceSlice>& slices,
                        const DescribeSlice& describe) {
  const Layout layout = lay_out(tracks, slices);
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  bool first = true;
  const auto separator = [&] {
    out << (first ? "  " : ",\n  ");
    first = false;
  };
  std::set<std::uint32_t> named;
  for (std::size_t t = 0; t < tracks.size(); ++t) {
    const std::uint32_t pid = tracks[t].process + 1;
    if (named.insert(pid).second) {
      separator();
      write_metadata(out, "process_name", pid, layout.first_tid[t], tracks[t].process_name);
    }
    for (std::uint32_t lane = 0; lane < layout.lanes[t]; ++lane) {
      separator();
      write_metadata(out, "thread_name", pid, layout.first_tid[t] + lane,
                     lane == 0 ? tracks[t].name : tracks[t].name + " #" + std::to_string(lane + 1));
    }
  }
  std::vector<std::size_t> order(slices.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Placed &x = layout.placed[a], &y = layout.placed[b];
    return std::tie(x.start_ns, x.end_ns) < std::tie(y.start_ns, y.end_ns);
  });
  for (const std::size_t i : order) {
    const Placed& p = layout.placed[i];
    const TraceEvent event = describe(i);
    separator();
    out << "{\"name\": " << json_string(event.name) << ", \"cat\": " << json_string(event.category)
        << ", \"ph\": \"X\", \"ts\": " << us_text(p.start_ns) << ", \"dur\": " << us_text(p.end_ns - p.start_ns)
        << ", \"pid\": " << tracks[slices[i].track].process + 1 << ", \"tid\": " << p.tid << ", \"args\": ";
    write_args(out, event.args);
    out << "}";
  }
  out << "\n]}\n";
}

}  // namespace commsim
