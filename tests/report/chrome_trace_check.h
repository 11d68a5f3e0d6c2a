#pragma once
// Reads a Chrome trace JSON as Perfetto does and checks what it needs to show every slice:
// every event has "ph", "ts", "pid" and "tid"; every complete event ("X") has "dur" and an
// "args" object, with an integer "bytes" where it is a transfer; and on every (pid, tid) any
// two slices are disjoint or one contains the other, with times in nanoseconds as Perfetto
// rounds them (llround(us x 1000)). A partial overlap is what Perfetto drops.

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace commsim::testing {

struct ParsedSlice {
  std::string name;
  std::string category;
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  google::protobuf::Struct args;

  double number(const std::string& key) const {
    const auto it = args.fields().find(key);
    return it == args.fields().end() ? -1 : it->second.number_value();
  }
  std::string text(const std::string& key) const {
    const auto it = args.fields().find(key);
    return it == args.fields().end() ? "" : it->second.string_value();
  }
};

struct ParsedTrace {
  std::vector<ParsedSlice> slices;                                      // in file order
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> threads;  // (pid, tid) -> name
  std::map<std::int64_t, std::string> processes;                         // pid -> name
};

inline std::int64_t perfetto_ns(double us) { return std::llround(us * 1000.0); }

inline bool has(const google::protobuf::Struct& s, const std::string& key, google::protobuf::Value::KindCase kind) {
  const auto it = s.fields().find(key);
  return it != s.fields().end() && it->second.kind_case() == kind;
}

/// The slices of each (pid, tid) nest: sorted by (start, longer first), each one either
/// starts after the open ones end or ends inside the innermost open one.
inline void expect_slices_nest(const std::vector<ParsedSlice>& slices) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> tracks;
  for (const ParsedSlice& s : slices) tracks[{s.pid, s.tid}].emplace_back(s.start_ns, -s.end_ns);
  for (auto& [track, spans] : tracks) {
    std::sort(spans.begin(), spans.end());
    std::vector<std::int64_t> open_ends;
    for (const auto& [start, minus_end] : spans) {
      while (!open_ends.empty() && open_ends.back() <= start) open_ends.pop_back();
      ASSERT_TRUE(open_ends.empty() || open_ends.back() >= -minus_end)
          << "pid " << track.first << " tid " << track.second << ": [" << start << ", " << -minus_end
          << "] ns overlaps a slice ending at " << open_ends.back() << " partially";
      open_ends.push_back(-minus_end);
    }
  }
}

/// Reads one event into `trace`; false (after a failure) when it is not one.
inline bool read_event(const google::protobuf::Struct& e, const std::set<std::string>& transfers, ParsedTrace& trace) {
  using Kind = google::protobuf::Value::KindCase;
  for (const char* key : {"ph", "ts", "pid", "tid"}) {
    if (!has(e, key, key == std::string("ph") ? Kind::kStringValue : Kind::kNumberValue)) {
      ADD_FAILURE() << "an event without " << key;
      return false;
    }
  }
  const auto& f = e.fields();
  const std::string ph = f.at("ph").string_value();
  const auto pid = static_cast<std::int64_t>(f.at("pid").number_value());
  const auto tid = static_cast<std::int64_t>(f.at("tid").number_value());
  if (!has(e, "args", Kind::kStructValue)) {
    ADD_FAILURE() << "an event without args";
    return false;
  }
  const google::protobuf::Struct& args = f.at("args").struct_value();
  if (ph == "M") {
    const std::string name = args.fields().at("name").string_value();
    if (f.at("name").string_value() == "process_name") trace.processes[pid] = name;
    if (f.at("name").string_value() == "thread_name") trace.threads[{pid, tid}] = name;
    return true;
  }
  if (ph != "X" || !has(e, "dur", Kind::kNumberValue)) {
    ADD_FAILURE() << "an event neither metadata nor a complete event with dur: " << ph;
    return false;
  }
  ParsedSlice s{f.at("name").string_value(), f.at("cat").string_value(), pid, tid, 0, 0, args};
  s.start_ns = perfetto_ns(f.at("ts").number_value());
  s.end_ns = s.start_ns + perfetto_ns(f.at("dur").number_value());
  EXPECT_GE(s.end_ns, s.start_ns);
  if (transfers.count(s.category)) {
    if (!has(args, "bytes", Kind::kNumberValue)) {
      ADD_FAILURE() << s.name << " has no bytes";
      return false;
    }
    const double bytes = args.fields().at("bytes").number_value();
    EXPECT_EQ(bytes, std::floor(bytes)) << s.name << ": bytes are an integer";
  }
  trace.slices.push_back(std::move(s));
  return true;
}

/// Parses `json` (google.protobuf.Struct reads any JSON) and checks it as the header says.
inline ParsedTrace check_chrome_trace(const std::string& json,
                                      const std::set<std::string>& transfers = {"send", "recv", "collective"}) {
  ParsedTrace trace;
  google::protobuf::Struct root;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &root);
  EXPECT_TRUE(status.ok()) << status.ToString();
  const auto events = root.fields().find("traceEvents");
  if (events == root.fields().end()) {
    ADD_FAILURE() << "no traceEvents";
    return trace;
  }
  for (const google::protobuf::Value& v : events->second.list_value().values()) {
    if (!read_event(v.struct_value(), transfers, trace)) return trace;
  }
  expect_slices_nest(trace.slices);
  for (const ParsedSlice& s : trace.slices) {
    EXPECT_TRUE(trace.threads.count({s.pid, s.tid})) << "slice " << s.name << " on an unnamed thread";
  }
  return trace;
}

}  // namespace commsim::testing
