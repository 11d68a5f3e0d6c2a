#include "workload/replay.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/footprint.h"
#include "collective/runner.h"
#include "model/collective_model.h"
#include "engine/engine.h"
#include "network/network.h"
#include "network/rendezvous.h"

namespace commsim {
namespace {

struct NodeRef {
  Rank rank;
  std::uint32_t index;
};

enum class NodeState : std::uint8_t { kWaiting, kReady, kRunning, kDone };

struct NodeRun {
  std::uint32_t pending_deps = 0;
  std::vector<std::uint32_t> dependents;  // in file order
  NodeState state = NodeState::kWaiting;
  TimePs ready_ps = 0;
  TimePs start_ps = 0;
  TimePs end_ps = 0;
  std::optional<NodeRef> cause;  // what it waited for last
  std::optional<AlgorithmKind> algorithm;  // a collective: what it ran with
  std::optional<Protocol> protocol;
};

struct RankRun {
  std::vector<NodeRun> nodes;
  std::deque<std::uint32_t> compute_queue;
  bool computing = false;
  std::optional<NodeRef> last_compute;
  std::uint32_t active_comm = 0;
  TimePs last_change = 0;
  RankReplay report;
  std::map<std::size_t, std::uint64_t> collectives_started;  // per group
};

// One collective instance: the k-th of a group, met by every member.
struct Meeting {
  const WorkloadNode* first = nullptr;
  NodeRef first_ref{};
  std::vector<Rank> members;
  std::vector<std::optional<std::uint32_t>> node_of_member;  // by position in members
  std::size_t arrived = 0;
  NodeRef last_arrival{};
  std::unique_ptr<Schedule> schedule;
  std::unique_ptr<CollectiveRunner> runner;
  bool started = false;  // runner->start() has returned
};

constexpr std::size_t kEveryRank = SIZE_MAX;

class Replayer {
 public:
  Replayer(const Workload& w, const Topology& t, const ReplayOptions& o)
      : w_(w), topology_(t), options_(o), network_(engine_, t, o.overhead_ps, o.library.costs(o.protocol)), rendezvous_(network_),
        ranks_(w.rank_count()) {
    for (Rank r = 0; r < w.rank_count(); ++r) {
      const RankTrace& trace = w.ranks[r];
      RankRun& run = ranks_[r];
      run.nodes.resize(trace.nodes.size());
      // Skipped nodes are resolved here, once: they have no place in the graph, so none
      // can finish inside make_ready and release a dependent twice.
      const auto deps = simulated_dependencies(trace);
      for (std::uint32_t i = 0; i < trace.nodes.size(); ++i) {
        for (const std::size_t d : deps[i]) {
          run.nodes[d].dependents.push_back(i);
          ++run.nodes[i].pending_deps;
        }
      }
    }
    if (options_.record_timeline) {
      network_.set_flow_observer([this](const Route& route, TimePs start, TimePs end) {
        for (const ChannelId c : route) link_busy_.push_back({c, start, end});
      });
    }
    if (options_.record_link_stats) {
      link_stats_.emplace(t);
      network_.set_link_stats(&*link_stats_);
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
    const WorkloadNode& s = spec(n);
    const std::size_t group = s.group.value_or(kEveryRank);
    const std::uint64_t seq = ranks_[n.rank].collectives_started[group]++;
    Meeting& m = meetings_[{group, seq}];
    if (!m.first) {
      m.first = &s;
      m.first_ref = n;
      m.members = w_.members(s);
      m.node_of_member.resize(m.members.size());
    } else if (m.first->collective != s.collective || m.first->bytes != s.bytes) {
      throw DeadlockError("mismatched collective: " + node_context(w_, n.rank, s) + " is " +
                          std::string(collective_name(s.collective)) + " of " + std::to_string(s.bytes) +
                          " B, but " + node_context(w_, m.first_ref.rank, *m.first) + " is " +
                          std::string(collective_name(m.first->collective)) + " of " +
                          std::to_string(m.first->bytes) + " B");
    }
    const auto pos = std::find(m.members.begin(), m.members.end(), n.rank) - m.members.begin();
    m.node_of_member[pos] = n.index;
    ++m.arrived;
    m.last_arrival = n;
    if (m.arrived < m.members.size()) return;

    // Everyone is here: the last to arrive held the others up.
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      const NodeRef member{m.members[i], *m.node_of_member[i]};
      if (member.rank != n.rank) node(member).cause = n;
    }
    const std::size_t g = m.members.size();
    const bool whole = g == topology_.npu_count();
    const auto chosen = options_.algorithms.find(s.collective);
    const AlgorithmKind algorithm =
        s.algorithm ? *s.algorithm
                    : chosen != options_.algorithms.end() ? chosen->second : default_algorithm(s.collective, topology_, whole);
    try {
      m.schedule = make_group_schedule(s.collective, algorithm, topology_, g, 0);
      check_footprint(*m.schedule, 1, std::string(algorithm_name(algorithm)) + " " +
                                          std::string(collective_name(s.collective)) + " of " +
                                          std::to_string(g) + " ranks");
    } catch (const InputError& e) {
      throw InputError(node_context(w_, n.rank, s) + ": " + e.what());
    }
    RunOptions run;
    run.npu_of_rank = m.members;
    Meeting* meeting = &m;
    run.on_rank_done = [this, meeting](Rank member) {
      const NodeRef done{meeting->members[member], *meeting->node_of_member[member]};
      // A collective with nothing to send (one member) finishes inside start(); finishing
      // it in a later event of the same instant keeps a chain of them from recursing
      // make_ready -> finish -> make_ready once per node, which would overflow the stack.
      if (meeting->started) {
        finish(done);
      } else {
        engine_.schedule_after(0, [this, done] { finish(done); });
      }
    };
    const std::optional<Protocol> protocol = collective_protocol(s.collective, algorithm, s.bytes);
    for (std::size_t i = 0; i < m.members.size(); ++i) {
      NodeRun& member = node({m.members[i], *m.node_of_member[i]});
      member.algorithm = algorithm;
      member.protocol = protocol;
    }
    run.library = options_.library.costs(protocol);
    const TimePs call_ps = run.library->call_latency_ps;
    m.runner = std::make_unique<CollectiveRunner>(network_, *m.schedule, block_space_bytes(s.collective, s.bytes, g),
                                                  std::move(run));
    const auto start = [meeting] {
      meeting->runner->start();
      meeting->started = true;
    };
    if (call_ps == 0) {
      start();
    } else {
      engine_.schedule_after(call_ps, start);  // the library's launch and set-up
    }
  }

