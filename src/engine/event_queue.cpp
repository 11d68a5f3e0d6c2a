#include "engine/event_queue.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {
namespace {
// std::push_heap builds a max-heap; "later" as the ordering puts the earliest on top.
bool later(const EventEntry& a, const EventEntry& b) {
  if (a.time != b.time) return a.time > b.time;
  return a.sequence > b.sequence;
}
}  // namespace

void EventQueue::push(const EventEntry& entry) {
  heap_.push_back(entry);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

EventEntry EventQueue::pop() {
  COMMSIM_CHECK(!heap_.empty(), "pop from an empty event queue");
  std::pop_heap(heap_.begin(), heap_.end(), later);
  EventEntry entry = heap_.back();
  heap_.pop_back();
  return entry;
}

}  // namespace commsim
