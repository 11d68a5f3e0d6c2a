#pragma once
// Feeds bytes to every workload reader: commsim's trace format (binary and text), Chakra ET
// (as one rank, and as two ranks holding the same bytes so that peers and groups can be
// valid) and the communicator-group JSON; what loads is replayed when it is small. Bad
// input must end in InputError (a deadlock is one too); any other exception escapes to the
// caller (a test failure, or a fuzzer finding).

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "base/error.h"
#include "topology/builders.h"
#include "workload/chakra_reader.h"
#include "workload/comm_groups_json.h"
#include "workload/replay.h"
#include "workload/trace_file.h"

namespace commsim::testing {

/// Bounds on what replay_if_small runs, so that every input takes a moment: a collective's
/// schedule grows with the square of its ranks, and skipped-node resolution can grow with
/// the square of the nodes.
constexpr std::size_t kMaxReplayRanks = 8;
constexpr std::size_t kMaxReplayNodes = 400;

/// Replays `workload` on a switch of as many NPUs as it has ranks (with the timeline, to run
/// that code too) when it is within the bounds above. Returns whether it ran to the end; an
/// InputError (a deadlock, a time beyond the clock) is an expected outcome and returns false.
inline bool replay_if_small(const Workload& workload) {
  std::size_t nodes = 0;
  for (const RankTrace& rank : workload.ranks) nodes += rank.nodes.size();
  if (workload.rank_count() > kMaxReplayRanks || nodes > kMaxReplayNodes) return false;
  // Built once per size: a topology costs more than most replays.
  static std::array<std::unique_ptr<Topology>, kMaxReplayRanks + 1> switches;
  std::unique_ptr<Topology>& topology = switches[workload.rank_count()];
  if (!topology) {
    TopologyConfig config;
    config.kind = TopologyKind::kSwitch;
    config.npus = static_cast<std::uint32_t>(workload.rank_count());
    topology = std::make_unique<Topology>(build_topology(config));
  }
  ReplayOptions options;
  options.record_timeline = true;
  try {
    replay_workload(workload, *topology, options);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

struct Fed {
  std::size_t loaded = 0;    // readers that loaded the bytes (to see inputs get past the framing)
  std::size_t replayed = 0;  // of those, replays that ran to the end (to see inputs reach replay)
};

inline Fed feed_every_reader(const std::string& bytes) {
  Fed fed;
  const auto attempt = [&](auto&& load) {
    try {
      const Workload workload = load();
      ++fed.loaded;
      if (replay_if_small(workload)) ++fed.replayed;
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
  return fed;
}

}  // namespace commsim::testing
