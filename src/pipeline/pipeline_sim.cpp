#include "pipeline/pipeline_sim.h"

#include <algorithm>

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
  Executor(const ProgramSource& programs, const PipelineRunOptions& options,
           Engine& engine, Rendezvous& rendezvous)
      : programs_(programs), options_(options), engine_(engine), rendezvous_(rendezvous),
        devices_(programs.device_count()),
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

  /// What each unfinished stage waits on, a line each; empty when every stage finished.
  std::vector<std::string> deadlock_report() const {
    std::vector<std::string> report;
    for (std::uint32_t d = 0; d < devices_.size(); ++d) {
      const Device& dev = devices_[d];
      if (dev.finished) continue;
      std::string line = "stage " + std::to_string(d) + " (NPU " + std::to_string(npu(d)) + ")";
      if (dev.current) {
        line += " waits in a call at step " + std::to_string(dev.step) + " of its program";
        std::vector<std::string> waits;
        for (const P2POp& op : dev.waiting_on) waits.push_back(describe(op));
        std::sort(waits.begin(), waits.end());
        for (const std::string& w : waits) line += ", for " + w;
      } else {
        line += " waits for its sends to be received";
      }
      report.push_back(line);
    }
    return report;
  }

 private:
  struct Device {
    std::size_t position = 0;             // of the next action in the device's program
    std::optional<Action> current;        // the action it runs; empty once its program is over
    std::size_t step = 0;                 // actions finished
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
    std::vector<P2POp> waiting_on;        // the current call's operations not yet done
  };

  Rank npu(std::uint32_t d) const {
    return options_.npu_of_device.empty() ? d : options_.npu_of_device[d];
  }

  void record(TimelineEvent event) {
    if (options_.record_timeline) timeline_.push_back(std::move(event));
  }

  void record_compute(std::uint32_t d, bool forward, std::uint32_t microbatch, std::uint32_t chunk, TimePs start) {
    if (!options_.record_timeline) return;
    std::string name(forward ? "F" : "B");
    name += std::to_string(microbatch);
    if (chunk > 0) name += '.' + std::to_string(chunk);
    record({d, forward ? "forward" : "backward", std::move(name), start, engine_.now(), microbatch, chunk, std::nullopt});
  }

  void record_p2p(std::uint32_t d, const P2POp& op, TimePs posted, Bytes bytes) {
    if (!options_.record_timeline) return;
    const bool send = op.kind == P2POp::Kind::kSend;
    TimelineEvent event{d, send ? "send" : "recv", (send ? "send " : "recv ") + describe(op), posted, engine_.now(), 0, 0, op};
    event.op->bytes = bytes;
    record(std::move(event));
  }

  // Device d's next action, generated now; empty at the end of its program.
  std::optional<Action> next_action(std::uint32_t d) {
    Device& dev = devices_[d];
    while (dev.position < programs_.length(d)) {
      if (std::optional<Action> action = programs_.at(d, dev.position++)) return action;
    }
    return std::nullopt;
  }

  void advance(std::uint32_t d) {
    Device& dev = devices_[d];
    dev.current = next_action(d);
    if (!dev.current) {
      maybe_finish(d);
      return;
    }
    const Action& action = *dev.current;
    if (action.kind == Action::Kind::kCall) {
      start_call(d, action);
      return;
    }
    const bool forward = action.kind == Action::Kind::kForward;
    if (forward) dev.peak = std::max(dev.peak, ++dev.in_flight);
    const TimePs start = engine_.now();
    engine_.schedule_after(action.duration_ps, [this, d, forward, start, mb = action.microbatch, chunk = action.chunk] {
      Device& done = devices_[d];
      done.busy_ps += engine_.now() - start;
      if (!forward) --done.in_flight;
      record_compute(d, forward, mb, chunk, start);
      ++done.step;
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
                                 [this, d, op = call.ops[i]] { post(d, op, false); });
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
        engine_.schedule_after(launch_ps_, [this, d, ops = call.ops] {
          for (const P2POp& op : ops) post(d, op, false);
          op_done(d);
        });
        return;
    }
  }

  void next_sequential_op(std::uint32_t d) {
    Device& dev = devices_[d];
    const Action& call = *dev.current;
    if (dev.next_op == dev.op_order.size()) {
      end_call(d);
      return;
    }
    const P2POp& op = call.ops[dev.op_order[dev.next_op++]];
    dev.blocking = 1;
    engine_.schedule_after(launch_ps_, [this, d, op] { post(d, op, true); });
  }

  // Posts an operation; `blocking` sends hold the device until received.
  void post(std::uint32_t d, const P2POp& op, bool blocking) {
    Device& dev = devices_[d];
    const TimePs posted = engine_.now();
    if (op.kind == P2POp::Kind::kRecv) {
      dev.waiting_on.push_back(op);
      rendezvous_.post_recv(npu(d), npu(op.peer), op.tag, [this, d, posted, op] {
        forget(devices_[d], op);
        record_p2p(d, op, posted, last_arrived_bytes_);
        op_done(d);
      }, describe(op));
      return;
    }
    if (blocking) {
      dev.waiting_on.push_back(op);
    } else {
      ++dev.background_sends;
    }
    rendezvous_.post_send(npu(d), npu(op.peer), op.tag, op.bytes, [this, d, posted, blocking, op] {
      Device& sender = devices_[d];
      last_arrived_bytes_ = op.bytes;
      record_p2p(d, op, posted, op.bytes);
      if (blocking) {
        forget(sender, op);
        op_done(d);
      } else {
        --sender.background_sends;
        maybe_finish(d);
      }
    }, describe(op));
  }

  static void forget(Device& dev, const P2POp& op) {
    const auto it = std::find_if(dev.waiting_on.begin(), dev.waiting_on.end(), [&](const P2POp& w) {
      return w.kind == op.kind && w.peer == op.peer && w.tag == op.tag;
    });
    COMMSIM_CHECK(it != dev.waiting_on.end(), "a pipeline operation finished that its device did not wait for");
    dev.waiting_on.erase(it);
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
    ++dev.step;
    advance(d);
  }

  void maybe_finish(std::uint32_t d) {
    Device& dev = devices_[d];
    if (dev.finished || dev.current || dev.background_sends > 0) return;
    dev.finished = true;
    dev.finish_ps = engine_.now();
  }

  const ProgramSource& programs_;
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
  return simulate_pipeline(topology, StoredPrograms(programs), options);
}

PipelineResult simulate_pipeline(const Topology& topology, const ProgramSource& programs,
                                 const PipelineRunOptions& options) {
  if (programs.device_count() > topology.npu_count()) {
    throw InputError("pipeline: " + std::to_string(programs.device_count()) + " stages do not fit on the " +
                     std::to_string(topology.npu_count()) + " NPUs of topology '" + topology.name() + "'");
  }
  if (!options.npu_of_device.empty()) {
    COMMSIM_CHECK(options.npu_of_device.size() == programs.device_count(), "placement of the wrong size");
  }
  Engine engine;
  // o (and the library's call latency) is paid per launch here, not per message.
  Network network(engine, topology, 0, options.library);
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
  if (options.record_link_stats) result.link_stats = network.link_stats(result.step_ps);
  return result;
}

}  // namespace commsim
