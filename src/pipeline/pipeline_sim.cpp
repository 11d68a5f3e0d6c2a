#include "pipeline/pipeline_sim.h"

#include <algorithm>
#include <set>

#include "base/error.h"
#include "base/name_table.h"
#include "engine/engine.h"
#include "network/network.h"
#include "network/rendezvous.h"

namespace commsim {
namespace {

constexpr NameTable<P2PMode, 3> kP2PModeNames{{
    {P2PMode::kSequential, "sequential"},
    {P2PMode::kOverlapped, "overlapped"},
    {P2PMode::kBatched, "batched"},
}};

class Executor {
 public:
  Executor(const std::vector<DeviceProgram>& programs, const PipelineRunOptions& options,
           Engine& engine, Rendezvous& rendezvous)
      : programs_(programs), options_(options), engine_(engine), rendezvous_(rendezvous),
        devices_(programs.size()),
        launch_ps_(add_times(options.overhead_ps, options.library.call_latency_ps, "P2P launch overhead")) {}

  void start() {
    for (std::uint32_t d = 0; d < devices_.size(); ++d) advance(d);
  }

  PipelineResult result() const {
    PipelineResult r;
    r.step_ps = engine_.now();
    for (std::uint32_t d = 0; d < devices_.size(); ++d) {
      const Device& dev = devices_[d];
      r.devices.push_back({npu(d), dev.finish_ps, dev.busy_ps, dev.wait_ps, dev.peak});
    }
    r.timeline = timeline_;
    return r;
  }

  /// Empty if every device finished; else what each unfinished device waits on.
  /// What each unfinished stage waits on, a line each; empty when every stage finished.
  std::vector<std::string> deadlock_report() const {
    std::vector<std::string> report;
    for (std::uint32_t d = 0; d < devices_.size(); ++d) {
      const Device& dev = devices_[d];
      if (dev.finished) continue;
      std::string line = "stage " + std::to_string(d) + " (NPU " + std::to_string(npu(d)) + ")";
      if (dev.pc < programs_[d].size()) {
        line += " waits in a call at step " + std::to_string(dev.pc) + " of its program";
        for (const std::string& w : dev.waiting_on) line += ", for " + w;
      } else {
        line += " waits for its sends to be received";
      }
      report.push_back(line);
    }
    return report;
  }

 private:
  struct Device {
    std::size_t pc = 0;
    bool finished = false;
    TimePs finish_ps = 0;
    TimePs busy_ps = 0;
    TimePs wait_ps = 0;
    TimePs call_start = 0;
    std::uint32_t in_flight = 0;
    std::uint32_t peak = 0;
    std::uint32_t blocking = 0;           // operations of the current call it waits for
    std::uint32_t background_sends = 0;   // sends still in flight after their call
    std::size_t next_op = 0;              // sequential: next operation of the call
    std::vector<std::size_t> op_order;    // sequential order of the call's operations
    std::multiset<std::string> waiting_on;
  };

  Rank npu(std::uint32_t d) const {
    return options_.npu_of_device.empty() ? d : options_.npu_of_device[d];
  }

  void record(TimelineEvent event) {
    if (options_.record_timeline) timeline_.push_back(std::move(event));
  }

  void record_compute(std::uint32_t d, const Action& action, TimePs start) {
    if (!options_.record_timeline) return;
    const bool forward = action.kind == Action::Kind::kForward;
    std::string name(forward ? "F" : "B");
    name += std::to_string(action.microbatch);
    if (action.chunk > 0) name += '.' + std::to_string(action.chunk);
    record({d, forward ? "forward" : "backward", std::move(name), start, engine_.now(), action.microbatch, action.chunk,
            std::nullopt});
  }

  void record_p2p(std::uint32_t d, const P2POp& op, TimePs posted, Bytes bytes) {
    if (!options_.record_timeline) return;
    const bool send = op.kind == P2POp::Kind::kSend;
    TimelineEvent event{d, send ? "send" : "recv", (send ? "send " : "recv ") + op.what, posted, engine_.now(), 0, 0, op};
    event.op->bytes = bytes;
    record(std::move(event));
  }

