#include "workload/replay.h"

#include <algorithm>
#include <deque>
#include <optional>

#include "base/error.h"
#include "engine/engine.h"
#include "network/network.h"
#include "network/rendezvous.h"
#include "workload/collective_meetings.h"
#include "workload/replay_deadlock.h"

namespace commsim {
namespace {

using replay::NodeRef;

enum class NodeState : std::uint8_t { kWaiting, kReady, kRunning, kDone };

// A node's replay state, kept small (48 bytes): a training step holds millions of them.
struct NodeRun {
  std::uint32_t pending_deps = 0;
  NodeState state = NodeState::kWaiting;
  std::optional<AlgorithmKind> algorithm;  // a collective: what it ran with
  std::optional<Protocol> protocol;
  std::optional<NodeRef> cause;  // what it waited for last
  TimePs ready_ps = 0;
  TimePs start_ps = 0;
  TimePs end_ps = 0;
};
static_assert(sizeof(NodeRun) <= 48, "NodeRun grew: a training step holds millions");

struct RankRun {
  std::vector<NodeRun> nodes;
  // Node i's dependents, in file order: dependents[first_dependent[i] .. first_dependent[i + 1]).
  std::vector<std::uint32_t> first_dependent;
  std::vector<std::uint32_t> dependents;
  std::deque<std::uint32_t> compute_queue;
  bool computing = false;
  std::optional<NodeRef> last_compute;
  std::uint32_t active_comm = 0;
  TimePs last_change = 0;
  RankReplay report;
};

class Replayer {
 public:
  Replayer(const Workload& w, const Topology& t, const ReplayOptions& o)
      : w_(w),
        options_(o),
        network_(engine_, t, o.overhead_ps, o.library.costs(o.protocol)),
        rendezvous_(network_),
        meetings_(w, t, o, engine_, network_, [this](NodeRef n) { finish(n); }),
        ranks_(w.rank_count()) {
    for (Rank r = 0; r < w.rank_count(); ++r) {
      const RankTrace& trace = w.ranks[r];
      // Skipped nodes are resolved here, once: they have no place in the graph, so none
      // can finish inside make_ready and release a dependent twice.
      link_dependents(ranks_[r], simulated_dependencies(trace));
    }
    if (options_.record_link_busy) {
      network_.set_flow_observer([this](RouteView route, TimePs start, TimePs end) {
        for (const ChannelId c : route) link_busy_.push_back({c, start, end});
      });
    }
  }

  // Counts each node's dependencies and lays out its dependents (a counting sort by
  // dependency, so each list stays in file order).
  static void link_dependents(RankRun& run, const std::vector<std::vector<std::size_t>>& deps) {
    const std::size_t n = deps.size();
    run.nodes.resize(n);
    run.first_dependent.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
      run.nodes[i].pending_deps = static_cast<std::uint32_t>(deps[i].size());
      for (const std::size_t d : deps[i]) ++run.first_dependent[d + 1];
    }
    for (std::size_t i = 0; i < n; ++i) run.first_dependent[i + 1] += run.first_dependent[i];
    run.dependents.resize(run.first_dependent[n]);
    std::vector<std::uint32_t> next(run.first_dependent.begin(), run.first_dependent.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      for (const std::size_t d : deps[i]) run.dependents[next[d]++] = static_cast<std::uint32_t>(i);
    }
  }

  ReplayResult run() {
    // Collected before any starts: a node that completes at once (a one-member collective)
    // releases its dependents, which must not then be found ready here a second time.
    std::vector<NodeRef> ready;
    for (Rank r = 0; r < ranks_.size(); ++r) {
      for (std::uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        if (simulated({r, i}) && ranks_[r].nodes[i].pending_deps == 0) ready.push_back({r, i});
      }
    }
    for (const NodeRef n : ready) make_ready(n, std::nullopt);
    engine_.run();
    report_deadlock();
    return result();
  }

 private:
  const WorkloadNode& spec(NodeRef n) const { return w_.ranks[n.rank].nodes[n.index]; }
  NodeRun& node(NodeRef n) { return ranks_[n.rank].nodes[n.index]; }
  const NodeRun& node(NodeRef n) const { return ranks_[n.rank].nodes[n.index]; }
  /// Skipped nodes stay in the node lists (indices are the trace's) but never run.
  bool simulated(NodeRef n) const { return spec(n).kind != NodeKind::kSkipped; }

