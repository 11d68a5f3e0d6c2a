#include "engine/engine.h"

#include <algorithm>
#include <string>

#include "base/error.h"

namespace commsim {

Engine::Engine(SchedulerKind scheduler) : Engine(make_scheduler(scheduler)) {}

Engine::Engine(std::unique_ptr<EventScheduler> scheduler) : scheduler_(std::move(scheduler)) {
  COMMSIM_CHECK(scheduler_ != nullptr, "an engine needs an event scheduler");
}

std::uint32_t Engine::acquire_slot() {
  COMMSIM_CHECK(slots_.in_use() < kPosted - 1, "too many pending events");  // ids below kPosted
  return slots_.acquire();
}

// Bumping the generation makes every scheduler entry that still names this slot stale.
void Engine::release_slot(std::uint32_t slot) {
  ++slots_[slot].generation;
  slots_.release(slot);
}

EventCall Engine::once(Callback callback) {
  const std::uint32_t closure = closures_.acquire();
  closures_[closure].swap(callback);  // a free record is empty: a swap is all it takes
  return {this, closure};
}

// The closure runs where it is stored (records never move) and is freed after, so that the
// closures it makes cannot take its record.
void Engine::on_event(std::uint32_t closure) {
  Callback& callback = closures_[closure];
  callback();
  callback = nullptr;
  closures_.release(closure);
}

void Engine::reject_event_time(TimePs at) const {
  COMMSIM_CHECK(at >= now_, "event scheduled in the past: at " + std::to_string(at) +
                                " ps, now " + std::to_string(now_) + " ps");
  throw InputError("simulated time: an event at " + std::to_string(at) +
                   " ps is beyond the simulator's range of 100 days (8.64e18 ps)");
}

std::uint32_t Engine::list_target(EventTarget* target) {
  auto listed = std::find(targets_.begin(), targets_.end(), target);
  if (listed == targets_.end()) {
    COMMSIM_CHECK(targets_.size() < kPosted - 1, "too many event targets");
    listed = targets_.insert(listed, target);
  }
  target->engine_index_ = static_cast<std::uint32_t>(listed - targets_.begin());
  return target->engine_index_;
}

EventId Engine::schedule_at(TimePs at, EventCall call) {
  check_event_time(at);
  const std::uint32_t slot = acquire_slot();
  Slot& record = slots_[slot];
  record.target = call.target;
  record.argument = call.argument;
  const std::uint32_t generation = record.generation;
  scheduler_->push({at, slot, generation});
  ++pending_;
  return {slot, generation};
}

bool Engine::cancel(EventId id) {
  // A posted event has no EventId: every valid id names a slot.
  if (!id.valid() || id.slot >= slots_.made() || slots_[id.slot].generation != id.generation) {
    return false;
  }
  const Slot& slot = slots_[id.slot];
  if (is_closure(slot)) {
    closures_[slot.argument] = nullptr;
    closures_.release(slot.argument);
  }
  release_slot(id.slot);
  --pending_;
  return true;
}

bool Engine::next_live_event() {
  while (true) {
    for (; batch_next_ < batch_.size(); ++batch_next_) {
      if (!skip_stale(batch_[batch_next_])) return true;
    }
    if (scheduler_->empty()) return false;
    scheduler_->take_batch(batch_);
    batch_next_ = 0;
  }
}

void Engine::run_instant() {
  while (true) {
    while (batch_next_ < batch_.size()) {
      prefetch_ahead(kPrefetchFar, false);
      prefetch_ahead(kPrefetchNear, true);
      const EventEntry entry = batch_[batch_next_++];
      if (skip_stale(entry)) continue;
      EventTarget* target;
      std::uint32_t argument;
      if (entry.ref & kPosted) {
        target = targets_[entry.ref & ~kPosted];
        argument = entry.arg;
      } else {
        Slot& slot = slots_[entry.ref];
        // The slot is free before the call (cancel() declines it from here on), so the
        // events the call schedules may take it.
        target = slot.target;
        argument = slot.argument;
        release_slot(entry.ref);
      }
      --pending_;
      ++processed_;
      target->on_event(argument);
      if (stop_requested_) return;
    }
    if (scheduler_->empty() || scheduler_->next_time() != now_) return;
    scheduler_->take_batch(batch_);
    batch_next_ = 0;
  }
}

void Engine::run() {
  stop_requested_ = false;
  running_ = true;
  while (!stop_requested_ && next_live_event()) {
    now_ = batch_[batch_next_].time;
    run_instant();
    ++batches_;
    for (const Callback& hook : batch_end_hooks_) hook();
  }
  running_ = false;
}

}  // namespace commsim
