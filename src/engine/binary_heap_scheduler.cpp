#include "engine/binary_heap_scheduler.h"

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

void BinaryHeapScheduler::push(const EventEntry& entry) {
  heap_.push_back(entry);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void BinaryHeapScheduler::take_batch(std::vector<EventEntry>& batch) {
  COMMSIM_CHECK(!heap_.empty(), "batch taken from an empty event queue");
  batch.clear();
  const TimePs time = heap_.front().time;
  while (!heap_.empty() && heap_.front().time == time) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    batch.push_back(heap_.back());
    heap_.pop_back();
  }
}

}  // namespace commsim
