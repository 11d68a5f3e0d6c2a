#pragma once
// A binary heap of (time, sequence) entries: push and pop are O(log n) per event, with n
// the pending events. The reference the other schedulers are checked against.

#include <vector>

#include "engine/event_scheduler.h"

namespace commsim {

class BinaryHeapScheduler final : public EventScheduler {
 public:
  void push(const EventEntry& entry) override;
  bool empty() const override { return heap_.empty(); }
  std::size_t size() const override { return heap_.size(); }
  TimePs next_time() const override { return heap_.front().time; }
  void take_batch(std::vector<EventEntry>& batch) override;

 private:
  std::vector<EventEntry> heap_;
};

}  // namespace commsim
