#include "engine/binary_heap_scheduler.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {

// std::push_heap builds a max-heap; "later" as the ordering puts the earliest on top.
bool BinaryHeapScheduler::later(const Numbered& a, const Numbered& b) {
  if (a.entry.time != b.entry.time) return a.entry.time > b.entry.time;
  return a.sequence > b.sequence;
}

void BinaryHeapScheduler::push(const EventEntry& entry) {
  heap_.push_back({entry, next_sequence_++});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void BinaryHeapScheduler::take_batch(std::vector<EventEntry>& batch) {
  COMMSIM_CHECK(!heap_.empty(), "batch taken from an empty event queue");
  batch.clear();
  const TimePs time = heap_.front().entry.time;
  while (!heap_.empty() && heap_.front().entry.time == time) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    batch.push_back(heap_.back().entry);
    heap_.pop_back();
  }
}

}  // namespace commsim
