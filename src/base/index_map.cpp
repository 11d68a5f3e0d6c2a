#include "base/index_map.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "base/error.h"

namespace commsim {

void IndexMap::insert(std::uint64_t key, std::uint32_t index) {
  COMMSIM_CHECK(index != kEmpty, "index map: the index UINT32_MAX marks an empty slot");
  if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? kMinCapacity : 2 * slots_.size());
  std::size_t i = home(key);
  while (slots_[i].index != kEmpty) {
    COMMSIM_CHECK(slots_[i].key != key, "index map: key inserted twice");
    i = (i + 1) & mask();
  }
  slots_[i] = {key, index};
  ++size_;
}

// Algorithm R: after emptying slot i, walk the run that follows it; an entry at j whose home
// h is not cyclically in (i, j] would be cut off from its home by the hole, so it moves into
// the hole, and the hole moves to j.
void IndexMap::erase(std::uint64_t key) {
  COMMSIM_CHECK(!slots_.empty(), "index map: erase of an absent key");
  std::size_t i = home(key);
  while (slots_[i].key != key || slots_[i].index == kEmpty) {
    COMMSIM_CHECK(slots_[i].index != kEmpty, "index map: erase of an absent key");
    i = (i + 1) & mask();
  }
  for (std::size_t j = (i + 1) & mask(); slots_[j].index != kEmpty; j = (j + 1) & mask()) {
    const std::size_t h = home(slots_[j].key);
    const bool reachable = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (reachable) continue;
    slots_[i] = slots_[j];
    i = j;
  }
  slots_[i] = Slot{};
  --size_;
  // An eighth full: to a quarter full (amortized O(1): the entries erased since the array
  // was last sized outnumber those moved).
  if (slots_.size() > kMinCapacity && 8 * size_ < slots_.size()) {
    rehash(std::max(kMinCapacity, std::bit_ceil(4 * size_)));
  }
}

void IndexMap::rehash(std::size_t capacity) {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
  size_ = 0;
  for (const Slot& slot : old) {
    if (slot.index != kEmpty) insert(slot.key, slot.index);
  }
}

}  // namespace commsim
