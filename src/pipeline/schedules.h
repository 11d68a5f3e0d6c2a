#pragma once
// Pipeline schedules as device programs.
//
//   gpipe        all forwards, then all backwards (Huang et al., GPipe, 2019)
//   1f1b         warm-up forwards, then one forward one backward, then cool-down backwards
//                (Narayanan et al., PipeDream-Flush, 2021; Megatron-LM's default)
//   interleaved  1F1B with v model chunks per device, chunk c of device d being virtual
//                stage c*p + d, micro-batches in groups of p (Narayanan et al., "Efficient
//                Large-Scale Language Model Training on GPU Clusters", SC 2021)
//
// Between consecutive virtual stages the forward activation goes to the next stage's device
// and the gradient back, `activation_bytes` each. After each compute task, one call carries
// the send of its output and the receive the next task needs (so a 1F1B steady state has
// two calls of two operations per micro-batch, as Megatron's send_forward_recv_backward and
// send_backward_recv_forward).

#include <cstdint>
#include <string_view>
#include <vector>

#include "pipeline/program.h"

namespace commsim {

enum class PipelineSchedule { kGPipe, k1F1B, kInterleaved };

std::string_view schedule_name(PipelineSchedule schedule);
/// "gpipe", "1f1b", "interleaved"; anything else is an InputError naming `what`.
PipelineSchedule parse_schedule(std::string_view name, std::string_view what);

struct PipelineShape {
  PipelineSchedule schedule = PipelineSchedule::k1F1B;
  std::uint32_t stages = 4;          // p: devices
  std::uint32_t microbatches = 8;    // m
  std::uint32_t virtual_stages = 1;  // v: model chunks per device (interleaved)
  std::vector<TimePs> forward_ps;    // per device: forward of one micro-batch on all its chunks
  std::vector<TimePs> backward_ps;
  Bytes activation_bytes = 0;
};

/// A schedule's device programs, generated action by action in O(1) each: the source holds
/// the shape only, whatever the number of micro-batches. Device d's program is a call
/// receiving its first task's input, then for each task k its compute and a call with k's
/// output and task k+1's input (a position with neither holds no action).
class SchedulePrograms final : public ProgramSource {
 public:
  /// Throws InputError if the shape does not fit the schedule (interleaved needs m a
  /// multiple of p; times must be given for every device).
  explicit SchedulePrograms(PipelineShape shape);
  std::uint32_t device_count() const override { return shape_.stages; }
  std::size_t length(std::uint32_t device) const override;
  std::optional<Action> at(std::uint32_t device, std::size_t position) const override;

 private:
  struct Task {
    bool forward;
    std::uint32_t microbatch;
    std::uint32_t chunk;
  };
  std::uint32_t task_count() const { return 2 * shape_.microbatches * shape_.virtual_stages; }
  std::uint32_t warmup(std::uint32_t device) const;
  Task task(std::uint32_t device, std::uint32_t k) const;
  void add_input(const Task& t, std::uint32_t device, std::vector<P2POp>& ops) const;
  void add_output(const Task& t, std::uint32_t device, std::vector<P2POp>& ops) const;
  P2POp op(P2POp::Kind kind, P2POp::Direction direction, std::uint32_t microbatch, std::uint32_t boundary) const;

  PipelineShape shape_;
};

/// Every device's program, stored (SchedulePrograms read whole).
std::vector<DeviceProgram> make_pipeline_programs(const PipelineShape& shape);

}  // namespace commsim
