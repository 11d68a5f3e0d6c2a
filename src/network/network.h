#pragma once
// Flow-level network model (DESIGN.md section 3, "Messages (flows)").
//
// A message of S bytes from rank a to rank b:
//   1. waits the per-message overhead o (kernel launch, protocol set-up) and the library's
//      step latency for the route's class of link (topology/library.h);
//   2. flows as a fluid through every channel of its route at once, at a max-min fair
//      rate shared with all other active flows (and at most its own rate cap);
//   3. arrives one path latency after its last byte left.
// On an idle route that is exactly T = o + sum(link latency) + S / min(link bandwidth).
//
// Whenever flows start or finish, rates are recomputed once per instant (at the engine's
// batch end), over the flows that share resources, transitively, with those that changed;
// each affected flow's remaining bytes are first advanced at its old rate up to now. On a
// busy network (local_rating_min_flows() active flows or more) the flows on the changed
// resources are first rated alone, the others held at their rates, and kept if the whole
// allocation passes max-min fairness's test (local_rating.cpp); a pipelined tree's one
// component of thousands of flows then costs a few dozen a change, not all of them. A flow
// that starts alone on every resource of its route is rated as it starts, while its records
// are at hand; if the instant ends with nothing else changed (a lockstep ring), its
// completion is posted then, in the order the general path would post it.
// A full-duplex link is two resources (one per direction); a half-duplex link is one, whose
// capacity is its both-ways efficiency of its bandwidth while flows cross it both ways.
//
// A message to oneself (src == dst) has an empty route and arrives after o.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

#include "base/error.h"
#include "base/slot_pool.h"
#include "base/small_id_list.h"
#include "base/units.h"
#include "engine/engine.h"
#include "network/link_stats.h"
#include "network/max_min_fair.h"
#include "network/route_store.h"
#include "network/transport.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {


class Network : public Transport {
 public:
  /// `library`: what a communication library adds to every message (topology/library.h).
  Network(Engine& engine, const Topology& topology, TimePs overhead_ps = 0, ProtocolCosts library = {});
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  /// Sends `bytes` from `src` to `dst`; `on_arrival` is called when the last byte arrives.
  void send(Rank src, Rank dst, Bytes bytes, EventCall on_arrival, SendOptions options) override;
  using Transport::send;
  void send_along(const Route& route, Bytes bytes, EventCall on_arrival, SendOptions options) override;
  using Transport::send_along;
  TimePs now() const override { return engine_.now(); }
  void schedule_after(TimePs delay, Callback callback) override {
    engine_.schedule_after(delay, std::move(callback));
  }
  EventCall once(Callback callback) override { return engine_.once(std::move(callback)); }

  /// Called when a flow's last byte has left: its route and when it flowed (for link
  /// timelines). Zero-byte messages and messages to oneself have no flow.
  using FlowObserver = std::function<void(RouteView route, TimePs start_ps, TimePs end_ps)>;
  /// Set before any flow starts.
  void set_flow_observer(FlowObserver observer) {
    COMMSIM_CHECK(active_flows_ == 0, "a flow observer set while flows are on the network");
    flow_observer_ = std::move(observer);
  }
  /// What every link has carried so far (link_stats.h), with T = `simulated_ps` (flows still
  /// on a link count as busy up to T).
  LinkStats link_stats(TimePs simulated_ps) const;

  Engine& engine() { return engine_; }
  const Topology& topology() const { return topology_; }
  TimePs overhead_ps() const { return overhead_ps_; }
  std::size_t active_flows() const { return active_flows_; }
  /// How many times rates were recomputed (once per instant with changes at most).
  std::uint64_t rate_recomputations() const { return recomputations_; }
  /// How many flow rates those recomputations evaluated in all (a measure of their cost:
  /// flows that share nothing with a change are not re-evaluated).
  std::uint64_t flow_rate_evaluations() const { return flow_rate_evaluations_; }
  /// How many recomputations rated the flows near the change alone (local_rating.cpp).
  std::uint64_t local_ratings() const { return local_ratings_; }

  /// The least number of active flows at which a change is first rated locally; 0 rates
  /// every shared change so (the tests compare both ways).
  static constexpr std::size_t kLocalRatingMinFlows = 256;
  std::size_t local_rating_min_flows() const { return local_rating_min_flows_; }
  void set_local_rating_min_flows(std::size_t flows) { local_rating_min_flows_ = flows; }

