#pragma once
// A min-priority queue of event entries ordered by (time, sequence). The sequence number
// is assigned at insertion, so events at equal time run in insertion order and a run is
// bit-for-bit reproducible. Binary heap: push and pop are O(log n).

#include <cstdint>
#include <vector>

#include "base/units.h"

namespace commsim {

struct EventEntry {
  TimePs time;
  std::uint64_t sequence;
  std::uint32_t slot;        // where the engine keeps the callback
  std::uint32_t generation;  // the slot's generation when scheduled; stale if it changed
};

class EventQueue {
 public:
  void push(const EventEntry& entry);
  /// Removes and returns the earliest entry. Precondition: !empty().
  EventEntry pop();
  const EventEntry& top() const { return heap_.front(); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  void reserve(std::size_t n) { heap_.reserve(n); }

 private:
  std::vector<EventEntry> heap_;
};

}  // namespace commsim
