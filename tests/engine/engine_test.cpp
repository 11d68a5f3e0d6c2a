#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"

namespace commsim {
namespace {

TEST(Engine, RunsEventsInTimeOrderAndTiesInInsertionOrder) {
  Engine engine;
  std::string log;
  engine.schedule_at(200, [&] { log += "c"; });
  engine.schedule_at(100, [&] { log += "a"; });
  engine.schedule_at(100, [&] { log += "b"; });
  engine.run();
  EXPECT_EQ(log, "abc");
  EXPECT_EQ(engine.now(), 200);
  EXPECT_EQ(engine.events_processed(), 3u);
}

TEST(Engine, EventsCanScheduleEvents) {
  Engine engine;
  std::vector<TimePs> times;
  engine.schedule_at(5, [&] {
    times.push_back(engine.now());
    engine.schedule_after(7, [&] { times.push_back(engine.now()); });
  });
  engine.run();
  EXPECT_EQ(times, (std::vector<TimePs>{5, 12}));
}

TEST(Engine, CancelledEventsDoNotRun) {
  Engine engine;
  int runs = 0;
  const EventId id = engine.schedule_at(10, [&] { ++runs; });
  engine.schedule_at(20, [&] { ++runs; });
  EXPECT_EQ(engine.pending_events(), 2u);
  EXPECT_TRUE(engine.cancel(id));
  EXPECT_FALSE(engine.cancel(id));  // already cancelled
  EXPECT_EQ(engine.pending_events(), 1u);
  engine.run();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(engine.now(), 20);  // the cancelled time is never visited
  EXPECT_FALSE(engine.cancel(EventId{}));
}

// A typed event calls its target with its argument, in the same order as closures.
class Recorder final : public EventTarget {
 public:
  void on_event(std::uint32_t argument) override { log += std::to_string(argument); }
  std::string log;
};

TEST(Engine, TypedEventsAndClosuresRunInOneOrder) {
  Engine engine;
  Recorder recorder;
  engine.schedule_at(100, EventCall{&recorder, 1});
  engine.schedule_at(100, [&] { recorder.log += "x"; });
  engine.schedule_at(50, EventCall{&recorder, 7});
  engine.schedule_at(100, EventCall{&recorder, 2});
  engine.run();
  EXPECT_EQ(recorder.log, "71x2");
  EXPECT_EQ(engine.events_processed(), 4u);
}

// Posted events (no slot, no cancel) and scheduled ones keep one order: time, then insertion;
// a cancelled scheduled event between them leaves the posted ones alone.
TEST(Engine, PostedAndScheduledEventsRunInOneOrder) {
  Engine engine;
  Recorder first, second;
  engine.post_at(100, EventCall{&first, 1});
  const EventId cancelled = engine.schedule_at(100, EventCall{&second, 9});
  engine.post_at(100, EventCall{&second, 2});
  engine.schedule_at(100, EventCall{&first, 3});
  engine.post_at(50, engine.once([&] { first.log += "x"; }));
  engine.post_after(70, EventCall{&second, 4});
  EXPECT_EQ(engine.pending_events(), 6u);
  EXPECT_TRUE(engine.cancel(cancelled));
  engine.run();
  EXPECT_EQ(first.log, "x13");
  EXPECT_EQ(second.log, "42");
  EXPECT_EQ(engine.events_processed(), 5u);
  EXPECT_EQ(engine.now(), 100);
}

// A target posted to by two engines in turn is called by each with its own arguments.
TEST(Engine, ATargetMayServeTwoEngines) {
  Engine a, b;
  Recorder recorder;
  a.post_at(1, EventCall{&recorder, 1});
  b.post_at(1, EventCall{&recorder, 2});
  a.post_at(2, EventCall{&recorder, 3});
  b.run();
  a.run();
  EXPECT_EQ(recorder.log, "213");
}

// A posted event its target no longer stands by is neither called nor its instant visited.
class EvenOnly final : public EventTarget {
 public:
  void on_event(std::uint32_t argument) override { log += std::to_string(argument); }
  bool stands(std::uint32_t argument, TimePs) const override { return argument % 2 == 0; }
  std::string log;
};

TEST(Engine, APostedEventThatNoLongerStandsIsSkipped) {
  Engine engine;
  EvenOnly target;
  std::vector<TimePs> instants;
  engine.add_batch_end_hook([&] { instants.push_back(engine.now()); });
  engine.post_at(10, EventCall{&target, 2});
  engine.post_at(10, EventCall{&target, 3});
  engine.post_at(20, EventCall{&target, 5});  // alone at 20: the run ends at 10
  EXPECT_EQ(engine.pending_events(), 3u);
  engine.run();
  EXPECT_EQ(target.log, "2");
  EXPECT_EQ(instants, (std::vector<TimePs>{10}));
  EXPECT_EQ(engine.now(), 10);
  EXPECT_EQ(engine.events_processed(), 1u);
  EXPECT_EQ(engine.pending_events(), 0u);
}

// Each posted event of a batch is asked to prefetch, first its own record and then what it
// names, before it runs; the runs keep their order.
class PrefetchLog final : public EventTarget {
 public:
  void on_event(std::uint32_t argument) override { log.push_back("run " + std::to_string(argument)); }
  void prefetch(std::uint32_t argument, bool near) const override {
    log.push_back((near ? "near " : "far ") + std::to_string(argument));
  }
  mutable std::vector<std::string> log;
};

TEST(Engine, PostedEventsAreAskedToPrefetchBeforeTheyRun) {
  Engine engine;
  PrefetchLog target;
  constexpr std::uint32_t kEvents = 40;
  for (std::uint32_t a = 0; a < kEvents; ++a) engine.post_at(10, EventCall{&target, a});
  engine.run();
  const auto at = [&](const std::string& entry) {
    return std::find(target.log.begin(), target.log.end(), entry) - target.log.begin();
  };
  std::vector<std::string> runs;
  for (const std::string& entry : target.log) {
    if (entry.starts_with("run")) runs.push_back(entry);
  }
  ASSERT_EQ(runs.size(), kEvents);
  for (std::uint32_t a = 0; a < kEvents; ++a) {
    EXPECT_EQ(runs[a], "run " + std::to_string(a));
    if (a < kEvents / 2) continue;  // late in the batch: prefetched by the events before
    const std::string n = std::to_string(a);
    EXPECT_LT(at("far " + n), at("near " + n)) << a;
    EXPECT_LT(at("near " + n), at("run " + n)) << a;
  }
}

// A call kept as the engine lists it (8 bytes) posts like the call itself.
TEST(Engine, AListedCallPostsItsTargetAndArgument) {
  Engine engine;
  Recorder recorder;
  const ListedCall later = engine.listed(EventCall{&recorder, 5});
  engine.post_at(10, EventCall{&recorder, 4});
  engine.schedule_at(10, [&] { engine.post_after(0, later); });
  engine.run();
  EXPECT_EQ(recorder.log, "45");
  EXPECT_EQ(engine.now(), 10);
  Engine other;
  EXPECT_THROW(other.post_after(0, ListedCall{3, 0}), InternalError);
}

TEST(Engine, PostingInThePastIsAnInternalError) {
  Engine engine;
  Recorder recorder;
  engine.schedule_at(10, [&] { EXPECT_THROW(engine.post_at(5, EventCall{&recorder, 0}), InternalError); });
  engine.run();
  EXPECT_THROW(engine.post_at(kMaxTimePs + 1, EventCall{&recorder, 0}), InputError);
}

// once() keeps a closure until it runs or its event is cancelled: what it holds is released
// then, not when the engine goes.
TEST(Engine, AClosureIsDroppedOnceItRanOrItsEventWasCancelled) {
  Engine engine;
  const auto held = std::make_shared<int>(0);
  const EventCall ran = engine.once([held] { ++*held; });
  const EventId cancelled = engine.schedule_at(20, [held] { *held += 100; });
  EXPECT_EQ(held.use_count(), 3);
  engine.schedule_at(10, ran);
  EXPECT_TRUE(engine.cancel(cancelled));
  EXPECT_EQ(held.use_count(), 2);
  engine.run();
  EXPECT_EQ(*held, 1);
  EXPECT_EQ(held.use_count(), 1);
}

TEST(Engine, CancellingARecycledSlotDoesNotCancelItsNewEvent) {
  Engine engine;
  int runs = 0;
  const EventId first = engine.schedule_at(1, [] {});
  engine.run();  // `first` ran; its slot is free
  engine.schedule_at(2, [&] { ++runs; });
  EXPECT_FALSE(engine.cancel(first));
  engine.run();
  EXPECT_EQ(runs, 1);
}

TEST(Engine, BatchEndHookRunsOncePerTimestamp) {
  Engine engine;
  std::vector<TimePs> hook_times;
  engine.add_batch_end_hook([&] { hook_times.push_back(engine.now()); });
  for (int i = 0; i < 5; ++i) engine.schedule_at(10, [] {});
  for (int i = 0; i < 3; ++i) engine.schedule_at(20, [] {});
  engine.run();
  EXPECT_EQ(hook_times, (std::vector<TimePs>{10, 20}));
  EXPECT_EQ(engine.batches_processed(), 2u);
}

TEST(Engine, HookMaySchedulesAtTheSameInstantAsANewBatch) {
  Engine engine;
  int hooks = 0;
  bool scheduled = false;
  bool ran = false;
  engine.add_batch_end_hook([&] {
    ++hooks;
    if (!scheduled) {
      scheduled = true;
      engine.schedule_after(0, [&] { ran = engine.now() == 10; });
    }
  });
  engine.schedule_at(10, [] {});
  engine.run();
  EXPECT_TRUE(ran);
  EXPECT_EQ(hooks, 2);
}

TEST(Engine, SchedulingInThePastIsAnInternalError) {
  Engine engine;
  engine.schedule_at(10, [&] { EXPECT_THROW(engine.schedule_at(5, [] {}), InternalError); });
  engine.run();
}

}  // namespace
}  // namespace commsim

namespace commsim {
namespace {

TEST(Engine, StopReturnsAndKeepsPendingEvents) {
  Engine engine;
  int runs = 0;
  engine.schedule_at(1, [&] {
    ++runs;
    engine.stop();
  });
  engine.schedule_at(2, [&] { ++runs; });
  engine.run();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(engine.pending_events(), 1u);
  engine.run();
  EXPECT_EQ(runs, 2);
}

TEST(Engine, InstantsBeyondOneHundredDaysAreRefusedNotWrapped) {
  Engine engine;
  engine.schedule_at(kMaxTimePs, [] {});  // the last instant in range
  EXPECT_THROW(engine.schedule_at(kMaxTimePs + 1, [] {}), InputError);
  engine.run();
  EXPECT_EQ(engine.now(), kMaxTimePs);
  // now + delay would wrap int64 (8.64e18 + 8e18 > 9.22e18): an error, not a past event.
  try {
    engine.schedule_after(8'000'000'000'000'000'000, [] {});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("simulated time: 8640000000000000000 ps + "), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace commsim
