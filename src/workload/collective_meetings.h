#pragma once
// The collectives of a replay (workload/replay.h): the k-th collective a rank starts in a
// group meets the k-th of every other member; when the last member arrives it runs, with
// the chosen algorithm and the library's costs, through the collective runner (or, reduced
// in the switch, collective/in_switch_run.h) on the replay's network, and each member's
// node finishes when that member's part is done, inside one NVLink node no earlier than the
// call's start plus the library's one-node ramp allows (model/one_node_ramp.h).
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
#include "topology/in_switch.h"
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
  /// The topology the members of `group` span: the whole topology when they are all its
  /// NPUs, else the group's own (topology/group_topology.h), built once per group.
  const Topology& spanned_by(std::size_t group, const std::vector<Rank>& members);
  /// The closed form's options for a collective on the topology its members span: the
  /// library's channels and tree layout there (collective/algorithms.h default_channels,
  /// default_tree_node_gpus; one ring, the double binary tree under ideal).
  ModelOptions model_for(const Topology& spanned) const;
  /// The library as a call on `spanned` runs it (model/one_node_ramp.h library_for_span):
  /// inside one NVLink node, with its factors there. Asked once per topology.
  const LibraryProfile& library_for(const Topology& spanned) const;
  /// model_for with the library's costs and rate caps for `algorithm` under `protocol` at
  /// `bytes` (as plan_collective_point gives `commsim collective` its closed form).
  ModelOptions costed_model(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                            Bytes bytes, const Topology& spanned) const;
  /// What a collective of node `s` among the members of `group`, who span `spanned`, runs:
  /// the node's or the options' algorithm; else, under a library, NCCL's choice on the
  /// topology the members span (nccl_choice, in-switch reduction included where their
  /// switches reduce); else default_algorithm(). Its protocol: the one asked for, or the
  /// one NCCL's estimate ranks fastest (fastest_protocol); its chunks: as a library pipelines
  /// (least_time_chunks), within the footprint limits; 1 under the ideal library. The
  /// least time the call takes under the library's one-node ramp (ramp_floor_ps).
  struct Choice {
    AlgorithmKind algorithm;
    std::optional<Protocol> protocol;
    std::size_t chunks;
    std::uint32_t channels;  // collective_call_channels
    TimePs ramp_floor_ps;    // 0: the ramp does not bound it
  };
  AlgorithmKind algorithm_for(const WorkloadNode& s, const Topology& spanned) const;
  std::optional<Protocol> protocol_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes,
                                       const Topology& spanned) const;
  std::size_t chunks_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes, std::optional<Protocol> protocol,
                         const Topology& spanned, const Schedule& schedule) const;
  /// T_ramp of the call (model/one_node_ramp.h) on the topology its members span: its closed
  /// form at the ramp's last size, with that size's costs and chunks, scaled; 0 where the
  /// ramp does not bound it.
  TimePs ramp_floor_for(const WorkloadNode& s, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                        const Topology& spanned, const Schedule* schedule) const;
  /// The schedule of the members' collective (none for an in-switch AllReduce), checked
  /// against the footprint limits; throws InputError if the algorithm does not apply.
  void prepare(Meeting& m, const WorkloadNode& s, const Topology& spanned, AlgorithmKind algorithm);
  /// The run of a schedule's collective (CollectiveRunner), or of an AllReduce the
  /// switches of `group` reduce (InSwitchAllReduceRun), each member's part done by member_done.
  void make_runner(Meeting& m, const WorkloadNode& s, const Topology& spanned, AlgorithmKind algorithm,
                   std::optional<Protocol> protocol, std::size_t chunks, const ProtocolCosts& costs);
  void make_in_switch_run(Meeting& m, std::size_t group, AlgorithmKind algorithm, Bytes bytes,
                          const ProtocolCosts& costs, const RateCapsByClass& tree_caps);
  /// A member's part is done: it finishes now, or when the one-node ramp lets the call end.
  void member_done(Meeting& m, std::size_t member);
  void record_start(Meeting& m, const WorkloadNode& s, const Choice& choice);

  const Workload& workload_;
  const Topology& topology_;
  const ReplayOptions& options_;
  Engine& engine_;
  Network& network_;
  Finish finish_;
  std::vector<std::map<std::size_t, std::uint64_t>> started_;  // per rank: collectives per group
  std::map<std::pair<std::size_t, std::uint64_t>, std::unique_ptr<Meeting>> meetings_;  // (group, k)
  std::vector<ReplayedCollective> collectives_;
  std::map<std::size_t, Topology> group_topologies_;  // by group (Workload::groups index)
  LibraryProfile one_node_library_;                   // options_.library.inside_one_node()
  mutable std::map<const Topology*, bool> inside_one_node_;          // by spanned topology
  std::map<std::size_t, std::vector<InSwitchGroup>> switch_groups_;  // by group: its reducing switches
  // What a collective runs with, by (collective, size, group, the node's own algorithm).
  using ChoiceKey = std::tuple<CollectiveKind, Bytes, std::size_t, std::optional<AlgorithmKind>>;
  std::map<ChoiceKey, Choice> choices_;
};

}  // namespace commsim::replay
