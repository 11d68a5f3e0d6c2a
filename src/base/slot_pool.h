#pragma once
// Records of one kind, numbered by 32-bit ids, kept in fixed chunks of 1,024 and reused
// through a free list: the store of a hot path's short-lived records (flows, pending
// events, messages in flight).
//
// Against a std::vector of records: a record never moves (the store grows by a chunk, it
// never copies the records it has), so growing costs no copy and the peak memory is the
// records plus one chunk, not three times them while a vector reallocates; a run that has
// reached its working size allocates nothing more.

#include <cstdint>
#include <memory>
#include <vector>

#include "base/error.h"

namespace commsim {

template <typename T>
class SlotPool {
 public:
  /// A free id (its record as the last release left it, or default-constructed if new).
  std::uint32_t acquire() {
    if (!free_.empty()) {
      const std::uint32_t id = free_.back();
      free_.pop_back();
      return id;
    }
    COMMSIM_CHECK(made_ < UINT32_MAX, "more than 2^32 - 1 records in a pool");
    if (made_ % kChunk == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
    return made_++;
  }
  /// Makes `id` free for a later acquire(); its record stays as it is until then.
  void release(std::uint32_t id) { free_.push_back(id); }

  T& operator[](std::uint32_t id) { return chunks_[id >> kChunkBits][id & (kChunk - 1)]; }
  const T& operator[](std::uint32_t id) const { return chunks_[id >> kChunkBits][id & (kChunk - 1)]; }
  /// Ids made so far (in use or free): every id below it names a record.
  std::uint32_t made() const { return made_; }
  std::size_t in_use() const { return made_ - free_.size(); }

 private:
  static constexpr std::uint32_t kChunkBits = 10;
  static constexpr std::uint32_t kChunk = std::uint32_t{1} << kChunkBits;

  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<std::uint32_t> free_;
  std::uint32_t made_ = 0;
};

}  // namespace commsim