  void advance(std::uint32_t d) {
    Device& dev = devices_[d];
    const DeviceProgram& program = programs_[d];
    if (dev.pc == program.size()) {
      maybe_finish(d);
      return;
    }
    const Action& action = program[dev.pc];
    if (action.kind == Action::Kind::kCall) {
      start_call(d, action);
      return;
    }
    const bool forward = action.kind == Action::Kind::kForward;
    if (forward) dev.peak = std::max(dev.peak, ++dev.in_flight);
    const TimePs start = engine_.now();
    engine_.schedule_after(action.duration_ps, [this, d, forward, start, &action] {
      Device& done = devices_[d];
      done.busy_ps += engine_.now() - start;
      if (!forward) --done.in_flight;
      record_compute(d, action, start);
      ++done.pc;
      advance(d);
    });
  }

  void start_call(std::uint32_t d, const Action& call) {
    Device& dev = devices_[d];
    dev.call_start = engine_.now();
    dev.blocking = 0;
    const std::size_t n = call.ops.size();
    switch (options_.mode) {
      case P2PMode::kSequential: {
        // Megatron-LM's order for blocking operations, so that neighbours never both block
        // on a send nobody receives: even devices send forward, receive from the previous
        // stage, send backward, receive from the next; odd devices receive from the
        // previous, send forward, receive from the next, send backward.
        using K = P2POp::Kind;
        using D = P2POp::Direction;
        static constexpr std::pair<K, D> kEven[] = {
            {K::kSend, D::kForward}, {K::kRecv, D::kForward}, {K::kSend, D::kBackward}, {K::kRecv, D::kBackward}};
        static constexpr std::pair<K, D> kOdd[] = {
            {K::kRecv, D::kForward}, {K::kSend, D::kForward}, {K::kRecv, D::kBackward}, {K::kSend, D::kBackward}};
        // With send_first (to provoke deadlocks in tests) every device sends first.
        static constexpr std::pair<K, D> kSendFirst[] = {
            {K::kSend, D::kForward}, {K::kSend, D::kBackward}, {K::kRecv, D::kForward}, {K::kRecv, D::kBackward}};
        const auto& order = options_.send_first ? kSendFirst : (d % 2 == 0 ? kEven : kOdd);
        dev.op_order.clear();
        for (const auto& [kind, direction] : order) {
          for (std::size_t i = 0; i < n; ++i) {
            if (call.ops[i].kind == kind && call.ops[i].direction == direction) dev.op_order.push_back(i);
          }
        }
        dev.next_op = 0;
        next_sequential_op(d);
        return;
      }
      case P2PMode::kOverlapped:
        // Launches follow one another, o each; each operation is posted when launched.
        for (std::size_t i = 0; i < n; ++i) {
          if (call.ops[i].kind == P2POp::Kind::kRecv) ++dev.blocking;
          engine_.schedule_after(multiply_time(launch_ps_, i + 1, "P2P launch overhead"),
                                 [this, d, i, &call] { post(d, call.ops[i], false); });
        }
        ++dev.blocking;  // the launches themselves
        engine_.schedule_after(multiply_time(launch_ps_, n, "P2P launch overhead"),
                               [this, d] { op_done(d); });
        return;
      case P2PMode::kBatched:
        for (const P2POp& op : call.ops) {
          if (op.kind == P2POp::Kind::kRecv) ++dev.blocking;
        }
        ++dev.blocking;
        engine_.schedule_after(launch_ps_, [this, d, &call] {
          for (const P2POp& op : call.ops) post(d, op, false);
          op_done(d);
        });
        return;
    }
  }

  void next_sequential_op(std::uint32_t d) {
    Device& dev = devices_[d];
    const Action& call = programs_[d][dev.pc];
    if (dev.next_op == dev.op_order.size()) {
      end_call(d);
      return;
    }
    const P2POp& op = call.ops[dev.op_order[dev.next_op++]];
    dev.blocking = 1;
    engine_.schedule_after(launch_ps_, [this, d, &op] { post(d, op, true); });
  }