  // Exposed communication accrues while a rank computes nothing and waits on communication.
  void account(Rank r) {
    RankRun& run = ranks_[r];
    if (!run.computing && run.active_comm > 0) run.report.exposed_comm_ps += engine_.now() - run.last_change;
    run.last_change = engine_.now();
  }

  void make_ready(NodeRef n, std::optional<NodeRef> cause) {
    NodeRun& run = node(n);
    const WorkloadNode& s = spec(n);
    // A node runs once: a second make_ready would start it (and release its dependents) again.
    COMMSIM_CHECK(run.state == NodeState::kWaiting && s.kind != NodeKind::kSkipped,
                  node_context(w_, n.rank, s) + " made ready in state " +
                      std::to_string(static_cast<int>(run.state)) + " (a node runs once; skipped ones never)");
    run.state = NodeState::kReady;
    run.ready_ps = engine_.now();
    run.cause = cause;
    if (s.kind == NodeKind::kCompute) {
      ranks_[n.rank].compute_queue.push_back(n.index);
      try_compute(n.rank);
    } else {
      start_communication(n);
    }
  }

  void try_compute(Rank r) {
    RankRun& run = ranks_[r];
    if (run.computing || run.compute_queue.empty()) return;
    const NodeRef n{r, run.compute_queue.front()};
    run.compute_queue.pop_front();
    NodeRun& nr = node(n);
    // Waiting for the compute resource makes the previous compute node the cause.
    if (nr.ready_ps < engine_.now() && run.last_compute) nr.cause = run.last_compute;
    account(r);
    run.computing = true;
    nr.state = NodeState::kRunning;
    nr.start_ps = engine_.now();
    try {
      engine_.schedule_after(spec(n).duration_ps, [this, n] { finish(n); });
    } catch (const InputError& e) {  // beyond the clock's range: say which node took it there
      throw InputError(node_context(w_, n.rank, spec(n)) + ": " + e.what());
    }
  }

  void start_communication(NodeRef n) {
    NodeRun& nr = node(n);
    const WorkloadNode& s = spec(n);
    account(n.rank);
    ++ranks_[n.rank].active_comm;
    nr.state = NodeState::kRunning;
    nr.start_ps = engine_.now();
    if (s.kind == NodeKind::kCollective) return join_collective(n);
    if (!s.peer) return;  // a send or receive with no peer never matches: reported at the end
    const std::string label = node_context(w_, n.rank, s);
    if (s.kind == NodeKind::kSend) {
      // On arrival the rendezvous completes the send, then the receive (rendezvous.cpp),
      // so the receive can name the send that fed it.
      rendezvous_.post_send(n.rank, *s.peer, s.tag, s.bytes, [this, n] {
        last_send_ = n;
        finish(n);
      }, label);
    } else {
      Callback on_arrival = [this, n] {
        if (node(last_send_).start_ps > node(n).start_ps) node(n).cause = last_send_;
        finish(n);
      };
      // A receive of 0 bytes does not say its size (WorkloadNode::bytes): any send fits.
      if (s.bytes == 0) {
        rendezvous_.post_recv(n.rank, *s.peer, s.tag, std::move(on_arrival), label);
      } else {
        rendezvous_.post_recv(n.rank, *s.peer, s.tag, s.bytes, std::move(on_arrival), label);
      }
    }
  }

  void join_collective(NodeRef n) {
    const auto waited = meetings_.join(n);
    if (!waited) return;
    for (const NodeRef member : *waited) node(member).cause = n;
    // What the collective ran with, on every member's node (their timeline slices say it).
    const CollectiveCall& call = meetings_.last_started().call;
    for (const NodeRef member : *waited) set_collective_facts(node(member), call);
    set_collective_facts(node(n), call);
  }

  static void set_collective_facts(NodeRun& member, const CollectiveCall& call) {
    member.algorithm = call.algorithm;
    member.protocol = call.protocol;
  }

  void finish(NodeRef n) {
    NodeRun& nr = node(n);
    RankRun& run = ranks_[n.rank];
    const WorkloadNode& s = spec(n);
    COMMSIM_CHECK(nr.state == NodeState::kRunning, node_context(w_, n.rank, s) + " finished without running");
    account(n.rank);
    nr.state = NodeState::kDone;
    nr.end_ps = engine_.now();
    if (s.kind == NodeKind::kCompute) {
      run.computing = false;
      run.report.compute_ps += nr.end_ps - nr.start_ps;
      run.last_compute = n;
    } else {
      --run.active_comm;
    }
    run.report.finish_ps = std::max(run.report.finish_ps, nr.end_ps);
    if (options_.on_node_done) options_.on_node_done(node_work(w_, s));
    for (std::uint32_t k = run.first_dependent[n.index]; k < run.first_dependent[n.index + 1]; ++k) {
      const std::uint32_t d = run.dependents[k];
      if (--run.nodes[d].pending_deps == 0) make_ready({n.rank, d}, n);
    }
    try_compute(n.rank);
  }

