// Event throughput of the engine and of each scheduler (engine/event_scheduler.h) in two
// models:
//  - hold (Vaucher & Duval 1975): with N events pending, each processed event schedules one
//    more a random delay later, so the queue stays at N, nearly every event at its own time;
//  - lockstep: W events per instant, each scheduling its successor one period on, as the
//    ranks of a collective do (a 2,048-NPU ring AllReduce: about 2,048 events per instant).
// The benchmark argument after the size is the SchedulerKind, named in the label.

#include <benchmark/benchmark.h>

#include <random>

#include "engine/engine.h"

namespace commsim {
namespace {

constexpr std::int64_t kEventsPerRun = 100'000;
constexpr TimePs kLockstepPeriodPs = 1'000'000;

SchedulerKind kind_of(const benchmark::State& state) { return static_cast<SchedulerKind>(state.range(1)); }

/// Every scheduler at each size.
void each_scheduler(benchmark::internal::Benchmark* b, std::initializer_list<std::int64_t> sizes) {
  for (const std::int64_t size : sizes) {
    for (const SchedulerKind kind : kAllSchedulerKinds) b->Args({size, static_cast<std::int64_t>(kind)});
  }
}

struct EngineContext {
  explicit EngineContext(SchedulerKind kind) : engine(kind) {}
  Engine engine;
  std::mt19937_64 rng{42};
  std::int64_t budget = 0;
};

// One pointer: fits std::function's small buffer, so scheduling does not allocate.
struct Hold {
  EngineContext* context;
  void operator()() const {
    if (--context->budget == 0) context->engine.stop();
    context->engine.schedule_after(1 + static_cast<TimePs>(context->rng() % 1'000'000), *this);
  }
};

struct Lockstep {
  EngineContext* context;
  void operator()() const {
    if (--context->budget == 0) context->engine.stop();
    context->engine.schedule_after(kLockstepPeriodPs, *this);
  }
};

template <typename Event>
void engine_run(benchmark::State& state, TimePs spread_ps) {
  EngineContext context(kind_of(state));
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    const TimePs at = spread_ps > 0 ? static_cast<TimePs>(context.rng() % spread_ps) : 0;
    context.engine.schedule_at(at, Event{&context});
  }
  for (auto _ : state) {
    context.budget = kEventsPerRun;
    context.engine.run();
  }
  state.SetItemsProcessed(state.iterations() * kEventsPerRun);
  state.SetLabel(std::string(scheduler_name(kind_of(state))));
}

void BM_EngineHold(benchmark::State& state) { engine_run<Hold>(state, 1'000'000); }
BENCHMARK(BM_EngineHold)->Apply([](auto* b) { each_scheduler(b, {1'000, 100'000, 1'000'000}); })
    ->Unit(benchmark::kMillisecond);

void BM_EngineLockstep(benchmark::State& state) { engine_run<Lockstep>(state, 0); }
BENCHMARK(BM_EngineLockstep)->Apply([](auto* b) { each_scheduler(b, {2'048, 65'536}); })
    ->Unit(benchmark::kMillisecond);

void BM_SchedulerHold(benchmark::State& state) {
  const std::unique_ptr<EventScheduler> scheduler = make_scheduler(kind_of(state));
  std::mt19937_64 rng(42);
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    scheduler->push({static_cast<TimePs>(rng() % 1'000'000), 0, 0});
  }
  std::vector<EventEntry> batch;
  std::int64_t events = 0;
  for (auto _ : state) {
    scheduler->take_batch(batch);
    for (const EventEntry& e : batch) {
      scheduler->push({e.time + 1 + static_cast<TimePs>(rng() % 1'000'000), 0, 0});
    }
    events += static_cast<std::int64_t>(batch.size());
  }
  state.SetItemsProcessed(events);
  state.SetLabel(std::string(scheduler_name(kind_of(state))));
}
BENCHMARK(BM_SchedulerHold)->Apply([](auto* b) { each_scheduler(b, {1'000, 100'000, 1'000'000}); });

// One iteration is one instant: W entries taken as a batch, W pushed one period on.
void BM_SchedulerLockstep(benchmark::State& state) {
  const std::unique_ptr<EventScheduler> scheduler = make_scheduler(kind_of(state));
  for (std::int64_t i = 0; i < state.range(0); ++i) scheduler->push({0, 0, 0});
  std::vector<EventEntry> batch;
  for (auto _ : state) {
    scheduler->take_batch(batch);
    for (const EventEntry& e : batch) scheduler->push({e.time + kLockstepPeriodPs, 0, 0});
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetLabel(std::string(scheduler_name(kind_of(state))));
}
BENCHMARK(BM_SchedulerLockstep)->Apply([](auto* b) { each_scheduler(b, {2'048, 65'536}); });

}  // namespace
}  // namespace commsim
