#include "engine/event_scheduler.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "scheduler_test_name.h"

namespace commsim {
namespace {

class EventSchedulerTest : public ::testing::TestWithParam<SchedulerKind> {
 protected:
  std::unique_ptr<EventScheduler> scheduler_ = make_scheduler(GetParam());
  void push(TimePs time, std::uint32_t slot) { scheduler_->push({time, slot, 0}); }
  /// The slots of the next batch.
  std::vector<std::uint32_t> take() {
    std::vector<EventEntry> batch{{-1, 99, 0}};  // the old contents must go
    scheduler_->take_batch(batch);
    std::vector<std::uint32_t> slots;
    for (const EventEntry& e : batch) slots.push_back(e.ref);
    return slots;
  }
};

TEST_P(EventSchedulerTest, TakesEachInstantAsOneBatchInInsertionOrder) {
  push(30, 0);
  push(10, 1);
  push(20, 2);
  push(10, 3);
  EXPECT_EQ(scheduler_->size(), 4u);
  EXPECT_EQ(scheduler_->next_time(), 10);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(scheduler_->next_time(), 20);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{0}));
  EXPECT_TRUE(scheduler_->empty());
}

// After the batch at 10 is taken, its events push more at 10 (a zero delay) and later.
TEST_P(EventSchedulerTest, PushesAtTheTakenInstantFormTheNextBatch) {
  push(10, 0);
  push(10, 1);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{0, 1}));
  push(10, 2);
  push(20, 3);
  push(10, 4);
  EXPECT_EQ(scheduler_->next_time(), 10);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{2, 4}));
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{3}));
}

// Once emptied, a scheduler accepts any time again (the engine may have skipped ahead over
// cancelled events it took, while its clock stayed behind).
TEST_P(EventSchedulerTest, AnEmptySchedulerAcceptsAnEarlierTime) {
  push(50, 0);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{0}));
  push(40, 1);
  push(45, 2);
  push(40, 3);
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(take(), (std::vector<std::uint32_t>{2}));
}

/// The batches of a random run: lockstep bursts at few instants, mixed with lone events
/// from 0 ps to 2^50 ps ahead, taken in between. Each entry's slot is its push number.
std::vector<std::vector<EventEntry>> random_batches(SchedulerKind kind, std::uint64_t seed) {
  const std::unique_ptr<EventScheduler> scheduler = make_scheduler(kind);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<EventEntry>> batches;
  std::uint32_t pushed = 0;
  TimePs now = 0;
  const TimePs delays[] = {0, 0, 1, 3, 1000, 1000, 65'536};
  for (int round = 0; round < 5'000; ++round) {
    const int pushes = static_cast<int>(rng() % 8);
    for (int i = 0; i < pushes; ++i) {
      const TimePs delay = rng() % 4 == 0 ? static_cast<TimePs>(rng() % (std::uint64_t{1} << 50))
                                          : delays[rng() % std::size(delays)];
      scheduler->push({now + delay, pushed++, 0});
    }
    if (!scheduler->empty() && rng() % 3 != 0) {
      now = scheduler->next_time();
      batches.emplace_back();
      scheduler->take_batch(batches.back());
    }
  }
  while (!scheduler->empty()) {
    batches.emplace_back();
    scheduler->take_batch(batches.back());
  }
  return batches;
}

// The binary heap is the old queue: every scheduler must hand out the same batches. Each
// batch is also checked to be one time, in push order, after the one before.
TEST_P(EventSchedulerTest, MatchesTheBinaryHeapOnRandomSchedules) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto expected = random_batches(SchedulerKind::kBinaryHeap, seed);
    const auto batches = random_batches(GetParam(), seed);
    ASSERT_EQ(batches.size(), expected.size()) << "seed " << seed;
    std::uint64_t events = 0;
    for (std::size_t b = 0; b < batches.size(); ++b) {
      ASSERT_EQ(batches[b].size(), expected[b].size()) << "seed " << seed << " batch " << b;
      for (std::size_t i = 0; i < batches[b].size(); ++i) {
        ASSERT_EQ(batches[b][i].time, expected[b][i].time);
        ASSERT_EQ(batches[b][i].ref, expected[b][i].ref);
        ASSERT_EQ(batches[b][i].time, batches[b][0].time);
        if (i > 0) {
          ASSERT_GT(batches[b][i].ref, batches[b][i - 1].ref);
        }
      }
      if (b > 0) {
        ASSERT_GE(batches[b][0].time, batches[b - 1][0].time);
      }
      events += batches[b].size();
    }
    EXPECT_GT(events, 10'000u);  // the run pushed about 17,500 events
  }
}

INSTANTIATE_TEST_SUITE_P(AllSchedulers, EventSchedulerTest, ::testing::ValuesIn(kAllSchedulerKinds),
                         scheduler_test_name);

}  // namespace
}  // namespace commsim
