#pragma once
// A binary heap of entries numbered in push order, ordered by (time, number): push and pop
// are O(log n) per event, with n the pending events. The reference the other schedulers are
// checked against.

#include <vector>

#include "engine/event_scheduler.h"

namespace commsim {

class BinaryHeapScheduler final : public EventScheduler {
 public:
  void push(const EventEntry& entry) override;
  bool empty() const override { return heap_.empty(); }
  std::size_t size() const override { return heap_.size(); }
  TimePs next_time() const override { return heap_.front().entry.time; }
  void take_batch(std::vector<EventEntry>& batch) override;

 private:
  struct Numbered {
    EventEntry entry;
    std::uint64_t sequence;
  };
  static bool later(const Numbered& a, const Numbered& b);

  std::vector<Numbered> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace commsim
