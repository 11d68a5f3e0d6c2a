#pragma once
// The engine's pending events, behind a small interface (as ns-3 keeps its scheduler) so
// that queues can be swapped and measured against each other (tests/bench/engine_bench.cpp).
//
// Entries are ordered by time, and entries of equal time by the order they were pushed, so
// events at equal time run in insertion order and a run is bit-for-bit reproducible. The
// engine takes all entries of the earliest instant as one batch.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "base/units.h"

namespace commsim {

// 16 bytes: a lockstep instant of a large run holds tens of thousands of them. The
// scheduler orders by time only; `ref` and `arg` are the engine's (engine.h): a cancellable
// event's slot and that slot's generation when scheduled (stale if it changed), or a posted
// event's target (flagged) and argument.
struct EventEntry {
  TimePs time;
  std::uint32_t ref;
  std::uint32_t arg;
};
static_assert(sizeof(EventEntry) == 16);

class EventScheduler {
 public:
  virtual ~EventScheduler() = default;
  /// Adds an entry, after every earlier one of its time. Precondition (the engine keeps it):
  /// unless the scheduler is empty, its time is at least that of the last batch taken.
  virtual void push(const EventEntry& entry) = 0;
  virtual bool empty() const = 0;
  virtual std::size_t size() const = 0;
  /// The earliest pending time. Precondition: !empty().
  virtual TimePs next_time() const = 0;
  /// Replaces the contents of `batch` with every entry at next_time(), in push order.
  /// Entries pushed later at that same time form the next batch. Precondition: !empty().
  virtual void take_batch(std::vector<EventEntry>& batch) = 0;
};

/// The schedulers there are, all with the same order (tests/engine/event_scheduler_test.cpp).
enum class SchedulerKind {
  kBinaryHeap,   // one heap entry per event: O(log n) per event
  kInstantHeap,  // a heap of instants, each with its events in a vector: O(1) per event
                 // that joins a pending instant, O(log instants) per new instant
  kRadixHeap,    // a radix heap on time (monotone keys): O(1) push, amortized O(log range)
};

inline constexpr SchedulerKind kAllSchedulerKinds[] = {
    SchedulerKind::kBinaryHeap, SchedulerKind::kInstantHeap, SchedulerKind::kRadixHeap};

/// The engine's default, by measurement (tests/bench/engine_bench.cpp, README
/// "Performance"): in lockstep the instant heap and the radix heap are equal within 10% in
/// the engine (the scheduler is a small part of an event's cost there), and 3-4x faster
/// than the binary heap; with every event at its own time (the hold model) the radix heap
/// is as fast as the binary heap and 2-3x faster than the instant heap.
inline constexpr SchedulerKind kDefaultScheduler = SchedulerKind::kRadixHeap;

std::unique_ptr<EventScheduler> make_scheduler(SchedulerKind kind);
/// "binary-heap", "instant-heap", "radix-heap" (benchmark and test names).
std::string_view scheduler_name(SchedulerKind kind);

}  // namespace commsim
