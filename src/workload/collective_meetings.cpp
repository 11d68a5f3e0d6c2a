#include "workload/collective_meetings.h"

#include <algorithm>

#include "base/error.h"
#include "base/joined.h"
#include "collective/algorithms.h"
#include "collective/footprint.h"
#include "collective/in_switch_run.h"
#include "model/collective_model.h"
#include "model/one_node_ramp.h"
#include "topology/group_topology.h"
#include "topology/in_switch.h"

namespace commsim::replay {

// One collective instance: the k-th of a group, met by every member.
struct CollectiveMeetings::Meeting {
  std::pair<std::size_t, std::uint64_t> key;  // (group, k): its entry in meetings_
  const WorkloadNode* first = nullptr;
  NodeRef first_ref{};
  std::vector<Rank> members;
  std::vector<std::optional<std::uint32_t>> node_of_member;  // by position in members
  std::size_t arrived = 0;
  std::size_t done = 0;       // members whose part is done
  std::size_t collective = 0;  // its entry in collectives_
  std::unique_ptr<Schedule> schedule;
  std::unique_ptr<ChannelRates> channel_rates;       // the schedule's, where it has fixed ones
  std::unique_ptr<CollectiveRunner> runner;          // a schedule's run, or
  std::unique_ptr<InSwitchAllReduceRun> in_switch;  // an AllReduce the switch reduces
  bool started = false;  // the run's start() has returned
  TimePs release_ps = 0;  // no member finishes before: its start + the one-node ramp's floor
};

CollectiveMeetings::CollectiveMeetings(const Workload& workload, const Topology& topology, const ReplayOptions& options,
                                       Engine& engine, Network& network, Finish finish)
    : workload_(workload),
      topology_(topology),
      options_(options),
      engine_(engine),
      network_(network),
      finish_(std::move(finish)),
      started_(workload.rank_count()),
      one_node_library_(options.library.inside_one_node()) {}

CollectiveMeetings::~CollectiveMeetings() = default;

CollectiveMeetings::Meeting& CollectiveMeetings::meeting_of(NodeRef n) {
  const WorkloadNode& s = workload_.ranks[n.rank].nodes[n.index];
  const std::size_t group = group_key(s);
  const std::uint64_t seq = started_[n.rank][group]++;
  std::unique_ptr<Meeting>& slot = meetings_[{group, seq}];
  if (!slot) {
    slot = std::make_unique<Meeting>();
    slot->key = {group, seq};
    slot->first = &s;
    slot->first_ref = n;
    slot->members = workload_.members(s);
    slot->node_of_member.resize(slot->members.size());
  } else if (slot->first->collective != s.collective || slot->first->bytes != s.bytes) {
    const WorkloadNode& first = *slot->first;
    throw DeadlockError("mismatched collective: " + node_context(workload_, n.rank, s) + " is " +
                        std::string(collective_name(s.collective)) + " of " + std::to_string(s.bytes) + " B, but " +
                        node_context(workload_, slot->first_ref.rank, first) + " is " +
                        std::string(collective_name(first.collective)) + " of " + std::to_string(first.bytes) + " B");
  }
  return *slot;
}

std::optional<std::vector<NodeRef>> CollectiveMeetings::join(NodeRef n) {
  Meeting& m = meeting_of(n);
  const auto pos = std::find(m.members.begin(), m.members.end(), n.rank) - m.members.begin();
  m.node_of_member[pos] = n.index;
  if (++m.arrived < m.members.size()) return std::nullopt;

  // Everyone is here: the last to arrive held the others up.
  std::vector<NodeRef> waited;
  for (std::size_t i = 0; i < m.members.size(); ++i) {
    if (m.members[i] != n.rank) waited.push_back({m.members[i], *m.node_of_member[i]});
  }
  start(m, n);
  return waited;
}

const Topology& CollectiveMeetings::spanned_by(std::size_t group, const std::vector<Rank>& members) {
  if (members.size() == topology_.npu_count()) return topology_;
  auto it = group_topologies_.find(group);
  if (it == group_topologies_.end()) it = group_topologies_.emplace(group, group_topology(topology_, members)).first;
  return it->second;
}

AlgorithmKind CollectiveMeetings::algorithm_for(const WorkloadNode& s, const Topology& spanned) const {
  if (s.algorithm) return *s.algorithm;
  const auto chosen = options_.algorithms.find(s.collective);
  if (chosen != options_.algorithms.end()) return chosen->second;
  if (!options_.library.ideal()) {
    return nccl_choice(spanned, s.collective, s.bytes, model_for(spanned), options_.library, options_.protocol)
        .algorithm;
  }
  return default_algorithm(s.collective, topology_, spanned.npu_count() == topology_.npu_count());
}

const LibraryProfile& CollectiveMeetings::library_for(const Topology& spanned) const {
  if (options_.library.collective_bandwidth_one_node.empty()) return options_.library;
  auto [it, added] = inside_one_node_.try_emplace(&spanned, false);
  if (added) it->second = inside_one_nvlink_node(spanned);
  return it->second ? one_node_library_ : options_.library;
}

ModelOptions CollectiveMeetings::model_for(const Topology& spanned) const {
  ModelOptions model;
  model.overhead_s = seconds_from_ps(options_.overhead_ps);
  model.channels = default_channels(spanned, options_.library);
  model.tree_node_gpus = default_tree_node_gpus(spanned, options_.library);
  return model;
}

void CollectiveMeetings::start(Meeting& m, NodeRef last) {
  const WorkloadNode& s = workload_.ranks[last.rank].nodes[last.index];
  const std::size_t group = group_key(s);
  const Topology& spanned = spanned_by(group, m.members);
  const ChoiceKey key{s.collective, s.bytes, group, s.algorithm};
  auto chosen = choices_.find(key);  // collectives alike choose alike: once for all of them
  const AlgorithmKind algorithm = chosen != choices_.end() ? chosen->second.algorithm : algorithm_for(s, spanned);
  try {
    prepare(m, s, spanned, algorithm);
  } catch (const InputError& e) {
    throw InputError(node_context(workload_, last.rank, s) + ": " + e.what());
  }
  if (chosen == choices_.end()) {
    const std::optional<Protocol> protocol = protocol_for(s.collective, algorithm, s.bytes, spanned);
    const std::size_t chunks =
        m.schedule ? chunks_for(s.collective, algorithm, s.bytes, protocol, spanned, *m.schedule) : 1;
    const std::uint32_t channels = collective_call_channels(spanned, s.collective, algorithm, s.bytes, protocol,
                                                            options_.library, model_for(spanned).channels);
    const TimePs ramp_floor_ps = ramp_floor_for(s, algorithm, protocol, spanned, m.schedule.get());
    chosen = choices_.emplace(key, Choice{algorithm, protocol, chunks, channels, ramp_floor_ps}).first;
  }
  const std::optional<Protocol> protocol = chosen->second.protocol;
  record_start(m, s, chosen->second);
  m.release_ps = engine_.now() + chosen->second.ramp_floor_ps;
  if (options_.library.discards(s.collective, s.bytes, m.members.size())) {  // no elements: no time
    for (std::size_t member = 0; member < m.members.size(); ++member) member_done(m, member);
    return;
  }
  const ProtocolCosts costs =
      library_for(spanned).costs(s.collective, algorithm, protocol, s.bytes, spanned.npu_count());
  if (reduces_in_switch(algorithm)) {
    make_in_switch_run(m, group, algorithm, s.bytes, costs,
                       collective_rate_caps(spanned, s.collective, algorithm, s.bytes, protocol, library_for(spanned),
                                            model_for(spanned)));
  } else {
    make_runner(m, s, spanned, algorithm, protocol, chosen->second.chunks, costs);
  }
  Meeting* meeting = &m;
  const auto launch = [meeting] {
    if (meeting->runner) meeting->runner->start();
    if (meeting->in_switch) meeting->in_switch->start();
    meeting->started = true;
  };
  if (costs.call_latency_ps == 0) {
    launch();
  } else {
    engine_.schedule_after(costs.call_latency_ps, launch);  // the library's launch and set-up
  }
}

void CollectiveMeetings::make_runner(Meeting& m, const WorkloadNode& s, const Topology& spanned,
                                     AlgorithmKind algorithm, std::optional<Protocol> protocol, std::size_t chunks,
                                     const ProtocolCosts& costs) {
  RunOptions run;
  run.chunks = chunks;
  run.npu_of_rank = m.members;
  run.on_rank_done = [this, meeting = &m](Rank member) { member_done(*meeting, member); };
  run.library = costs;
  m.channel_rates = channel_rates_of(topology_, *m.schedule, m.members, costs);
  run.channel_rates = m.channel_rates.get();
  run.rate_caps_by_class = collective_rate_caps(spanned, s.collective, algorithm, s.bytes, protocol,
                                                library_for(spanned), model_for(spanned));
  m.runner = std::make_unique<CollectiveRunner>(network_, *m.schedule,
                                                block_space_bytes(s.collective, s.bytes, m.members.size()),
                                                std::move(run));
}

void CollectiveMeetings::make_in_switch_run(Meeting& m, std::size_t group, AlgorithmKind algorithm, Bytes bytes,
                                            const ProtocolCosts& costs, const RateCapsByClass& tree_caps) {
  auto groups = switch_groups_.find(group);
  if (groups == switch_groups_.end()) {
    groups = switch_groups_.emplace(group, in_switch_groups(topology_, m.members)).first;
  }
  std::vector<std::pair<Rank, std::size_t>> member_of_npu;  // (NPU, position in members), by NPU
  for (std::size_t i = 0; i < m.members.size(); ++i) member_of_npu.emplace_back(m.members[i], i);
  std::sort(member_of_npu.begin(), member_of_npu.end());
  const auto on_npu_done = [this, meeting = &m, member_of_npu = std::move(member_of_npu)](Rank npu) {
    const auto it = std::lower_bound(member_of_npu.begin(), member_of_npu.end(), std::pair<Rank, std::size_t>{npu, 0});
    member_done(*meeting, it->second);
  };
  m.in_switch = std::make_unique<InSwitchAllReduceRun>(network_, topology_, groups->second, algorithm, bytes, costs,
                                                       tree_caps, on_npu_done);
}

void CollectiveMeetings::prepare(Meeting& m, const WorkloadNode& s, const Topology& spanned, AlgorithmKind algorithm) {
  const std::size_t g = m.members.size();
  if (reduces_in_switch(algorithm)) {  // 2 flows per member (+2 across nodes): nothing to refuse
    if (const auto reason = inapplicable_reason(s.collective, algorithm, spanned)) throw InputError(*reason);
    return;
  }
  const ModelOptions layout = model_for(spanned);
  m.schedule = make_schedule(s.collective, algorithm, spanned, 0, layout.channels, layout.tree_node_gpus);
  check_footprint(*m.schedule, 1, std::string(algorithm_name(algorithm)) + " " +
                                           std::string(collective_name(s.collective)) + " of " + std::to_string(g) +
                                           " ranks");
}

void CollectiveMeetings::member_done(Meeting& m, std::size_t member) {
  if (engine_.now() < m.release_ps) {  // the ramp holds the call: the meeting lives until then
    engine_.schedule_after(m.release_ps - engine_.now(), [this, meeting = &m, member] { member_done(*meeting, member); });
    return;
  }
  const NodeRef done{m.members[member], *m.node_of_member[member]};
  if (++m.done == m.members.size()) {
    collectives_[m.collective].end_ps = engine_.now();
    // Its run is over: freed once the event that ended it has returned, so that a long
    // trace holds only the collectives under way.
    engine_.schedule_after(0, [this, key = m.key] { meetings_.erase(key); });
  }
  // A collective with nothing to send (one member) finishes inside start(); finishing
  // it in a later event of the same instant keeps a chain of them from recursing
  // make_ready -> finish -> make_ready once per node, which would overflow the stack.
  if (m.started) {
    finish_(done);
  } else {
    engine_.schedule_after(0, [this, done] { finish_(done); });
  }
}

// The library's protocol for one collective: the one asked for, or NCCL's choice by the
// closed form; none for the ideal library.
std::optional<Protocol> CollectiveMeetings::protocol_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes,
                                                        const Topology& spanned) const {
  const LibraryProfile& library = options_.library;
  if (library.ideal() || options_.protocol) return options_.protocol;
  return fastest_protocol(spanned, kind, algorithm, bytes, model_for(spanned), library);
}

