#pragma once
// A radix heap on time (Ahuja, Mehlhorn, Orlin and Tarjan 1990, "Faster algorithms for the
// shortest path problem"): a monotone priority queue, which fits an engine whose events
// are never scheduled before the current instant.
//
// Bucket 0 holds the entries at time `last_` (the time of the last batch taken); bucket
// b >= 1 those whose time differs from `last_` first in bit b-1, counting from the top, so
// bucket b spans times below last_ + 2^b. Push is O(1). Taking a batch when bucket 0 is
// empty moves `last_` to the least time, which lies in the lowest non-empty bucket b, and
// redistributes that bucket into buckets below b; every entry moves down at most 64 times,
// so a batch costs amortized O(log range) per entry. A bucket that holds one instant only
// (lockstep: every rank's event one period on) becomes the batch without moving.
//
// Order: all entries of one time are always in one bucket, and both pushes and
// redistributions append in order, so each bucket lists equal times in push order.

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "engine/event_scheduler.h"

namespace commsim {

class RadixHeapScheduler final : public EventScheduler {
 public:
  void push(const EventEntry& entry) override;
  bool empty() const override { return size_ == 0; }
  std::size_t size() const override { return size_; }
  TimePs next_time() const override;
  void take_batch(std::vector<EventEntry>& batch) override;

 private:
  static constexpr std::size_t kBuckets = 65;

  std::size_t bucket_of(TimePs time) const {
    return static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(time ^ last_)));
  }
  /// The lowest non-empty bucket above 0. Precondition: one exists.
  std::size_t lowest_upper_bucket() const {
    return static_cast<std::size_t>(std::countr_zero(occupied_)) + 1;
  }
  void redistribute(std::size_t bucket);

  std::array<std::vector<EventEntry>, kBuckets> buckets_;
  std::uint64_t occupied_ = 0;  // bit b-1 set: bucket b >= 1 is not empty
  std::vector<EventEntry> moving_;  // the bucket being redistributed
  TimePs last_ = 0;
  mutable TimePs next_time_ = 0;  // next_time(), while next_time_known_
  mutable bool next_time_known_ = false;
  mutable bool lowest_is_one_instant_ = false;  // bucket 0 empty: the lowest bucket above
                                                // holds next_time_ only
  std::size_t size_ = 0;
};

}  // namespace commsim
