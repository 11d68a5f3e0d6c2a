#pragma once
// A heap of instants, each holding its events in a vector (bucketed by time).
//
// Simulated collectives move in lockstep: at 2,048 NPUs a ring AllReduce has about 8,000
// instants of about 2,000 events each, and only a few instants are pending at once. Here an
// event that joins a pending instant costs one hash lookup (none if it joins the instant
// the previous push joined) and an append; only a new instant goes into the heap, at
// O(log instants). Taking a batch hands over the instant's vector whole (a swap), and the
// vectors are recycled, so a run at its working size does not allocate.
//
// Order: an instant's vector is in push order. Once an instant's batch is taken, later
// pushes at that time open a new instant, which is the next batch.

#include <cstdint>
#include <vector>

#include "base/index_map.h"
#include "engine/event_scheduler.h"

namespace commsim {

class InstantHeapScheduler final : public EventScheduler {
 public:
  void push(const EventEntry& entry) override;
  bool empty() const override { return size_ == 0; }
  std::size_t size() const override { return size_; }
  TimePs next_time() const override { return heap_.front().time; }
  void take_batch(std::vector<EventEntry>& batch) override;

 private:
  struct Instant {
    TimePs time;
    std::uint32_t bucket;  // index into buckets_
  };
  /// std::push_heap builds a max-heap; "later" as the ordering puts the earliest on top.
  static bool later(const Instant& a, const Instant& b) { return a.time > b.time; }
  static constexpr std::uint32_t kNoBucket = UINT32_MAX;

  std::uint32_t open_bucket(TimePs time);

  std::vector<Instant> heap_;  // min-heap on time; times are distinct
  std::vector<std::vector<EventEntry>> buckets_;
  std::vector<std::uint32_t> free_buckets_;
  IndexMap bucket_of_time_;
  TimePs last_time_ = 0;                  // the time of the last push, and
  std::uint32_t last_bucket_ = kNoBucket;  // its bucket while that instant is pending
  std::size_t size_ = 0;
};

}  // namespace commsim
