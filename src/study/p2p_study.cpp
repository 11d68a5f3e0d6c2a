#include "study/p2p_study.h"

#include <algorithm>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {

double p2p_message_model_s(const Topology& topology, const Message& m, TimePs overhead_ps, const ProtocolCosts& costs,
                           const LibraryProfile& profile) {
  const PathParams path = path_params(topology, m.src, m.dst);
  return p2p_time_s(path, seconds_from_ps(overhead_ps), m.bytes, costs,
                    profile.p2p_rate_cap(m.bytes, path.link_class, topology.npu_count()));
}

std::optional<Protocol> p2p_protocol(const Topology& topology, const std::vector<Message>& messages,
                                     TimePs overhead_ps, const LibraryProfile& profile) {
  if (profile.ideal()) return std::nullopt;
  std::vector<std::pair<Bytes, LinkClass>> sends;
  for (const Message& m : messages) sends.emplace_back(m.bytes, topology.route_class(topology.route(m.src, m.dst)));
  if (const auto by_threshold = profile.p2p_threshold_protocol(sends, topology.npu_count())) return by_threshold;
  return profile.fastest([&](const ProtocolCosts& costs) {
    double slowest = 0;
    for (const Message& m : messages) {
      slowest = std::max(slowest, p2p_message_model_s(topology, m, overhead_ps, costs, profile));
    }
    return slowest;
  });
}

std::vector<Message> sendrecv_ring(const Topology& topology, Bytes bytes) {
  P2pPattern ring;
  ring.kind = P2pPattern::Kind::kShift;
  ring.shift = 1;
  return p2p_pattern_messages(ring, topology.npu_count(), bytes);
}

P2pPattern parse_p2p_pattern(const std::string& text, std::string_view what) {
  using Kind = P2pPattern::Kind;
  static constexpr NameTable<Kind, 3> kFixedNames{{
      {Kind::kOneWay, "one-way"},
      {Kind::kBidirectional, "bidirectional"},
      {Kind::kAllPairs, "all-pairs"},
  }};
  P2pPattern p;
  const std::size_t colon = text.find(':');
  if (colon != std::string::npos && same_loose_name(text.substr(0, colon), "shift")) {
    p.kind = Kind::kShift;
    p.shift = static_cast<std::uint32_t>(parse_count(text.substr(colon + 1), std::string(what) + " shift:K", 1, UINT32_MAX));
    p.name = "shift:" + text.substr(colon + 1);
    return p;
  }
  std::vector<std::string_view> names = names_of(kFixedNames);
  names.push_back("shift:K");
  const std::optional<Kind> kind = value_in(kFixedNames, text);
  if (!kind) throw InputError(unknown_name_message(what, "pattern", text, names));
  p.kind = *kind;
  p.name = name_in(kFixedNames, *kind);  // as commsim spells it, whatever the spelling given
  return p;
}

std::optional<std::string> p2p_pattern_misfit(const P2pPattern& pattern, std::size_t npus) {
  using Kind = P2pPattern::Kind;
  if (pattern.pairwise() && (pattern.src >= npus || pattern.dst >= npus || pattern.src == pattern.dst)) {
    return "needs two ranks of the " + std::to_string(npus) + " NPUs, got " + std::to_string(pattern.src) + " and " +
           std::to_string(pattern.dst);
  }
  if (pattern.kind == Kind::kShift && pattern.shift % npus == 0) {
    return "every rank would send to itself on " + std::to_string(npus) + " NPUs";
  }
  if (pattern.kind == Kind::kAllPairs && npus < 2) return "needs at least 2 NPUs";
  if (pattern.kind == Kind::kAllPairs && npus > kMaxAllPairsNpus) {
    return "runs each of the " + std::to_string(npus * (npus - 1)) + " pairs of " + std::to_string(npus) +
           " NPUs alone; the limit is " + std::to_string(kMaxAllPairsNpus) + " NPUs";
  }
  return std::nullopt;
}

std::vector<Message> p2p_pattern_messages(const P2pPattern& pattern, std::size_t npus, Bytes bytes) {
  const auto n = static_cast<Rank>(npus);
  switch (pattern.kind) {
    case P2pPattern::Kind::kOneWay: return {{pattern.src, pattern.dst, bytes}};
    case P2pPattern::Kind::kBidirectional:
      return {{pattern.src, pattern.dst, bytes}, {pattern.dst, pattern.src, bytes}};
    case P2pPattern::Kind::kShift: {
      std::vector<Message> messages;
      for (Rank r = 0; r < n; ++r) messages.push_back({r, static_cast<Rank>((r + pattern.shift) % n), bytes});
      return messages;
    }
    case P2pPattern::Kind::kAllPairs: {
      std::vector<Message> messages;
      for (Rank a = 0; a < n; ++a) {
        for (Rank b = 0; b < n; ++b) {
          if (a != b) messages.push_back({a, b, bytes});
        }
      }
      return messages;
    }
  }
  throw InternalError("unhandled P2P pattern");
}