  // The library's protocol for one collective: the one asked for, or NCCL's choice.
  std::optional<Protocol> collective_protocol(CollectiveKind kind, AlgorithmKind algorithm, Bytes bytes) const {
    const LibraryProfile& library = options_.library;
    if (library.ideal() || options_.protocol) return options_.protocol;
    ModelOptions model;
    model.overhead_s = seconds_from_ps(options_.overhead_ps);
    return fastest_protocol(topology_, kind, algorithm, bytes, model, library);
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
    if (options_.on_node_done) options_.on_node_done();
    for (const std::uint32_t d : nr.dependents) {
      if (--run.nodes[d].pending_deps == 0) make_ready({n.rank, d}, n);
    }
    try_compute(n.rank);
  }

  void report_deadlock() const {
    std::vector<std::string> report;
    std::size_t blocked_behind = 0;
    for (Rank r = 0; r < ranks_.size(); ++r) {
      for (std::uint32_t i = 0; i < ranks_[r].nodes.size(); ++i) {
        const NodeRun& nr = ranks_[r].nodes[i];
        if (nr.state == NodeState::kDone || !simulated({r, i})) continue;
        if (nr.state == NodeState::kWaiting || nr.state == NodeState::kReady) {
          ++blocked_behind;
          continue;
        }
        const WorkloadNode& s = w_.ranks[r].nodes[i];
        report.push_back(node_context(w_, r, s) + ": " + why_blocked(r, s));
      }
    }
    if (report.empty()) return;
    const std::string waiting = std::to_string(report.size()) + (report.size() == 1 ? " node waits" : " nodes wait");
    if (blocked_behind > 0) report.push_back("and " + std::to_string(blocked_behind) + " nodes waiting on these");
    throw deadlock_error("replay deadlock: " + waiting + " on communication that never comes", report);
  }

