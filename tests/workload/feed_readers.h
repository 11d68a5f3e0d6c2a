#pragma once
// Feeds bytes to every workload reader: commsim's trace format (binary and text), Chakra ET
// (as one rank, and as two ranks holding the same bytes so that peers and groups can be
// valid) and the communicator-group JSON. Bad input must end in InputError; any other
// exception escapes to the caller (a test failure, or a fuzzer finding).

#include <cstddef>
#include <string>

#include "base/error.h"
#include "workload/chakra_reader.h"
#include "workload/comm_groups_json.h"
#include "workload/trace_file.h"

namespace commsim::testing {

/// Returns how many readers loaded the bytes (to see that inputs get past the framing).
inline std::size_t feed_every_reader(const std::string& bytes) {
  std::size_t loaded = 0;
  const auto attempt = [&](auto&& load) {
    try {
      const Workload workload = load();
      ++loaded;
      check_against_topology(workload, 2);
    } catch (const InputError&) {
    }
  };
  attempt([&] { return parse_trace(bytes, TraceEncoding::kBinary, "f.pb"); });
  attempt([&] { return parse_trace(bytes, TraceEncoding::kText, "f.textproto"); });
  attempt([&] { return parse_chakra_trace({{"f.0.et", bytes}}, std::nullopt, "f"); });
  attempt([&] { return parse_chakra_trace({{"f.0.et", bytes}, {"f.1.et", bytes}}, std::nullopt, "f"); });
  try {
    const CommGroupFile groups = parse_comm_groups_json(bytes, "f.json");
    attempt([&] { return parse_chakra_trace({{"f.0.et", bytes}, {"f.1.et", bytes}}, groups, "f"); });
  } catch (const InputError&) {
  }
  return loaded;
}

}  // namespace commsim::testing
