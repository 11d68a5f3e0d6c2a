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

}  // namespace

std::string_view schedule_name(PipelineSchedule schedule) { return name_in(kScheduleNames, schedule); }

PipelineSchedule parse_schedule(std::string_view name, std::string_view what) {
  return parse_in(kScheduleNames, name, what, "schedule");
}

SchedulePrograms::SchedulePrograms(PipelineShape shape) : shape_(std::move(shape)) {
  const PipelineShape& s = shape_;
  if (s.stages < 1) throw InputError("pipeline: stages must be at least 1");
  if (s.microbatches < 1) throw InputError("pipeline: micro-batches must be at least 1");
  if (s.virtual_stages < 1) throw InputError("pipeline: virtual stages must be at least 1");
  if (s.schedule != PipelineSchedule::kInterleaved && s.virtual_stages != 1) {
    throw InputError("pipeline: virtual stages apply to the interleaved schedule only");
  }
  if (s.schedule == PipelineSchedule::kInterleaved && s.microbatches % s.stages != 0) {
    throw InputError("pipeline: the interleaved schedule needs micro-batches (" + std::to_string(s.microbatches) +
                     ") to be a multiple of stages (" + std::to_string(s.stages) + ")");
  }
  if (s.forward_ps.size() != s.stages || s.backward_ps.size() != s.stages) {
    throw InputError("pipeline: forward and backward times must be given for each of the " +
                     std::to_string(s.stages) + " stages");
  }
}

// Every schedule runs w forwards (warm-up), then alternates one forward and one backward,
// then runs the backwards left (cool-down); they differ in w.
std::uint32_t SchedulePrograms::warmup(std::uint32_t d) const {
  const std::uint32_t p = shape_.stages;
  const std::uint32_t m = shape_.microbatches;
  const std::uint32_t v = shape_.virtual_stages;
  switch (shape_.schedule) {
    case PipelineSchedule::kGPipe:
      return m;  // all forwards, then all backwards
    case PipelineSchedule::k1F1B:
      return std::min(p - d - 1, m);  // enough forwards to fill the pipeline below this stage
    case PipelineSchedule::kInterleaved:
      return m == p ? m * v : std::min(m * v, (p - d - 1) * 2 + (v - 1) * p);
  }
  return m;
}

// Device d's k-th compute task. Megatron-LM's interleaved 1F1B: the j-th forward of a device
// is micro-batch (j / pv) p + j mod p on chunk (j / p) mod v; backwards visit chunks in
// reverse. With v = 1 the j-th forward is micro-batch j.
SchedulePrograms::Task SchedulePrograms::task(std::uint32_t d, std::uint32_t k) const {
  const std::uint32_t p = shape_.stages;
  const std::uint32_t v = shape_.virtual_stages;
  const std::uint32_t total = shape_.microbatches * v;  // forwards, and backwards
  const std::uint32_t w = warmup(d);
  const auto microbatch = [&](std::uint32_t j) { return j / (p * v) * p + j % p; };
  const auto forward = [&](std::uint32_t j) { return Task{true, microbatch(j), j / p % v}; };
  const auto backward = [&](std::uint32_t j) { return Task{false, microbatch(j), v - 1 - j / p % v}; };
  if (k < w) return forward(k);
  if (k < 2 * total - w) {
    const std::uint32_t i = (k - w) / 2;
    return (k - w) % 2 == 0 ? forward(w + i) : backward(i);
  }
  return backward(k - total);
}

std::size_t SchedulePrograms::length(std::uint32_t) const { return 2 * std::size_t{task_count()} + 1; }

// Position 0: the call receiving task 0's input; 2k + 1: task k; 2k + 2: the call sending
// task k's output and receiving task k + 1's input.
std::optional<Action> SchedulePrograms::at(std::uint32_t d, std::size_t position) const {
  if (position % 2 == 1) {
    const Task t = task(d, static_cast<std::uint32_t>(position / 2));
    const TimePs duration = (t.forward ? shape_.forward_ps[d] : shape_.backward_ps[d]) / shape_.virtual_stages;
    return Action{t.forward ? Action::Kind::kForward : Action::Kind::kBackward, t.microbatch, t.chunk, duration, {}};
  }
  std::vector<P2POp> ops;
  if (position == 0) {
    add_input(task(d, 0), d, ops);
  } else {
    const auto k = static_cast<std::uint32_t>(position / 2 - 1);
    add_output(task(d, k), d, ops);
    if (k + 1 < task_count()) add_input(task(d, k + 1), d, ops);
  }
  if (ops.empty()) return std::nullopt;
  return Action{Action::Kind::kCall, 0, 0, 0, std::move(ops)};
}

// The activation of micro-batch mb between virtual stages b and b + 1 goes forward from b's
// device to b + 1's; its gradient backward. One tag per (micro-batch, boundary, direction).
P2POp SchedulePrograms::op(P2POp::Kind kind, P2POp::Direction direction, std::uint32_t mb, std::uint32_t b) const {
  const std::uint32_t p = shape_.stages;
  const bool forward = direction == P2POp::Direction::kForward;
  const bool send = kind == P2POp::Kind::kSend;
  const std::uint32_t peer = (send == forward ? b + 1 : b) % p;
  const std::int64_t virtual_stages = std::int64_t{p} * shape_.virtual_stages;
  const std::int64_t tag = (std::int64_t{mb} * virtual_stages + b) * 2 + (forward ? 0 : 1);
  return {kind, direction, peer, send ? shape_.activation_bytes : 0, tag, mb, b};
}

// A forward needs the previous stage's activation; a backward the next stage's gradient.
void SchedulePrograms::add_input(const Task& t, std::uint32_t d, std::vector<P2POp>& ops) const {
  const std::uint32_t s = t.chunk * shape_.stages + d;
  const std::uint32_t stages = shape_.stages * shape_.virtual_stages;
  if (t.forward && s > 0) ops.push_back(op(P2POp::Kind::kRecv, P2POp::Direction::kForward, t.microbatch, s - 1));
  if (!t.forward && s + 1 < stages) ops.push_back(op(P2POp::Kind::kRecv, P2POp::Direction::kBackward, t.microbatch, s));
}

void SchedulePrograms::add_output(const Task& t, std::uint32_t d, std::vector<P2POp>& ops) const {
  const std::uint32_t s = t.chunk * shape_.stages + d;
  const std::uint32_t stages = shape_.stages * shape_.virtual_stages;
  if (t.forward && s + 1 < stages) ops.push_back(op(P2POp::Kind::kSend, P2POp::Direction::kForward, t.microbatch, s));
  if (!t.forward && s > 0) ops.push_back(op(P2POp::Kind::kSend, P2POp::Direction::kBackward, t.microbatch, s - 1));
}

std::vector<DeviceProgram> make_pipeline_programs(const PipelineShape& shape) {
  const SchedulePrograms source(shape);
  std::vector<DeviceProgram> programs;
  for (std::uint32_t d = 0; d < shape.stages; ++d) programs.push_back(stored_program(source, d));
  return programs;
}

}  // namespace commsim
