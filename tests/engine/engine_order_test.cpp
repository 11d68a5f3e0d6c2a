// The engine's order of events on every scheduler: (time, insertion sequence), each
// instant one batch followed by the batch-end hooks, the same as the binary heap's.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "scheduler_test_name.h"

namespace commsim {
namespace {

class EngineOrderTest : public ::testing::TestWithParam<SchedulerKind> {
 protected:
  Engine engine_{GetParam()};
  std::string log_;
  Callback note(std::string what) {
    return [this, what] { log_ += what; };
  }
};

// Events for instant 10 are scheduled before the run (a, b), by an event at 5 (c) and by
// the hook after instant 5 (d): they run in that order, as one batch with one hook call.
TEST_P(EngineOrderTest, EqualTimesKeepInsertionOrderAcrossBatches) {
  std::vector<TimePs> hook_times;
  engine_.add_batch_end_hook([&] {
    hook_times.push_back(engine_.now());
    if (engine_.now() == 5) engine_.schedule_at(10, note("d"));
  });
  engine_.schedule_at(10, note("a"));
  engine_.schedule_at(5, [&] { engine_.schedule_at(10, note("c")); });
  engine_.schedule_at(10, note("b"));
  engine_.run();
  EXPECT_EQ(log_, "abcd");
  EXPECT_EQ(hook_times, (std::vector<TimePs>{5, 10}));
  EXPECT_EQ(engine_.batches_processed(), 2u);
}

// x and y run at 10 and schedule at 10 again: those run after the whole batch, in the order
// they were scheduled, still before the instant's hook.
TEST_P(EngineOrderTest, EventsScheduledDuringABatchAtItsInstantRunAfterItInOrder) {
  int hooks = 0;
  engine_.add_batch_end_hook([&] {
    ++hooks;
    log_ += "|";
  });
  engine_.schedule_at(10, [&] {
    log_ += "x";
    engine_.schedule_after(0, note("x1"));
    engine_.schedule_after(0, [&] {
      log_ += "x2";
      engine_.schedule_after(0, note("x3"));
    });
  });
  engine_.schedule_at(10, [&] {
    log_ += "y";
    engine_.schedule_after(0, note("y1"));
  });
  engine_.run();
  EXPECT_EQ(log_, "xyx1x2y1x3|");
  EXPECT_EQ(hooks, 1);
  EXPECT_EQ(engine_.events_processed(), 6u);
}

TEST_P(EngineOrderTest, AnEventCancelsOneLaterInItsOwnBatch) {
  EventId victim;
  engine_.schedule_at(10, [&] {
    log_ += "a";
    EXPECT_TRUE(engine_.cancel(victim));
  });
  victim = engine_.schedule_at(10, note("b"));
  engine_.schedule_at(10, note("c"));
  engine_.run();
  EXPECT_EQ(log_, "ac");
  EXPECT_EQ(engine_.pending_events(), 0u);
}

// Only the cancelled event at 20 was left: the clock stays at 10, and an event may still
// be scheduled between 10 and 20.
TEST_P(EngineOrderTest, AfterOnlyCancelledEventsTheClockStaysAndEarlierTimesAreFine) {
  engine_.schedule_at(10, note("a"));
  const EventId later = engine_.schedule_at(20, note("b"));
  EXPECT_TRUE(engine_.cancel(later));
  engine_.run();
  EXPECT_EQ(engine_.now(), 10);
  engine_.schedule_at(15, note("c"));
  engine_.run();
  EXPECT_EQ(log_, "ac");
  EXPECT_EQ(engine_.now(), 15);
}

// stop() in the middle of an instant: the rest of its events run on the next run(), in order.
TEST_P(EngineOrderTest, StopInsideABatchResumesWithTheRestOfIt) {
  engine_.schedule_at(10, [&] {
    log_ += "a";
    engine_.stop();
  });
  engine_.schedule_at(10, note("b"));
  engine_.schedule_at(20, note("d"));
  engine_.run();
  EXPECT_EQ(log_, "a");
  engine_.schedule_at(10, note("c"));
  engine_.run();
  EXPECT_EQ(log_, "abcd");
}

/// A random run: every event logs itself and its time, then schedules up to three events
/// (often at the same instant or a few picoseconds on) and sometimes cancels a pending one;
/// the batch-end hook schedules too. The log is the order the engine ran them in.
struct RandomRun {
  explicit RandomRun(SchedulerKind kind) : engine(kind) {
    engine.add_batch_end_hook([this] {
      log.push_back(-1);
      if (rng() % 4 == 0) add(delay());
    });
    for (int i = 0; i < 50; ++i) ids.push_back(engine.schedule_at(static_cast<TimePs>(rng() % 100), event()));
  }
  TimePs delay() {
    const TimePs delays[] = {0, 0, 0, 1, 3, 17, 1000};
    return rng() % 5 == 0 ? static_cast<TimePs>(rng() % 1'000'000) : delays[rng() % std::size(delays)];
  }
  void add(TimePs after) { ids.push_back(engine.schedule_after(after, event())); }
  Callback event() {
    const std::int64_t name = next_name++;
    return [this, name] {
      log.push_back(name);
      log.push_back(engine.now());
      if (next_name > 30'000) return;
      const int children = static_cast<int>(rng() % 4);
      for (int i = 0; i < children; ++i) add(delay());
      if (rng() % 8 == 0) engine.cancel(ids[rng() % ids.size()]);
    };
  }

  Engine engine;
  std::mt19937_64 rng{2026};
  std::vector<EventId> ids;
  std::int64_t next_name = 0;
  std::vector<std::int64_t> log;
};

TEST_P(EngineOrderTest, RunsRandomSchedulesExactlyAsTheBinaryHeapDoes) {
  RandomRun expected(SchedulerKind::kBinaryHeap);
  expected.engine.run();
  RandomRun run(GetParam());
  run.engine.run();
  EXPECT_GT(expected.engine.events_processed(), 25'000u);
  EXPECT_GT(expected.engine.events_processed(), expected.engine.batches_processed() + 5'000);
  EXPECT_EQ(run.log, expected.log);
  EXPECT_EQ(run.engine.events_processed(), expected.engine.events_processed());
  EXPECT_EQ(run.engine.batches_processed(), expected.engine.batches_processed());
  EXPECT_EQ(run.engine.now(), expected.engine.now());
}

INSTANTIATE_TEST_SUITE_P(AllSchedulers, EngineOrderTest, ::testing::ValuesIn(kAllSchedulerKinds),
                         scheduler_test_name);

}  // namespace
}  // namespace commsim
