#include "engine/instant_heap_scheduler.h"

#include <algorithm>
#include <utility>

#include "base/error.h"

namespace commsim {

void InstantHeapScheduler::push(const EventEntry& entry) {
  if (last_bucket_ == kNoBucket || entry.time != last_time_) {
    const std::uint32_t* found = bucket_of_time_.find(static_cast<std::uint64_t>(entry.time));
    last_bucket_ = found ? *found : open_bucket(entry.time);
    last_time_ = entry.time;
  }
  buckets_[last_bucket_].push_back(entry);
  ++size_;
}

std::uint32_t InstantHeapScheduler::open_bucket(TimePs time) {
  std::uint32_t bucket;
  if (free_buckets_.empty()) {
    COMMSIM_CHECK(buckets_.size() < kNoBucket, "too many pending instants");
    bucket = static_cast<std::uint32_t>(buckets_.size());
    buckets_.emplace_back();
  } else {
    bucket = free_buckets_.back();
    free_buckets_.pop_back();
  }
  bucket_of_time_.insert(static_cast<std::uint64_t>(time), bucket);
  heap_.push_back({time, bucket});
  std::push_heap(heap_.begin(), heap_.end(), later);
  return bucket;
}

void InstantHeapScheduler::take_batch(std::vector<EventEntry>& batch) {
  COMMSIM_CHECK(!heap_.empty(), "batch taken from an empty event queue");
  std::pop_heap(heap_.begin(), heap_.end(), later);
  const Instant instant = heap_.back();
  heap_.pop_back();
  bucket_of_time_.erase(static_cast<std::uint64_t>(instant.time));
  if (last_bucket_ == instant.bucket) last_bucket_ = kNoBucket;
  // The caller's old vector, emptied, becomes the recycled bucket's storage.
  batch.clear();
  std::swap(batch, buckets_[instant.bucket]);
  free_buckets_.push_back(instant.bucket);
  size_ -= batch.size();
}

}  // namespace commsim