namespace {

struct Arrivals {
  std::vector<TimePs> times;             // of each message, in order
  std::optional<LinkStats> link_stats;   // when recorded
};

// The messages at once, or each alone in turn; with `record` the links' statistics of the
// run, or of the runs one after another (each run's T: its last arrival).
Arrivals arrivals(const Topology& topology, const std::vector<Message>& messages, TimePs overhead_ps,
                  const ProtocolCosts& costs, const LibraryProfile& profile, bool each_alone, bool record) {
  Arrivals out;
  const auto run = [&](const std::vector<Message>& set) {
    LinkStats stats;
    const std::vector<TimePs> times =
        simulate_concurrent_messages(topology, overhead_ps, set, costs, profile.p2p, record ? &stats : nullptr);
    if (record) {
      if (!out.link_stats) out.link_stats.emplace();
      append_run(*out.link_stats, stats);
    }
    out.times.insert(out.times.end(), times.begin(), times.end());
  };
  if (!each_alone) {
    run(messages);
  } else {
    for (const Message& m : messages) run({m});
  }
  return out;
}

std::optional<double> ratio(TimePs sim_ps, double model_s) {
  return model_s > 0 ? std::optional<double>(seconds_from_ps(sim_ps) / model_s) : std::nullopt;
}

}  // namespace

P2pPoint run_p2p_point(const Topology& topology, const std::vector<Message>& messages, const P2pStudyOptions& options,
                       bool each_alone) {
  const LibraryProfile& profile = options.library;
  P2pPoint point;
  point.size = messages.empty() ? 0 : messages.front().bytes;
  point.protocol = options.protocol ? options.protocol : p2p_protocol(topology, messages, options.overhead_ps, profile);
  const ProtocolCosts costs = profile.costs(point.protocol);
  Arrivals run = arrivals(topology, messages, options.overhead_ps, costs, profile, each_alone,
                          options.record_link_stats);
  const std::vector<TimePs>& arrival = run.times;
  point.link_stats = std::move(run.link_stats);
  const Message* last = messages.empty() ? nullptr : &messages.front();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    const double model_s = p2p_message_model_s(topology, m, options.overhead_ps, costs, profile);
    point.messages.push_back({m, arrival[i], costs.call_latency_ps, model_s, rate_GBps(m.bytes, arrival[i]),
                              ratio(arrival[i], model_s)});
    if (arrival[i] > point.sim_ps) last = &m;
    point.sim_ps = std::max(point.sim_ps, arrival[i]);
    point.model_s = std::max(point.model_s, model_s);
  }
  if (last) point.channels = p2p_send_channels(topology, last->src, last->dst, last->bytes, profile);
  const TimePs issue_ps = profile.thread_issue_ps(options.gpus_per_thread, point.channels.value_or(1));
  point.sim_ps = std::max(point.sim_ps, issue_ps);
  point.model_s = std::max(point.model_s, seconds_from_ps(issue_ps));
  point.algbw_GBps = rate_GBps(point.size, point.sim_ps);
  point.sim_over_model = ratio(point.sim_ps, point.model_s);
  return point;
}

P2pStudy study_p2p(const Topology& topology, const P2pPattern& pattern, const std::vector<Bytes>& sizes,
                   const P2pStudyOptions& options) {
  if (const auto misfit = p2p_pattern_misfit(pattern, topology.npu_count())) {
    throw InputError("pattern " + pattern.name + ": " + *misfit);
  }
  P2pStudy study;
  if (pattern.pairwise()) study.route = path_params(topology, pattern.src, pattern.dst);
  study.sizes = sizes;
  const bool each_alone = pattern.kind == P2pPattern::Kind::kAllPairs;
  P2pStudyOptions unrecorded = options;  // the sizes below the largest
  unrecorded.record_link_stats = false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::vector<Message> messages = p2p_pattern_messages(pattern, topology.npu_count(), sizes[i]);
    const bool largest = i + 1 == sizes.size();
    study.points.push_back(run_p2p_point(topology, messages, largest ? options : unrecorded, each_alone));
    if (options.on_point) options.on_point();
  }
  return study;
}

}  // namespace commsim
