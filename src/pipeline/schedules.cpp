#include "pipeline/schedules.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<PipelineSchedule, 3> kScheduleNames{{
    {PipelineSchedule::kGPipe, "gpipe"},
    {PipelineSchedule::k1F1B, "1f1b"},
    {PipelineSchedule::kInterleaved, "interleaved"},
}};

struct Task {
  bool forward;
  std::uint32_t microbatch;
  std::uint32_t chunk;
};

// The order in which device d runs its compute tasks.
std::vector<Task> task_order(const PipelineShape& s, std::uint32_t d) {
  const std::uint32_t p = s.stages;
  const std::uint32_t m = s.microbatches;
  std::vector<Task> order;
  switch (s.schedule) {
    case PipelineSchedule::kGPipe:
      for (std::uint32_t mb = 0; mb < m; ++mb) order.push_back({true, mb, 0});
      for (std::uint32_t mb = 0; mb < m; ++mb) order.push_back({false, mb, 0});
      return order;
    case PipelineSchedule::k1F1B: {
      // Warm-up: enough forwards to fill the pipeline below this stage.
      const std::uint32_t warmup = std::min(p - d - 1, m);
      for (std::uint32_t mb = 0; mb < warmup; ++mb) order.push_back({true, mb, 0});
      for (std::uint32_t i = 0; i + warmup < m; ++i) {
        order.push_back({true, warmup + i, 0});
        order.push_back({false, i, 0});
      }
      for (std::uint32_t mb = m - warmup; mb < m; ++mb) order.push_back({false, mb, 0});
      return order;
    }
    case PipelineSchedule::kInterleaved: {
      // Megatron-LM's interleaved 1F1B: the k-th forward of a device is micro-batch
      // (k / pv) p + k mod p on chunk (k / p) mod v; backwards visit chunks in reverse.
      const std::uint32_t v = s.virtual_stages;
      const std::uint32_t total = m * v;
      const std::uint32_t warmup =
          m == p ? total : std::min(total, (p - d - 1) * 2 + (v - 1) * p);
      const auto microbatch = [&](std::uint32_t k) { return k / (p * v) * p + k % p; };
      const auto forward = [&](std::uint32_t k) { return Task{true, microbatch(k), k / p % v}; };
      const auto backward = [&](std::uint32_t k) {
        return Task{false, microbatch(k), v - 1 - k / p % v};
      };
      for (std::uint32_t k = 0; k < warmup; ++k) order.push_back(forward(k));
      for (std::uint32_t i = 0; i + warmup < total; ++i) {
        order.push_back(forward(warmup + i));
        order.push_back(backward(i));
      }
      for (std::uint32_t k = total - warmup; k < total; ++k) order.push_back(backward(k));
      return order;
    }
  }
  return order;
}

class ProgramBuilder {
 public:
  explicit ProgramBuilder(const PipelineShape& shape)
      : s_(shape), virtual_stages_(shape.stages * shape.virtual_stages) {}

