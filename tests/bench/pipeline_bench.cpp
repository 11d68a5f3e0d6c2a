// A 1F1B step with p = 64 stages and m = 1,024 or 4,096 micro-batches on a 64-NPU ring, its
// programs generated action by action as the step runs.

#include <benchmark/benchmark.h>

#include "pipeline/pipeline_sim.h"
#include "pipeline/schedules.h"
#include "topology/builders.h"

namespace commsim {
namespace {

void BM_Pipeline1F1B(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 64;
  const Topology ring = build_topology(c);
  PipelineShape shape;
  shape.schedule = PipelineSchedule::k1F1B;
  shape.stages = 64;
  shape.microbatches = static_cast<std::uint32_t>(state.range(0));
  shape.forward_ps.assign(64, ps_from_us(1000));
  shape.backward_ps.assign(64, ps_from_us(2000));
  shape.activation_bytes = 32 << 20;
  const SchedulePrograms programs(shape);
  for (auto _ : state) benchmark::DoNotOptimize(simulate_pipeline(ring, programs, {}).step_ps);
}
BENCHMARK(BM_Pipeline1F1B)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace commsim
