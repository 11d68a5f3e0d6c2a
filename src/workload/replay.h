#pragma once
// Replays a workload on the flow-level network (DESIGN.md section 3, "Workload traces").
//
// All ranks run together. A node starts when its dependencies have finished (a skipped
// node never runs: it passes its own dependencies on, see simulated_dependencies). A
// compute node also needs its rank's compute resource (one compute node at a time per
// rank, in the order they became ready); communication overlaps compute. Sends and
// receives match by (source, destination, tag) in posting order and transfer once both
// are posted (rendezvous); a matched pair of different sizes is a DeadlockError naming
// both nodes, unless the receive's size is 0 (unknown, see WorkloadNode::bytes). The k-th
// collective a rank starts in a group meets the k-th of every other member; it runs when
// all members have reached it, with the chosen algorithm, and each member's node finishes
// when that member's part is done (a group inside one NVLink node no earlier than the
// library's one-node ramp allows, model/one_node_ramp.h). Trace rank r runs on NPU r.
// Each collective is reported (ReplayedCollective): what ran, how (algorithm, protocol) and
// its time, from the instant the last member reached it to the instant every member's part
// was done, so it holds the library's call latency but not the members' wait for each other.
//
// When the network falls silent with nodes left, the replay is a deadlock: DeadlockError
// names every rank's blocked nodes (unmatched sends and receives with peer and tag,
// collectives some members never reach, mismatched collectives).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "network/link_stats.h"
#include "topology/library.h"
#include "topology/topology.h"
#include "workload/replayed_collective.h"
#include "workload/workload.h"

namespace commsim {

struct ReplayOptions {
  TimePs overhead_ps = 0;                              // o, per message
  /// The communication library (topology/library.h). A collective pays its call latency
  /// and runs under `protocol`, or else the protocol NCCL's estimate ranks fastest for the
  /// same collective and size on the topology its group spans (fastest_protocol),
  /// pipelined in the chunks of least closed-form time (least_time_chunks);
  /// a send or receive runs under `protocol`, or else the profile's last (NCCL's Simple),
  /// with no call latency, as traces group them with their neighbours.
  LibraryProfile library;
  std::optional<Protocol> protocol;
  /// Else, under a library, NCCL's choice on the topology the collective's group spans
  /// (in-switch reduction where its switches reduce; for a collective of every rank, on the
  /// library's channels and tree layout); else default_algorithm().
  std::map<CollectiveKind, AlgorithmKind> algorithms;
  bool record_timeline = false;   // every node's start and end (ReplayResult::timeline)
  bool record_link_busy = false;  // every link's busy intervals (ReplayResult::link_busy)
  bool record_link_stats = false;  // per-link statistics (network/link_stats.h)
  /// Called as each node finishes, with its node_work (progress); may be empty.
  std::function<void(double work)> on_node_done;
};

struct RankReplay {
  TimePs finish_ps = 0;
  TimePs compute_ps = 0;
  /// Time the rank computed nothing while some of its communication was under way.
  TimePs exposed_comm_ps = 0;
};

struct ReplayedNode {
  Rank rank;
  std::uint32_t index;  // in the rank's node list
  TimePs start_ps;
  TimePs end_ps;
  /// A collective: the algorithm it ran with, and the library's protocol (none under ideal).
  std::optional<AlgorithmKind> algorithm = std::nullopt;
  std::optional<Protocol> protocol = std::nullopt;
};

struct LinkSpan {
  ChannelId channel;
  TimePs start_ps;
  TimePs end_ps;
  std::uint32_t flows = 1;  // merged into this busy interval
};

struct ReplayResult {
  TimePs total_ps = 0;
  std::vector<RankReplay> ranks;
  /// From the first node to the one that finished last, each started by the one before.
  std::vector<ReplayedNode> critical_path;
  std::vector<ReplayedCollective> collectives;  // every collective, in the order they started
  std::vector<ReplayedNode> timeline;   // every node but skipped ones, with record_timeline
  std::vector<LinkSpan> link_busy;      // merged busy intervals per channel, with record_link_busy
  std::optional<LinkStats> link_stats;  // with record_link_stats, T = total_ps
};

/// A node's share of a replay's work, for a time-left estimate (progress): a collective's
/// member counts as many as its group has members (a ring's member takes part in p - 1
/// steps or more, each an event of the simulation), a skipped node 0 (it does not run), any
/// other node 1. A 1,024-rank data-parallel AllReduce at the end of a training step thus
/// weighs what it takes, where counting nodes alike promised it in no time.
double node_work(const Workload& workload, const WorkloadNode& node);
/// node_work summed over every node of the workload.
double replay_work(const Workload& workload);

/// Throws InputError if the workload does not fit the topology or a chosen algorithm does
/// not apply; DeadlockError if the replay cannot finish.
ReplayResult replay_workload(const Workload& workload, const Topology& topology,
                             const ReplayOptions& options);

}  // namespace commsim
