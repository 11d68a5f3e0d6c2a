#pragma once
// The simulation clock and event loop. The engine owns simulated time; nothing else
// advances it. It knows nothing about networks.
//
// An event is a time and what to call then: a typed call (a target and a 32-bit argument)
// or a closure. A scheduled event can be cancelled: the engine keeps its call in a slot
// that the scheduler's entry names. A posted event cannot: its entry carries the call
// itself, so it takes no slot (a message's arrival, a flow's start and completion; a
// target may say a posted event no longer stands, EventTarget::stands).
//
// All events of one timestamp form a batch: the engine runs them in insertion
// order (events they schedule at the same instant run after them, in order), then calls
// every batch-end hook once, so that a model can react to all changes of one instant
// together (the network recomputes its rates there). A hook may schedule more events at the
// same instant; they form a new batch at that instant.
//
// The pending events are kept by an EventScheduler (engine/event_scheduler.h), which hands
// over an instant's events at once; which one is swappable, with the same order.

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/slot_pool.h"
#include "base/units.h"
#include "engine/event_scheduler.h"

namespace commsim {

using Callback = std::function<void()>;

/// What a typed event calls: the simulator's hot paths (a flow's start and end, a message's
/// arrival) schedule a target and a 32-bit argument, which the engine keeps in 16 bytes and
/// calls without building, moving or destroying a closure.
class EventTarget {
 public:
  virtual void on_event(std::uint32_t argument) = 0;
  /// Whether an event posted with `argument` for time `at` still stands. A posted event
  /// cannot be cancelled; a target whose posted events can be superseded (a flow's
  /// completion, when a rate change moves it) says no for those, and the engine then
  /// neither calls it nor visits an instant that holds nothing else.
  virtual bool stands(std::uint32_t /*argument*/, TimePs /*at*/) const { return true; }
  /// Asks the memory for what the event posted with `argument` will read, a few events
  /// before it runs (Engine::run_instant), so that the loads of successive events overlap:
  /// first (`near` false) its own record, then (`near` true, by which time that record is
  /// in cache) the records it names.
  virtual void prefetch(std::uint32_t /*argument*/, bool /*near*/) const {}

 protected:
  ~EventTarget() = default;

 private:
  friend class Engine;
  std::uint32_t engine_index_ = UINT32_MAX;  // where an engine last listed it (a hint)
};

/// A target and the argument it is called with.
struct EventCall {
  EventTarget* target = nullptr;
  std::uint32_t argument = 0;
};

/// A call as an engine lists it (Engine::listed): 8 bytes, for records that keep a call to
/// post later (a flow keeps its message's arrival). Valid with that engine only.
struct ListedCall {
  std::uint32_t target = 0;
  std::uint32_t argument = 0;
};

/// Identifies a scheduled event so it can be cancelled. Default-constructed: no event.
struct EventId {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
  bool valid() const { return slot != UINT32_MAX; }
};

class Engine : private EventTarget {
 public:
  explicit Engine(SchedulerKind scheduler = kDefaultScheduler);
  explicit Engine(std::unique_ptr<EventScheduler> scheduler);

  TimePs now() const { return now_; }

  /// Calls `call` at absolute time `at` (>= now()). Throws InputError when `at` is beyond
  /// kMaxTimePs (base/units.h): the run has left the simulator's range.
  EventId schedule_at(TimePs at, EventCall call);
  /// Runs `callback` at `at`, as a typed event of the engine's that calls it once.
  EventId schedule_at(TimePs at, Callback callback) { return schedule_at(at, once(std::move(callback))); }
  /// The same, `delay` picoseconds from now (delay >= 0); the same range check.
  EventId schedule_after(TimePs delay, EventCall call) { return schedule_at(later(delay), call); }
  EventId schedule_after(TimePs delay, Callback callback) { return schedule_at(later(delay), std::move(callback)); }
  /// Calls `call` at `at` (>= now()), like schedule_at, but for good: a posted event cannot
  /// be cancelled, and costs no slot.
  void post_at(TimePs at, EventCall call) { post_at(at, listed(call)); }
  void post_after(TimePs delay, EventCall call) { post_at(later(delay), listed(call)); }
  /// `call` as this engine lists it, to post later.
  ListedCall listed(EventCall call) { return {target_index(call.target), call.argument}; }
  void post_at(TimePs at, ListedCall call) {
    check_event_time(at);
    COMMSIM_CHECK(call.target < targets_.size(), "a listed call of another engine");
    scheduler_->push({at, kPosted | call.target, call.argument});
    ++pending_;
  }
  void post_after(TimePs delay, ListedCall call) { post_at(later(delay), call); }
  /// Keeps `callback` and returns the call that runs it, once, and then drops it: a closure
  /// to hand wherever an EventCall goes (a message's arrival). Kept until called, or until
  /// the event that would call it is cancelled.
  EventCall once(Callback callback);
  /// Cancels a pending event. Returns false if it already ran or was cancelled. O(1): the
  /// scheduler's entry stays and is skipped when its instant comes.
  bool cancel(EventId id);