  std::string why_blocked(Rank r, const WorkloadNode& s) const {
    const std::string tag = " tag " + std::to_string(s.tag);
    switch (s.kind) {
      case NodeKind::kSend:
        return s.peer ? "send of " + std::to_string(s.bytes) + " B to rank " + std::to_string(*s.peer) + tag +
                            " has no matching receive"
                      : "send with no destination rank has no matching receive";
      case NodeKind::kRecv:
        return s.peer ? "receive from rank " + std::to_string(*s.peer) + tag + " has no matching send"
                      : "receive with no source rank has no matching send";
      case NodeKind::kCollective: {
        const std::size_t group = s.group.value_or(kEveryRank);
        const auto started = ranks_[r].collectives_started.find(group);
        const std::uint64_t seq = started == ranks_[r].collectives_started.end() ? 0 : started->second - 1;
        const auto it = meetings_.find({group, seq});
        std::string missing;
        if (it != meetings_.end()) {
          const Meeting& m = it->second;
          for (std::size_t i = 0; i < m.members.size(); ++i) {
            if (m.node_of_member[i]) continue;
            if (!missing.empty()) missing += ", ";
            missing += std::to_string(m.members[i]);
          }
        }
        std::string text(collective_name(s.collective));
        if (s.group) {
          text += " of group '";
          text += w_.groups[*s.group].name;
          text += "'";
        } else {
          text += " of all ranks";
        }
        return text + " waits for rank(s) " + missing + " that never reach it";
      }
      default: return "did not finish";
    }
  }

  ReplayResult result() {
    ReplayResult out;
    out.total_ps = engine_.now();
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
    out.link_busy = merged_link_busy();
    if (link_stats_) out.link_stats = link_stats_->stats(out.total_ps);
    return out;
  }

  // Busy intervals per channel: flows sorted by channel and start, overlapping ones merged.
  std::vector<LinkSpan> merged_link_busy() {
    std::sort(link_busy_.begin(), link_busy_.end(), [](const LinkSpan& a, const LinkSpan& b) {
      return a.channel != b.channel ? a.channel < b.channel : a.start_ps < b.start_ps;
    });
    std::vector<LinkSpan> merged;
    for (const LinkSpan& s : link_busy_) {
      if (!merged.empty() && merged.back().channel == s.channel && s.start_ps <= merged.back().end_ps) {
        merged.back().end_ps = std::max(merged.back().end_ps, s.end_ps);
        ++merged.back().flows;
      } else {
        merged.push_back(s);
      }
    }
    return merged;
  }

  const Workload& w_;
  const Topology& topology_;
  const ReplayOptions& options_;
  Engine engine_;
  Network network_;
  Rendezvous rendezvous_;
  std::vector<RankRun> ranks_;
  std::map<std::pair<std::size_t, std::uint64_t>, Meeting> meetings_;
  NodeRef last_send_{};
  std::vector<LinkSpan> link_busy_;
  std::optional<LinkStatsRecorder> link_stats_;
};

}  // namespace

ReplayResult replay_workload(const Workload& workload, const Topology& topology, const ReplayOptions& options) {
  check_against_topology(workload, topology.npu_count());
  Replayer replayer(workload, topology, options);
  return replayer.run();
}

}  // namespace commsim