std::size_t CollectiveMeetings::chunks_for(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes,
                                           std::optional<Protocol> protocol, const Topology& spanned,
                                           const Schedule& schedule) const {
  if (options_.library.ideal()) return 1;
  const ModelOptions model = costed_model(kind, algorithm, protocol, bytes, spanned);
  return chunks_within_limits(schedule, least_time_chunks(spanned, kind, algorithm, bytes, model));
}

ModelOptions CollectiveMeetings::costed_model(CollectiveKind kind, AlgorithmKind algorithm,
                                              std::optional<Protocol> protocol, Bytes bytes,
                                              const Topology& spanned) const {
  ModelOptions model = model_for(spanned);
  const LibraryProfile& library = library_for(spanned);
  model.library = library.costs(kind, algorithm, protocol, bytes, spanned.npu_count());
  model.rate_caps_by_class = collective_rate_caps(spanned, kind, algorithm, bytes, protocol, library, model);
  return model;
}

TimePs CollectiveMeetings::ramp_floor_for(const WorkloadNode& s, AlgorithmKind algorithm,
                                          std::optional<Protocol> protocol, const Topology& spanned,
                                          const Schedule* schedule) const {
  const std::optional<double> scale = one_node_ramp_scale(spanned, s.collective, s.bytes, options_.library);
  if (!scale) return 0;
  const Bytes top = options_.library.one_node_ramp.back().bytes;
  ModelOptions model = costed_model(s.collective, algorithm, protocol, top, spanned);
  model.chunks = schedule ? chunks_for(s.collective, algorithm, top, protocol, spanned, *schedule) : 1;
  return ps_from_seconds(collective_cost(spanned, s.collective, algorithm, top, model).time_s(0) * *scale);
}

void CollectiveMeetings::record_start(Meeting& m, const WorkloadNode& s, const Choice& choice) {
  m.collective = collectives_.size();
  ReplayedCollective& c = collectives_.emplace_back();
  c.call = {s.collective, s.group, m.members.size(), s.bytes, choice.algorithm, choice.protocol, choice.channels};
  c.first_rank = m.members.front();
  c.first_node = *m.node_of_member.front();
  c.start_ps = engine_.now();
  c.end_ps = c.start_ps;
}

std::string CollectiveMeetings::missing_members(Rank r, const WorkloadNode& s) const {
  const std::size_t group = group_key(s);
  const auto started = started_[r].find(group);
  const std::uint64_t seq = started == started_[r].end() ? 0 : started->second - 1;
  const auto it = meetings_.find({group, seq});
  if (it == meetings_.end()) return "";
  const Meeting& m = *it->second;
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < m.members.size(); ++i) {
    if (!m.node_of_member[i]) missing.push_back(std::to_string(m.members[i]));
  }
  return joined(missing);
}

}  // namespace commsim::replay