 private:
  using FlowId = std::uint32_t;
  // A flow's state, 80 bytes with a route of up to two hops (longer: 8 bytes a hop more in
  // routes_): an all-to-all has a million of them at once.
  struct Flow {
    double remaining_bytes = 0;
    BandwidthBps rate_Bps = 0;
    BandwidthBps cap_Bps = 0;
    TimePs last_update = 0;
    TimePs latency_ps = 0;
    TimePs completion_ps = kNoCompletion;  // when its last byte leaves at its rate
    RouteStore::Handle route;
    std::uint32_t mark = 0;  // recompute_rates' visit mark
    ListedCall on_arrival;
  };
  static_assert(sizeof(Flow) <= 80, "a flow's state is at most 80 bytes (its route apart)");
  static constexpr TimePs kNoCompletion = -1;  // not flowing (or released)
  // A flow's start, after its message's wait: a typed event with the flow's id.
  struct FlowStart final : EventTarget {
    explicit FlowStart(Network& n) : network(n) {}
    void on_event(std::uint32_t flow) override { network.start_flow(flow); }
    Network& network;
  };
  // A flow's completion, its last byte leaving. Completions are posted, not scheduled: a
  // rate change posts the new due time and leaves the old entry, which no longer stands
  // (the flow is due at another time, or gone); any entry at the due time finishes it.
  struct FlowCompletion final : EventTarget {
    explicit FlowCompletion(Network& n) : network(n) {}
    void on_event(std::uint32_t flow) override { network.finish_flow(flow); }
    bool stands(std::uint32_t flow, TimePs at) const override { return network.flows_[flow].completion_ps == at; }
    /// The flow's record, or (`near`) the records of its route's resources. (Here and not in
    /// a helper: a function that only prefetches has no effect the compiler must keep.)
    void prefetch(std::uint32_t flow, bool near) const override;
    Network& network;
  };
  // What a flow's launch reads of a link direction besides its bandwidth (in its Resource
  // record); fixed during a run. A topology has few distinct ones, so each channel keeps the
  // index of its own (hop_kind_, 4 bytes a channel: a 16,384-GPU fabric's fit in cache).
  struct HopKind {
    TimePs latency_ps = 0;
    LinkClass link_class = LinkClass::kNvlink;
    auto operator<=>(const HopKind&) const = default;
  };
  // What changes as flows start and finish, per channel c, in one cache line, so that a hop
  // of a flow's launch, start, finish or rating reads one record: c's bandwidth, the flows
  // in c's direction, and, when c is a resource (a full-duplex link's direction, or channel
  // 2l of a half-duplex link l, which holds both directions), the flows on it, its visit
  // mark and its statistics.
  struct alignas(64) Resource {
    SmallIdList flows;  // a flow's position in it: routes_
    BandwidthBps capacity_Bps = 0;  // c's bandwidth, and the resource's capacity
    std::uint32_t resource = 0;       // channel c's resource: c, or 2l of a half-duplex link
    std::uint32_t channel_flows = 0;  // active flows in channel c's direction
    std::uint32_t mark = 0;           // recompute_rates' visit mark, or dirty_mark_
    std::uint32_t peak_flows = 0;
    LinkUse use;
  };
  static_assert(sizeof(Resource) == 64);
  RouteView route_of(FlowId id) const { return routes_.channels(flows_[id].route); }
  std::uint32_t resource_of(ChannelId channel) const { return resources_[channel].resource; }
  /// Marks `resource` changed in this instant, once.
  void mark_dirty(std::uint32_t resource);
  /// A fresh visit mark; on the rare wrap of the counter every mark is cleared first.
  std::uint32_t next_mark();
  /// A flow on `route` (copied).
  FlowId new_flow(RouteView route);
  /// Starts flow `id`, after the per-message overhead and step latency.
  void launch(FlowId id, Bytes bytes, EventCall on_arrival, SendOptions options);
  void start_flow(FlowId id);
  /// A flow's rate if it is alone on every resource of its route: its bottleneck, or its
  /// cap; none if it shares one.
  std::optional<BandwidthBps> lone_rate(const Flow& flow) const;
  /// Rates flow `id`, just started, now if it is alone on every resource of its route and
  /// none of them changed before in this instant (so that it is rated in start order).
  /// Returns whether it did.
  bool rate_lone_start(FlowId id, RouteView route);
  void finish_flow(FlowId id);
  void recompute_rates();
  /// Rates the flows on the changed resources if none shares a resource; false (nothing
  /// done) otherwise.
  bool rate_unshared_flows();
  void rate_shared_flows();
  /// Adds flow `id` to problem_, its resources at `problem_index` (a resource's index in
  /// the problem, by resource). A cap at or above the least capacity on the flow's route
  /// never binds (the flow's rate is at most that capacity's share), so it is left out.
  void add_to_problem(FlowId id, const std::vector<std::uint32_t>& problem_index);
  /// Rates the flows near the changed resources with the others held, if max-min fairness
  /// holds for all then; false (nothing changed) if it gave up (local_rating.cpp).
  bool rate_locally();
  /// Adds flow `id` to the local set, once.
  void add_local_flow(FlowId id);
  /// A flow's rate: its candidate rate if the local set was rated with it, else its own.
  BandwidthBps candidate_rate(FlowId id) const;
  /// One round: the local set's rates, the others held, into component_rates_; false if a
  /// resource had no capacity left for them (its flows joined the set instead).
  bool solve_local_flows();
  enum class LocalCheck { kFair, kGrew, kGaveUp };
  /// Tests fairness on every flow sharing a resource with the local set; the flows that
  /// fail join it (kGrew). Each flow tested takes one of `work_left` (none left: kGaveUp).
  LocalCheck check_local_rates(std::size_t& work_left);
  /// Whether flow `id` at `rate` has a bottleneck at the candidate rates: its cap, or a full
  /// resource on its route where no flow runs faster.
  bool has_bottleneck(FlowId id, BandwidthBps rate, std::uint32_t mark);
  /// Whether a resource is full and its fastest flow's rate, at the candidate rates; kept
  /// for the resources carrying `mark`.
  struct ResourceLoad {
    bool full = false;
    BandwidthBps fastest_Bps = 0;
  };
  const ResourceLoad& load_of(std::uint32_t resource, std::uint32_t mark);
  /// A resource's capacity with the flows on it now: a half-duplex link carrying flows both
  /// ways has its both-ways efficiency of its bandwidth (LinkParams).
  BandwidthBps capacity_now(std::uint32_t resource) const;
  /// Advances the flow's bytes at its old rate to `now`, then moves it to `rate`.
  void set_rate(FlowId id, BandwidthBps rate, TimePs now);
  void release_flow(FlowId id);
  /// transfer_time_ps(bytes, rate), remembering the last answer: flows in lockstep ask the
  /// same one in turn, and it costs a division and a rounding in a row.
  TimePs transfer_time(double bytes, BandwidthBps rate) {
    if (bytes != last_transfer_.bytes || rate != last_transfer_.rate_Bps) {
      last_transfer_ = {bytes, rate, transfer_time_ps(bytes, rate)};
    }
    return last_transfer_.ps;
  }
  /// Takes flow `id` out of the list of flows on each resource of its route, in O(1) a hop:
  /// the last flow of the list takes its place.
  void leave_resources(FlowId id);

