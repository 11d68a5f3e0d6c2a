#include "engine/engine.h"

#include <string>

#include "base/error.h"

namespace commsim {

std::uint32_t Engine::acquire_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  COMMSIM_CHECK(slots_.size() < UINT32_MAX, "too many pending events");
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

// Bumping the generation makes every heap entry that still names this slot stale.
void Engine::release_slot(std::uint32_t slot) {
  slots_[slot].callback = nullptr;
  ++slots_[slot].generation;
  free_slots_.push_back(slot);
}

EventId Engine::schedule_at(TimePs at, Callback callback) {
  COMMSIM_CHECK(at >= now_, "event scheduled in the past: at " + std::to_string(at) +
                                " ps, now " + std::to_string(now_) + " ps");
  if (at > kMaxTimePs) {
    throw InputError("simulated time: an event at " + std::to_string(at) +
                     " ps is beyond the simulator's range of 100 days (8.64e18 ps)");
  }
  const std::uint32_t slot = acquire_slot();
  slots_[slot].callback = std::move(callback);
  const std::uint32_t generation = slots_[slot].generation;
  queue_.push({at, next_sequence_++, slot, generation});
  ++pending_;
  return {slot, generation};
}

bool Engine::cancel(EventId id) {
  if (!id.valid() || id.slot >= slots_.size() || slots_[id.slot].generation != id.generation) {
    return false;
  }
  release_slot(id.slot);
  --pending_;
  return true;
}

bool Engine::drop_cancelled_top() {
  while (!queue_.empty() && slots_[queue_.top().slot].generation != queue_.top().generation) {
    queue_.pop();
  }
  return !queue_.empty();
}

void Engine::run() {
  stop_requested_ = false;
  running_ = true;
  while (!stop_requested_ && drop_cancelled_top()) {
    now_ = queue_.top().time;
    while (!queue_.empty() && queue_.top().time == now_) {
      const EventEntry entry = queue_.pop();
      if (slots_[entry.slot].generation != entry.generation) continue;  // cancelled
      Callback callback = std::move(slots_[entry.slot].callback);
      release_slot(entry.slot);
      --pending_;
      ++processed_;
      callback();
      if (stop_requested_) break;
    }
    ++batches_;
    for (const Callback& hook : batch_end_hooks_) hook();
  }
  running_ = false;
}

}  // namespace commsim
