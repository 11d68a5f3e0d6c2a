#include "study/pipeline_study.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {
namespace {

std::vector<Rank> npu_of_stage(const PipelineStudyOptions& o) {
  std::vector<Rank> npus = o.run.npu_of_device;
  if (npus.empty()) {
    for (Rank d = 0; d < o.shape.stages; ++d) npus.push_back(d);
  }
  return npus;
}

PipelineModelInput model_input(const Topology& topology, const PipelineShape& shape, const PipelineStudyOptions& o,
                               const ProtocolCosts& costs) {
  PipelineModelInput input;
  input.stages = shape.stages;
  input.microbatches = shape.microbatches;
  input.virtual_stages = shape.virtual_stages;
  for (std::uint32_t s = 0; s < shape.stages; ++s) {
    input.forward_s.push_back(seconds_from_ps(shape.forward_ps[s]));
    input.backward_s.push_back(seconds_from_ps(shape.backward_ps[s]));
  }
  input.p2p_s = boundary_transfer_s(topology, npu_of_stage(o), shape.virtual_stages > 1, shape.activation_bytes,
                                    seconds_from_ps(o.run.overhead_ps), costs);
  return input;
}

// The per-stage figures of a finished run: bubble, waits, peaks.
void summarise(PipelineRun& run, Bytes activation_bytes) {
  const PipelineResult& r = run.result;
  double idle = 0;
  TimePs wait = 0;
  for (const DeviceStats& d : r.devices) {
    idle += 1 - static_cast<double>(d.busy_ps) / static_cast<double>(r.step_ps);
    wait += d.p2p_wait_ps;
    run.peak_in_flight = std::max(run.peak_in_flight, d.peak_in_flight);
    // In 128 bits: micro-batches x up to 2^62 B does not fit in 64.
    run.peak_activation_bytes.push_back(static_cast<Bytes>(static_cast<unsigned __int128>(d.peak_in_flight) *
                                                           activation_bytes / run.virtual_stages));
  }
  run.bubble = idle / static_cast<double>(r.devices.size());
  run.mean_p2p_wait_ps = wait / static_cast<TimePs>(r.devices.size());
  run.sim_over_model = seconds_from_ps(r.step_ps) / run.model.step_with_p2p_s;
}

PipelineRun run_once(const Topology& topology, const PipelineShape& shape, const ProgramSource& programs,
                     PipelineRunOptions run_options, const PipelineStudyOptions& o) {
  PipelineRun run;
  run.schedule = shape.schedule;
  run.mode = run_options.mode;
  run.virtual_stages = shape.virtual_stages;
  run.model = pipeline_model(model_input(topology, shape, o, run_options.library));
  try {
    run.result = simulate_pipeline(topology, programs, run_options);
  } catch (const DeadlockError& e) {
    if (!o.deadlock_is_a_row) throw;
    run.deadlock = e.what();
    return run;
  }
  summarise(run, shape.activation_bytes);
  return run;
}

}  // namespace

std::optional<Protocol> pipeline_protocol(const Topology& topology, const PipelineStudyOptions& options) {
  return options.library.fastest([&](const ProtocolCosts& costs) {
    return boundary_transfer_s(topology, npu_of_stage(options), options.virtual_stages > 1,
                               options.shape.activation_bytes, seconds_from_ps(options.run.overhead_ps), costs);
  });
}

PipelineStudy study_pipeline(const Topology& topology, const PipelineStudyOptions& options) {
  PipelineStudy study;
  study.protocol = options.protocol ? options.protocol : pipeline_protocol(topology, options);
  PipelineRunOptions run_options = options.run;
  run_options.library = options.library.costs(study.protocol);
  PipelineShape shape = options.shape;
  for (const PipelineSchedule schedule : options.schedules) {
    shape.schedule = schedule;
    shape.virtual_stages = schedule == PipelineSchedule::kInterleaved ? options.virtual_stages : 1;
    const SchedulePrograms programs(shape);
    for (const P2PMode mode : options.modes) {
      run_options.mode = mode;
      study.runs.push_back(run_once(topology, shape, programs, run_options, options));
      if (options.on_run) options.on_run();
    }
  }
  return study;
}

}  // namespace commsim