  // Nodes that started and never finished, and how many wait behind them.
  void report_deadlock() const {
    std::vector<NodeRef> blocked;
    std::size_t waiting_behind = 0;
    for (Rank r = 0; r < ranks_.size(); ++r) {
      for (std::uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const NodeState state = ranks_[r].nodes[i].state;
        if (state == NodeState::kDone || !simulated({r, i})) continue;
        if (state == NodeState::kRunning) {
          blocked.push_back({r, i});
        } else {
          ++waiting_behind;
        }
      }
    }
    replay::report_deadlock(w_, blocked, waiting_behind, meetings_);
  }

  ReplayResult result() {
    ReplayResult out;
    out.total_ps = engine_.now();
    if (options_.record_timeline) out.timeline.reserve(node_count());
    std::optional<NodeRef> last;
    for (Rank r = 0; r < ranks_.size(); ++r) {
      out.ranks.push_back(ranks_[r].report);
      out.total_ps = std::max(out.total_ps, ranks_[r].report.finish_ps);
      for (std::uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const NodeRun& nr = ranks_[r].nodes[i];
        if (!simulated({r, i})) continue;  // no time of its own
        if (!last || nr.end_ps > node(*last).end_ps) last = NodeRef{r, i};
        if (options_.record_timeline) out.timeline.push_back({r, i, nr.start_ps, nr.end_ps, nr.algorithm, nr.protocol});
      }
    }
    for (std::optional<NodeRef> n = last; n; n = node(*n).cause) {
      out.critical_path.push_back({n->rank, n->index, node(*n).start_ps, node(*n).end_ps});
    }
    std::reverse(out.critical_path.begin(), out.critical_path.end());
    out.collectives = meetings_.take_collectives();
    out.link_busy = merged_link_busy();
    if (options_.record_link_stats) out.link_stats = network_.link_stats(out.total_ps);
    return out;
  }

  std::size_t node_count() const {
    std::size_t n = 0;
    for (const RankRun& run : ranks_) n += run.nodes.size();
    return n;
  }

  // Busy intervals per channel: flows sorted by channel and start, overlapping ones merged
  // (in place: the flows' spans are the longest list a replay keeps).
  std::vector<LinkSpan> merged_link_busy() {
    std::sort(link_busy_.begin(), link_busy_.end(), [](const LinkSpan& a, const LinkSpan& b) {
      return a.channel != b.channel ? a.channel < b.channel : a.start_ps < b.start_ps;
    });
    std::size_t merged = 0;
    for (const LinkSpan& s : link_busy_) {
      LinkSpan* last = merged > 0 ? &link_busy_[merged - 1] : nullptr;
      if (last && last->channel == s.channel && s.start_ps <= last->end_ps) {
        last->end_ps = std::max(last->end_ps, s.end_ps);
        ++last->flows;
      } else {
        link_busy_[merged++] = s;
      }
    }
    link_busy_.resize(merged);
    link_busy_.shrink_to_fit();
    return std::move(link_busy_);
  }

  const Workload& w_;
  const ReplayOptions& options_;
  Engine engine_;
  Network network_;
  Rendezvous rendezvous_;
  replay::CollectiveMeetings meetings_;
  std::vector<RankRun> ranks_;
  NodeRef last_send_{};
  std::vector<LinkSpan> link_busy_;
};

}  // namespace

double node_work(const Workload& workload, const WorkloadNode& node) {
  switch (node.kind) {
    case NodeKind::kSkipped:
      return 0;
    case NodeKind::kCollective:
      return static_cast<double>(node.group ? workload.groups[*node.group].ranks.size() : workload.rank_count());
    default:
      return 1;
  }
}

double replay_work(const Workload& workload) {
  double work = 0;
  for (const RankTrace& rank : workload.ranks) {
    for (const WorkloadNode& node : rank.nodes) work += node_work(workload, node);
  }
  return work;
}

ReplayResult replay_workload(const Workload& workload, const Topology& topology, const ReplayOptions& options) {
  check_against_topology(workload, topology.npu_count());
  Replayer replayer(workload, topology, options);
  return replayer.run();
}

}  // namespace commsim
