#pragma once
// The collectives of a replay (workload/replay.h): the k-th collective a rank starts in a
// group meets the k-th of every other member; when the last member arrives it runs, with
// the chosen algorithm and the library's costs, through the collective runner on the
// replay's network, and each member's node finishes when that member's part is done.
// Internal to the replay.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "collective/runner.h"
#include "engine/engine.h"
#include "model/collective_model.h"
#include "network/network.h"
#include "workload/replay.h"
#include "workload/replayed_collective.h"

namespace commsim::replay {

/// A node of a replayed workload: rank and position in the rank's node list.
struct NodeRef {
  Rank rank;
  std::uint32_t index;
};

class CollectiveMeetings {
 public:
  /// Called when a member's part of a collective is done, always from an event of its own
  /// (never inside join), so that finishing a node never re-enters join.
  using Finish = std::function<void(NodeRef)>;

  CollectiveMeetings(const Workload& workload, const Topology& topology, const ReplayOptions& options, Engine& engine,
                     Network& network, Finish finish);
  ~CollectiveMeetings();
  CollectiveMeetings(const CollectiveMeetings&) = delete;
  CollectiveMeetings& operator=(const CollectiveMeetings&) = delete;

  /// Rank n.rank reaches its collective node n. If n is the last member to arrive, starts the
  /// collective and returns the other members' nodes (they waited for n); else nothing.
  /// Throws DeadlockError when n does not match the collective the others reached, and
  /// InputError (naming n) when the algorithm does not apply to the group.
  std::optional<std::vector<NodeRef>> join(NodeRef n);

  /// The collective started last (after a join that returned members).
  const ReplayedCollective& last_started() const { return collectives_.back(); }

  /// Every collective started so far, in the order they started.
  std::vector<ReplayedCollective> take_collectives() { return std::move(collectives_); }

  /// The ranks that never reached the collective rank r's node s waits in: "2, 3".
  std::string missing_members(Rank r, const WorkloadNode& s) const;

 private:
  struct Meeting;

  // The group a collective node meets in: its index in Workload::groups, or every rank.
  static constexpr std::size_t kEveryRank = SIZE_MAX;
  static std::size_t group_key(const WorkloadNode& s) { return s.group.value_or(kEveryRank); }

  Meeting& meeting_of(NodeRef n);
  void start(Meeting& m, NodeRef last);
  /// The node's or the options' algorithm; else, under a library for the whole topology,
  /// NCCL's choice among those that run as messages (nccl_choice without in-switch
  /// reduction); else default_algorithm().
  AlgorithmKind algorithm_for(const WorkloadNode& s, std::size_t members) const;
  /// Whether a collective among `members` ranks runs the library's channels and tree layout
  /// (collective/algorithms.h default_channels, default_tree_node_gpus): under a library,
  /// when it spans the whole topology.
  bool runs_library_layout(std::size_t members) const;
  /// The closed form's options for a collective among `members` ranks.
  ModelOptions model_for(std::size_t members) const;
  std::optional<Protocol> protocol_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes,
                                       std::size_t members) const;
  /// As a library pipelines (model/collective_model.h least_time_chunks), by the closed form
  /// on the whole topology as the protocol is (for a subgroup, an approximation), within the
  /// footprint limits; 1 under the ideal library.
  std::size_t chunks_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes, std::optional<Protocol> protocol,
                         const Schedule& schedule) const;
  void record_start(Meeting& m, const WorkloadNode& s, AlgorithmKind algorithm, std::optional<Protocol> protocol);

  const Workload& workload_;
  const Topology& topology_;
  const ReplayOptions& options_;
  Engine& engine_;
  Network& network_;
  Finish finish_;
  std::vector<std::map<std::size_t, std::uint64_t>> started_;  // per rank: collectives per group
  std::map<std::pair<std::size_t, std::uint64_t>, std::unique_ptr<Meeting>> meetings_;  // (group, k)
  std::vector<ReplayedCollective> collectives_;
  // What a collective runs with, by (collective, size, members, the node's own algorithm).
  struct Choice {
    AlgorithmKind algorithm;
    std::optional<Protocol> protocol;
    std::size_t chunks;
  };
  using ChoiceKey = std::tuple<CollectiveKind, Bytes, std::size_t, std::optional<AlgorithmKind>>;
  std::map<ChoiceKey, Choice> choices_;
};

}  // namespace commsim::replay