  // Posts an operation; `blocking` sends hold the device until received.
  void post(std::uint32_t d, const P2POp& op, bool blocking) {
    Device& dev = devices_[d];
    const TimePs posted = engine_.now();
    const std::string label = op.what;
    dev.waiting_on.insert(label);
    if (op.kind == P2POp::Kind::kRecv) {
      rendezvous_.post_recv(npu(d), npu(op.peer), op.tag, [this, d, label, posted, &op] {
        devices_[d].waiting_on.erase(devices_[d].waiting_on.find(label));
        record_p2p(d, op, posted, last_arrived_bytes_);
        op_done(d);
      }, label);
      return;
    }
    if (!blocking) {
      dev.waiting_on.erase(dev.waiting_on.find(label));
      ++dev.background_sends;
    }
    rendezvous_.post_send(npu(d), npu(op.peer), op.tag, op.bytes, [this, d, label, posted, blocking, &op] {
      Device& sender = devices_[d];
      last_arrived_bytes_ = op.bytes;
      record_p2p(d, op, posted, op.bytes);
      if (blocking) {
        sender.waiting_on.erase(sender.waiting_on.find(label));
        op_done(d);
      } else {
        --sender.background_sends;
        maybe_finish(d);
      }
    }, label);
  }

  void op_done(std::uint32_t d) {
    Device& dev = devices_[d];
    if (--dev.blocking > 0) return;
    if (options_.mode == P2PMode::kSequential) {
      next_sequential_op(d);
    } else {
      end_call(d);
    }
  }

  void end_call(std::uint32_t d) {
    Device& dev = devices_[d];
    dev.wait_ps += engine_.now() - dev.call_start;
    ++dev.pc;
    advance(d);
  }

  void maybe_finish(std::uint32_t d) {
    Device& dev = devices_[d];
    if (dev.finished || dev.pc < programs_[d].size() || dev.background_sends > 0) return;
    dev.finished = true;
    dev.finish_ps = engine_.now();
  }

  const std::vector<DeviceProgram>& programs_;
  const PipelineRunOptions& options_;
  Engine& engine_;
  Rendezvous& rendezvous_;
  std::vector<Device> devices_;
  std::vector<TimelineEvent> timeline_;
  /// The bytes of the send that arrived last: the rendezvous completes a send, then the
  /// receive it matched (rendezvous.h), which so learns its size.
  Bytes last_arrived_bytes_ = 0;
  TimePs launch_ps_;  // o + the library's call latency, per launch
};

}  // namespace

std::string_view p2p_mode_name(P2PMode mode) { return name_in(kP2PModeNames, mode); }

P2PMode parse_p2p_mode(std::string_view name, std::string_view what) {
  return parse_in(kP2PModeNames, name, what, "mode");
}

PipelineResult simulate_pipeline(const Topology& topology, const std::vector<DeviceProgram>& programs,
                                 const PipelineRunOptions& options) {
  if (programs.size() > topology.npu_count()) {
    throw InputError("pipeline: " + std::to_string(programs.size()) + " stages do not fit on the " +
                     std::to_string(topology.npu_count()) + " NPUs of topology '" + topology.name() + "'");
  }
  if (!options.npu_of_device.empty()) {
    COMMSIM_CHECK(options.npu_of_device.size() == programs.size(), "placement of the wrong size");
  }
  Engine engine;
  // o (and the library's call latency) is paid per launch here, not per message.
  Network network(engine, topology, 0, options.library);
  std::optional<LinkStatsRecorder> recorder;
  if (options.record_link_stats) recorder.emplace(topology);
  network.set_link_stats(recorder ? &*recorder : nullptr);
  Rendezvous rendezvous(network);
  Executor executor(programs, options, engine, rendezvous);
  executor.start();
  engine.run();
  std::vector<std::string> stuck = executor.deadlock_report();
  if (!stuck.empty()) {
    const std::string waiting = std::to_string(stuck.size()) + (stuck.size() == 1 ? " stage waits" : " stages wait");
    for (const std::string& u : rendezvous.unmatched()) stuck.push_back(u);
    throw deadlock_error("pipeline deadlock: " + waiting + " on communication that never comes", stuck);
  }
  PipelineResult result = executor.result();
  if (recorder) result.link_stats = recorder->stats(result.step_ps);
  return result;
}

}  // namespace commsim