  DeviceProgram build(std::uint32_t d) const {
    const std::vector<Task> order = task_order(s_, d);
    DeviceProgram program;
    std::vector<P2POp> ops;
    if (!order.empty()) add_input(order.front(), d, ops);
    flush(ops, program);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Task& t = order[i];
      const std::uint32_t v = s_.virtual_stages;
      program.push_back({t.forward ? Action::Kind::kForward : Action::Kind::kBackward,
                         t.microbatch, t.chunk,
                         (t.forward ? s_.forward_ps[d] : s_.backward_ps[d]) / v, {}});
      add_output(t, d, ops);
      if (i + 1 < order.size()) add_input(order[i + 1], d, ops);
      flush(ops, program);
    }
    return program;
  }

 private:
  std::uint32_t stage_of(const Task& t, std::uint32_t d) const { return t.chunk * s_.stages + d; }
  std::uint32_t device_of(std::uint32_t stage) const { return stage % s_.stages; }
  /// One tag per (micro-batch, boundary between stages b and b+1, direction).
  std::int64_t tag(std::uint32_t mb, std::uint32_t boundary, bool gradient) const {
    return (static_cast<std::int64_t>(mb) * virtual_stages_ + boundary) * 2 + (gradient ? 1 : 0);
  }
  static std::string what(bool gradient, std::uint32_t mb, std::uint32_t boundary) {
    return std::string(gradient ? "gradient" : "activation") + " of micro-batch " +
           std::to_string(mb) + " between stages " + std::to_string(boundary) + " and " +
           std::to_string(boundary + 1);
  }

  // A forward needs the previous stage's activation; a backward the next stage's gradient.
  void add_input(const Task& t, std::uint32_t d, std::vector<P2POp>& ops) const {
    const std::uint32_t s = stage_of(t, d);
    if (t.forward && s > 0) {
      ops.push_back({P2POp::Kind::kRecv, P2POp::Direction::kForward, device_of(s - 1), 0, tag(t.microbatch, s - 1, false),
                     what(false, t.microbatch, s - 1)});
    } else if (!t.forward && s + 1 < virtual_stages_) {
      ops.push_back({P2POp::Kind::kRecv, P2POp::Direction::kBackward, device_of(s + 1), 0, tag(t.microbatch, s, true),
                     what(true, t.microbatch, s)});
    }
  }

  void add_output(const Task& t, std::uint32_t d, std::vector<P2POp>& ops) const {
    const std::uint32_t s = stage_of(t, d);
    if (t.forward && s + 1 < virtual_stages_) {
      ops.push_back({P2POp::Kind::kSend, P2POp::Direction::kForward, device_of(s + 1), s_.activation_bytes,
                     tag(t.microbatch, s, false), what(false, t.microbatch, s)});
    } else if (!t.forward && s > 0) {
      ops.push_back({P2POp::Kind::kSend, P2POp::Direction::kBackward, device_of(s - 1), s_.activation_bytes,
                     tag(t.microbatch, s - 1, true), what(true, t.microbatch, s - 1)});
    }
  }

  static void flush(std::vector<P2POp>& ops, DeviceProgram& program) {
    if (ops.empty()) return;
    program.push_back({Action::Kind::kCall, 0, 0, 0, std::move(ops)});
    ops.clear();
  }

  const PipelineShape& s_;
  std::uint32_t virtual_stages_;
};

}  // namespace

std::string_view schedule_name(PipelineSchedule schedule) { return name_in(kScheduleNames, schedule); }

PipelineSchedule parse_schedule(std::string_view name, std::string_view what) {
  return parse_in(kScheduleNames, name, what, "schedule");
}

std::vector<DeviceProgram> make_pipeline_programs(const PipelineShape& shape) {
  if (shape.stages < 1) throw InputError("pipeline: stages must be at least 1");
  if (shape.microbatches < 1) throw InputError("pipeline: micro-batches must be at least 1");
  if (shape.virtual_stages < 1) throw InputError("pipeline: virtual stages must be at least 1");
  if (shape.schedule != PipelineSchedule::kInterleaved && shape.virtual_stages != 1) {
    throw InputError("pipeline: virtual stages apply to the interleaved schedule only");
  }
  if (shape.schedule == PipelineSchedule::kInterleaved && shape.microbatches % shape.stages != 0) {
    throw InputError("pipeline: the interleaved schedule needs micro-batches (" +
                     std::to_string(shape.microbatches) + ") to be a multiple of stages (" +
                     std::to_string(shape.stages) + ")");
  }
  if (shape.forward_ps.size() != shape.stages || shape.backward_ps.size() != shape.stages) {
    throw InputError("pipeline: forward and backward times must be given for each of the " +
                     std::to_string(shape.stages) + " stages");
  }
  const ProgramBuilder builder(shape);
  std::vector<DeviceProgram> programs;
  for (std::uint32_t d = 0; d < shape.stages; ++d) programs.push_back(builder.build(d));
  return programs;
}

}  // namespace commsim
