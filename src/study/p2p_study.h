#pragma once
// P2P messages on a topology and library profile, simulated beside the closed form
// (model/p2p_model.h): a set of messages sent at once (a pattern such as nccl-tests'
// sendrecv ring), the protocol the library runs them with, each arrival and each message's
// closed form alone on an idle network:
//   T(S) = L_call + o + step latency + path latency + S / rate
// On an idle network a lone message arrives exactly at T; messages that share channels
// arrive later (max-min fair rates), and sim/model says by how much.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/p2p_model.h"
#include "network/concurrent_messages.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// The closed form of one message (model/p2p_model.h) under `costs` and the profile's P2P
/// channels, seconds.
double p2p_message_model_s(const Topology& topology, const Message& m, TimePs overhead_ps, const ProtocolCosts& costs,
                           const LibraryProfile& profile);

/// The protocol the library runs the pattern's sends with: by its P2P LL threshold where it
/// has one (LL if every send is under it, else its bulk protocol), else the protocol of least
/// closed-form time for the pattern (its slowest message); empty for the ideal library.
std::optional<Protocol> p2p_protocol(const Topology& topology, const std::vector<Message>& messages,
                                             TimePs overhead_ps, const LibraryProfile& profile);

/// nccl-tests' sendrecv_perf: every rank r of `topology` sends `bytes` to r + 1 (mod p) at once.
std::vector<Message> sendrecv_ring(const Topology& topology, Bytes bytes);

/// Which messages go at once:
///   one-way        src to dst
///   bidirectional  src to dst and dst to src at once
///   all-pairs      every directed pair, each alone in turn
///   shift:K        every rank r to (r + K) mod p at once
struct P2pPattern {
  enum class Kind { kOneWay, kBidirectional, kAllPairs, kShift };
  Kind kind = Kind::kOneWay;
  Rank src = 0;             // one-way, bidirectional
  Rank dst = 1;
  std::uint32_t shift = 0;  // shift:K
  std::string name;         // as commsim spells it: "one-way", "shift:3"

  /// One-way and bidirectional: between two given ranks.
  bool pairwise() const { return kind == Kind::kOneWay || kind == Kind::kBidirectional; }
};

/// The pattern named `text` (ranks src 0, dst 1); another name is an InputError naming `what`.
P2pPattern parse_p2p_pattern(const std::string& text, std::string_view what);
/// all-pairs runs every pair alone: 4,096 NPUs are 16.8 million runs, about 12 minutes at
/// ~40 us a run (and a 4,096 x 4,096 matrix printed).
inline constexpr std::size_t kMaxAllPairsNpus = 4096;
/// Why the pattern cannot run on `npus` NPUs (a shift that sends every rank to itself,
/// all-pairs of one NPU or of more than kMaxAllPairsNpus, a pair of one rank or outside the
/// NPUs), or nothing if it can.
std::optional<std::string> p2p_pattern_misfit(const P2pPattern& pattern, std::size_t npus);
/// The pattern's messages of `bytes` each, in the order the reports list them.
std::vector<Message> p2p_pattern_messages(const P2pPattern& pattern, std::size_t npus, Bytes bytes);

struct P2pStudyOptions {
  TimePs overhead_ps = 0;            // o, per message
  LibraryProfile library;            // ideal: the wire alone
  std::optional<Protocol> protocol;  // forced; empty: p2p_protocol
  std::function<void()> on_point;    // called after each size of a study (progress); may be empty
  /// Record per-link statistics (network/link_stats.h): a study of its largest size only;
  /// with each message alone (all-pairs), of every message's run, one after another.
  bool record_link_stats = false;
  /// GPUs one host thread drives (nccl-tests -g G): a point takes at least the library's
  /// thread issue time (LibraryProfile::thread_issue_ps), sim and model alike; 0: none.
  std::size_t gpus_per_thread = 0;
};

struct P2pMessageResult {
  Message message;
  TimePs sim_ps = 0;                    // arrival
  TimePs sent_ps = 0;                   // sent: after the library's call latency
  double model_s = 0;                   // the closed form alone on an idle network
  double algbw_GBps = 0;                // bytes / arrival
  std::optional<double> sim_over_model; // empty when the model is 0
};

/// A set of messages at one size.
struct P2pPoint {
  Bytes size = 0;                    // of each message
  std::optional<Protocol> protocol;  // empty under the ideal library
  std::vector<P2pMessageResult> messages;
  // The set as a whole: until the last message arrived, beside the slowest one's closed form.
  TimePs sim_ps = 0;
  double model_s = 0;
  double algbw_GBps = 0;             // size / time
  std::optional<double> sim_over_model;
  /// Under a profile with P2P channels: those of the last message to arrive (the first of
  /// equal arrivals).
  std::optional<std::uint32_t> channels;
  /// When recorded: T is sim_ps, or with each message alone the sum of their arrivals.
  std::optional<LinkStats> link_stats;
};

/// The messages, all of one size, sent at once (or with `each_alone`, each on an idle
/// network in turn), under the protocol asked for or p2p_protocol's.
P2pPoint run_p2p_point(const Topology& topology, const std::vector<Message>& messages, const P2pStudyOptions& options,
                       bool each_alone = false);

struct P2pStudy {
  std::optional<PathParams> route;  // one-way, bidirectional: the route src -> dst
  std::vector<Bytes> sizes;
  std::vector<P2pPoint> points;     // one per size

  /// The links of the largest size, when recorded; else null.
  const LinkStats* link_stats() const {
    return !points.empty() && points.back().link_stats ? &*points.back().link_stats : nullptr;
  }
};

/// The pattern at every size. Throws InputError if it does not fit the topology
/// (p2p_pattern_misfit).
P2pStudy study_p2p(const Topology& topology, const P2pPattern& pattern, const std::vector<Bytes>& sizes,
                   const P2pStudyOptions& options);

}  // namespace commsim
