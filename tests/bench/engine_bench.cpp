// Event throughput in the hold model (Vaucher & Duval 1975): with N events pending, each
// processed event schedules one more a random delay later, so the queue stays at N.

#include <benchmark/benchmark.h>

#include <random>

#include "engine/engine.h"

namespace commsim {
namespace {

constexpr std::int64_t kEventsPerRun = 100'000;

struct HoldContext {
  Engine engine;
  std::mt19937_64 rng{42};
  std::int64_t budget = 0;
};

// One pointer: fits std::function's small buffer, so scheduling does not allocate.
struct Hold {
  HoldContext* context;
  void operator()() const {
    if (--context->budget == 0) context->engine.stop();
    context->engine.schedule_after(1 + static_cast<TimePs>(context->rng() % 1'000'000), *this);
  }
};

void BM_EngineHold(benchmark::State& state) {
  HoldContext context;
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    context.engine.schedule_at(static_cast<TimePs>(context.rng() % 1'000'000), Hold{&context});
  }
  for (auto _ : state) {
    context.budget = kEventsPerRun;
    context.engine.run();
  }
  state.SetItemsProcessed(state.iterations() * kEventsPerRun);
  state.counters["pending"] = static_cast<double>(context.engine.pending_events());
}
BENCHMARK(BM_EngineHold)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_EventQueueHold(benchmark::State& state) {
  EventQueue queue;
  std::mt19937_64 rng(42);
  std::uint64_t sequence = 0;
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    queue.push({static_cast<TimePs>(rng() % 1'000'000), sequence++, 0, 0});
  }
  for (auto _ : state) {
    const EventEntry e = queue.pop();
    queue.push({e.time + 1 + static_cast<TimePs>(rng() % 1'000'000), sequence++, 0, 0});
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventQueueHold)->Arg(1'000)->Arg(100'000)->Arg(1'000'000);

}  // namespace
}  // namespace commsim
