#include "engine/radix_heap_scheduler.h"

#include <algorithm>
#include <string>
#include <utility>

#include "base/error.h"

namespace commsim {

void RadixHeapScheduler::push(const EventEntry& entry) {
  if (size_ == 0) last_ = std::min(last_, entry.time);  // any last_ up to the least time fits
  COMMSIM_CHECK(entry.time >= last_, "radix heap: an entry at " + std::to_string(entry.time) +
                                         " ps, before the last batch at " + std::to_string(last_) + " ps");
  const std::size_t bucket = bucket_of(entry.time);
  buckets_[bucket].push_back(entry);
  if (bucket > 0) occupied_ |= std::uint64_t{1} << (bucket - 1);
  // A new least time, or another time in the bucket of the least: look again when asked.
  if (next_time_known_ && entry.time != next_time_ && bucket <= bucket_of(next_time_)) {
    next_time_known_ = false;
  }
  ++size_;
}

// The least time is in bucket 0 if that holds any entry, else in the lowest bucket above.
TimePs RadixHeapScheduler::next_time() const {
  COMMSIM_CHECK(size_ > 0, "next time of an empty event queue");
  if (!next_time_known_) {
    if (!buckets_[0].empty()) {
      next_time_ = last_;
    } else {
      const auto [least, most] = std::minmax_element(
          buckets_[lowest_upper_bucket()].begin(), buckets_[lowest_upper_bucket()].end(),
          [](const EventEntry& a, const EventEntry& b) { return a.time < b.time; });
      next_time_ = least->time;
      lowest_is_one_instant_ = least->time == most->time;
    }
    next_time_known_ = true;
  }
  return next_time_;
}

// Entries keep their relative order: equal times stay in push order.
void RadixHeapScheduler::redistribute(std::size_t bucket) {
  moving_.clear();
  std::swap(moving_, buckets_[bucket]);
  occupied_ &= ~(std::uint64_t{1} << (bucket - 1));
  for (const EventEntry& entry : moving_) {
    const std::size_t to = bucket_of(entry.time);
    buckets_[to].push_back(entry);
    if (to > 0) occupied_ |= std::uint64_t{1} << (to - 1);
  }
}

void RadixHeapScheduler::take_batch(std::vector<EventEntry>& batch) {
  const TimePs time = next_time();
  if (buckets_[0].empty()) {
    const std::size_t lowest = lowest_upper_bucket();
    last_ = time;
    if (lowest_is_one_instant_) {  // lockstep: the whole bucket is the batch, as it is
      std::swap(buckets_[0], buckets_[lowest]);
      occupied_ &= ~(std::uint64_t{1} << (lowest - 1));
    } else {
      redistribute(lowest);
    }
  }
  batch.clear();
  std::swap(batch, buckets_[0]);
  size_ -= batch.size();
  next_time_known_ = false;
}

}  // namespace commsim