  /// `hook` runs after the last event of every timestamp batch.
  void add_batch_end_hook(Callback hook) { batch_end_hooks_.push_back(std::move(hook)); }

  /// Runs events until none is pending, or until an event calls stop().
  void run();
  /// Makes run() return after the current event; pending events stay for the next run().
  void stop() { stop_requested_ = true; }

  /// True while run() is processing events (so work may join the current instant's batch).
  bool running() const { return running_; }
  std::size_t pending_events() const { return pending_; }
  std::uint64_t events_processed() const { return processed_; }
  std::uint64_t batches_processed() const { return batches_; }

 private:
  struct Slot {  // an EventCall's fields and the generation, in 16 bytes
    EventTarget* target = nullptr;
    std::uint32_t argument = 0;
    std::uint32_t generation = 0;
  };
  static_assert(sizeof(Slot) == 16);

  // EventEntry::ref of a posted event: the flag and the index of its target in targets_.
  static constexpr std::uint32_t kPosted = std::uint32_t{1} << 31;

  TimePs later(TimePs delay) const { return add_times(now_, delay, "simulated time"); }
  /// Checks `at` against now() and the simulator's range.
  void check_event_time(TimePs at) const {
    if (at < now_ || at > kMaxTimePs) [[unlikely]] reject_event_time(at);
  }
  [[noreturn]] void reject_event_time(TimePs at) const;
  /// `target`'s index in targets_, listed on first sight.
  std::uint32_t target_index(EventTarget* target) {
    const std::uint32_t hint = target->engine_index_;
    if (hint < targets_.size() && targets_[hint] == target) [[likely]] return hint;
    return list_target(target);
  }
  std::uint32_t list_target(EventTarget* target);
  /// Runs closure `closure` of once() and drops it.
  void on_event(std::uint32_t closure) override;
  bool is_closure(const Slot& slot) const { return slot.target == this; }

  std::uint32_t acquire_slot();
  void release_slot(std::uint32_t slot);
  /// Whether `entry` is to be skipped: its slot's event was cancelled (and no longer
  /// counts as pending), or its posted event no longer stands (counted off here).
  bool skip_stale(const EventEntry& entry) {
    if ((entry.ref & kPosted) == 0) return slots_[entry.ref].generation != entry.arg;
    if (targets_[entry.ref & ~kPosted]->stands(entry.arg, entry.time)) return false;
    --pending_;
    return true;
  }
  /// Prefetches for the posted event `ahead` places on in the batch, if there is one.
  static constexpr std::size_t kPrefetchFar = 8;
  static constexpr std::size_t kPrefetchNear = 4;
  void prefetch_ahead(std::size_t ahead, bool near) const {
    if (batch_next_ + ahead >= batch_.size()) return;
    const EventEntry& entry = batch_[batch_next_ + ahead];
    if (entry.ref & kPosted) targets_[entry.ref & ~kPosted]->prefetch(entry.arg, near);
  }
  /// Skips cancelled entries, and posted ones that no longer stand, up to the next live
  /// event, taking batches as needed; returns whether one remains (then at
  /// batch_[batch_next_]).
  bool next_live_event();
  /// Runs the events of instant now_: the rest of the current batch, then every batch the
  /// scheduler has at now_ (events scheduled meanwhile at the same instant).
  void run_instant();

  TimePs now_ = 0;
  std::uint64_t processed_ = 0;
  std::uint64_t batches_ = 0;
  std::size_t pending_ = 0;
  bool stop_requested_ = false;
  bool running_ = false;
  std::unique_ptr<EventScheduler> scheduler_;
  std::vector<EventEntry> batch_;  // the instant's entries taken from the scheduler,
  std::size_t batch_next_ = 0;     // of which those from here on have not run
  SlotPool<Slot> slots_;
  SlotPool<Callback> closures_;  // once()'s, until they run
  std::vector<EventTarget*> targets_;  // of posted events
  std::vector<Callback> batch_end_hooks_;
};

}  // namespace commsim
