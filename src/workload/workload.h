#pragma once
// The in-memory workload that trace replay runs (DESIGN.md section 3, "Workload traces"):
// per rank, a DAG of nodes (compute, collective, send, receive) with dependencies, and the
// communicator groups its collectives use. Both readers produce it — trace_file.h for
// commsim's own format (proto/workload.proto) and chakra_reader.h for Chakra execution
// traces — so replay does not know which format a workload came from.
//
// A workload that a reader returns has passed validate_workload(): node ids are unique per
// rank, every dependency names a node of the same rank, the dependencies have no cycle,
// every peer is a rank of the trace, every collective's group is a set of the trace's
// ranks that includes the rank running it, and no barrier has a size. Whether the topology
// has enough NPUs is checked separately (check_against_topology), since readers do not
// know the topology.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "topology/topology.h"

namespace commsim {

/// A node's id as the trace gives it: unique within its rank, not across ranks.
using TraceNodeId = std::uint64_t;

enum class NodeKind : std::uint8_t {
  kCompute,     // occupies its rank's compute resource for duration_ps
  kCollective,  // a collective of `collective` kind and `bytes` among a group of ranks
  kSend,        // `bytes` to `peer`, matched with a receive by (source, destination, tag)
  kRecv,        // `bytes` from `peer`
  kSkipped,     // not simulated (a memory node without a duration, a metadata node):
                // replay passes dependencies through it (simulated_dependencies), so they
                // still hold; kept so that it is counted and written back out
};

std::string_view node_kind_name(NodeKind kind);  // "compute", "collective", "send", ...

// Fields in an order that leaves no padding (144 bytes): a training step holds millions.
struct WorkloadNode {
  TraceNodeId id = 0;
  std::string name;            // may be empty
  std::string skipped_origin;  // kSkipped: what the node was, e.g. "MEM_LOAD_NODE"
  /// Ids of nodes of the same rank that must finish before this one starts; no repeats.
  std::vector<TraceNodeId> deps;
  TimePs duration_ps = 0;  // kCompute
  /// kSend, kRecv: the message; a receive must match its send's size (else replay throws
  /// DeadlockError), except that a receive of 0 bytes takes a send of any size: it is how a
  /// trace says it does not know the size (a Chakra receive with comm_size 0, say), and
  /// the send's size is what moves either way.
  /// kCollective: nccl-tests' size convention (base/collectives.h: each rank's buffer for
  /// AllReduce, the gathered output for AllGather, ...); always 0 for a Barrier.
  Bytes bytes = 0;
  std::int64_t tag = 0;  // kSend, kRecv
  /// kSend: the destination; kRecv: the source. Empty when the trace does not say (Chakra's
  /// generator writes such lone sends and receives): such a node can never be matched.
  std::optional<Rank> peer;
  std::optional<std::uint32_t> group;  // kCollective: index into Workload::groups; empty: all ranks
  NodeKind kind = NodeKind::kCompute;
  CollectiveKind collective = CollectiveKind::kAllReduce;  // kCollective
  std::optional<AlgorithmKind> algorithm;                  // kCollective; empty: replay's choice

  bool operator==(const WorkloadNode&) const = default;
};
static_assert(sizeof(WorkloadNode) <= 144, "WorkloadNode grew: a training step holds millions");

/// A communicator: the ranks a collective runs among, in the order the algorithm uses.
struct CommGroup {
  std::string name;
  std::vector<Rank> ranks;

  bool operator==(const CommGroup&) const = default;
};

struct RankTrace {
  std::string source;               // the file the rank came from, for messages
  std::vector<WorkloadNode> nodes;  // in file order (not necessarily a topological order)
};

struct Workload {
  std::string name;
  std::vector<RankTrace> ranks;  // rank r is ranks[r]
  std::vector<CommGroup> groups;

  std::size_t rank_count() const { return ranks.size(); }
  /// The ranks a collective node runs among: its group's, or every rank 0..rank_count()-1.
  std::vector<Rank> members(const WorkloadNode& collective) const;
};

/// Throws InputError naming the source file, the rank, the node and the value when the
/// workload breaks one of the rules in the header comment. Both readers call it.
void validate_workload(const Workload& workload);

/// Throws InputError when the workload needs more NPUs than a topology of `npus` has (ranks
/// map to NPUs 0..rank_count()-1): it names the first node (in rank order, then file order)
/// that sends to, receives from or has in its collective group a rank >= npus, or else the
/// first rank beyond the topology.
void check_against_topology(const Workload& workload, std::size_t npus);

/// Position of each node in `rank.nodes` by id (ids are unique once validated).
std::unordered_map<TraceNodeId, std::size_t> index_by_id(const RankTrace& rank);

/// The dependencies replay runs on, with skipped nodes passed through: for each node of
/// `rank` (by position in `rank.nodes`), the positions of the non-skipped nodes it waits for.
/// A node that depends on a skipped node depends on that node's dependencies instead,
/// transitively through chains of skipped nodes; a skipped node's own entry is empty, so
/// no skipped node is left in the graph (replay never runs one). Each list is in order of
/// first appearance, without repeats. `rank` must be validated (validate_workload: no
/// cycle, every dependency exists). O(nodes + the lists' total size); a long chain of
/// skipped nodes that each add a dependency makes that total quadratic in the chain.
std::vector<std::vector<std::size_t>> simulated_dependencies(const RankTrace& rank);

/// How many nodes of `kind` the workload has over all ranks (e.g. skipped nodes, to report).
std::size_t count_nodes(const Workload& workload, NodeKind kind);

/// "pipe.1.et: rank 1: node 5 (send_m1)": the prefix of every message about a node.
std::string node_context(std::string_view source, Rank rank, const WorkloadNode& node);
std::string node_context(const Workload& workload, Rank rank, const WorkloadNode& node);

}  // namespace commsim