  Engine& engine_;
  const Topology& topology_;
  TimePs overhead_ps_;
  ProtocolCosts library_;
  std::vector<HopKind> hop_kinds_;       // the distinct ones
  std::vector<std::uint32_t> hop_kind_;  // per channel: its index in hop_kinds_; channel 2l
                                         // is link l from its first end, 2l + 1 back
  std::vector<Resource> resources_;  // per channel; resource 2l: both of a half-duplex link
  SlotPool<Flow> flows_;
  RouteStore routes_;
  Route scratch_route_;  // where send() has the topology write a route
  std::vector<std::uint32_t> dirty_resources_;
  // The flows rated as they started in this instant (rate_lone_start), with their due
  // times, in start order; and whether anything else changed resources in the instant.
  struct LoneStart {
    TimePs due_ps;
    FlowId flow;
  };
  std::vector<LoneStart> lone_starts_;
  bool other_changes_ = false;
  struct TransferTime {
    double bytes = -1;  // none yet
    BandwidthBps rate_Bps = 0;
    TimePs ps = 0;
  };
  TransferTime last_transfer_;  // transfer_time()'s last answer
  std::size_t active_flows_ = 0;
  std::uint64_t recomputations_ = 0;
  std::uint64_t flow_rate_evaluations_ = 0;
  std::uint64_t local_ratings_ = 0;
  std::size_t local_rating_min_flows_ = kLocalRatingMinFlows;
  FlowObserver flow_observer_;
  std::vector<TimePs> flow_start_ps_;  // per flow id, with an observer only
  FlowStart flow_start_{*this};
  FlowCompletion flow_end_{*this};

  // Marks: a resource changed in this instant carries dirty_mark_, so that it is listed
  // once; recompute_rates() then marks what it visits with fresh values, and the next
  // instant's dirty_mark_ is fresh again.
  std::uint32_t epoch_ = 1;
  std::uint32_t dirty_mark_ = 1;
  // Working memory of recompute_rates(), kept to avoid allocation, except after a component
  // of more than this many flows (an all-to-all's million: 50 bytes a flow), whose solve
  // costs far more than allocating again.
  static constexpr std::size_t kLargeComponentFlows = std::size_t{1} << 16;
  std::vector<std::uint32_t> resource_local_;  // per resource: its index in problem_ (whole component)
  std::vector<std::uint32_t> component_resources_;
  std::vector<FlowId> component_flows_;
  std::vector<BandwidthBps> component_rates_;
  std::vector<std::uint32_t> local_route_;
  MaxMinProblem problem_;
  MaxMinSolver solver_;
  // rate_locally()'s set: its flows in order, each flow's place in it (kNotLocal outside),
  // and the problem index of each resource on their routes (kNotLocal outside).
  static constexpr std::uint32_t kNotLocal = UINT32_MAX;
  std::vector<FlowId> local_flows_;
  std::vector<std::uint32_t> local_place_;
  std::vector<std::uint32_t> local_problem_index_;
  std::vector<ResourceLoad> load_;  // load_of's, per resource
};

}  // namespace commsim
