#pragma once
// A hash map from 64-bit keys to 32-bit indices, for hot paths that look a small record up
// by a number (the events of an instant by its time, what waits between a receiving lane
// and a sender).
//
// Open addressing with linear probing in one flat array: no allocation per entry. It is
// kept at most half full, and shrunk once it is an eighth full, so that a burst of entries
// (the pairs of an all-to-all's first instant) leaves no large array behind, while a map
// that stays at its working size does not allocate again. Erase shifts the following
// entries of the probe run back (Knuth, TAOCP vol. 3, 6.4 Algorithm R), so no tombstones
// accumulate. find, insert and erase are O(1) amortized expected.

#include <cstdint>
#include <vector>

namespace commsim {

class IndexMap {
 public:
  /// The index stored under `key`, or null. Valid until the next insert or erase.
  const std::uint32_t* find(std::uint64_t key) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.index == kEmpty) return nullptr;
      if (slot.key == key) return &slot.index;
    }
  }
  /// Stores `index` (< UINT32_MAX) under `key`, which must be absent.
  void insert(std::uint64_t key, std::uint32_t index);
  /// Removes `key`, which must be present.
  void erase(std::uint64_t key);
  /// Calls f(key, index) for every entry, in no particular order.
  template <typename F>
  void for_each(F f) const {
    for (const Slot& slot : slots_) {
      if (slot.index != kEmpty) f(slot.key, slot.index);
    }
  }
  std::size_t size() const { return size_; }
  /// Slots in the array (memory: 16 bytes each).
  std::size_t capacity() const { return slots_.size(); }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t index = kEmpty;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  /// MurmurHash3's 64-bit finalizer: times and (lane, rank) pairs differ mostly in a few
  /// bits, which it spreads over all of them.
  std::size_t home(std::uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key) & mask();
  }
  /// Moves every entry into a new array of `capacity` slots (a power of two, at least twice
  /// the size).
  void rehash(std::size_t capacity);

  static constexpr std::size_t kMinCapacity = 16;
  std::vector<Slot> slots_;  // a power of two of them, or none
  std::size_t size_ = 0;
};

}  // namespace commsim
