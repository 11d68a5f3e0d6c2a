#pragma once
// A list of 32-bit ids that keeps up to two in place and more on the heap: the flows on
// one link direction, of which most links carry one or two (a ring, a GPU's NIC link).
//
// 16 bytes against 24 for a std::vector and its separate heap block, so a list and the
// record that holds it share a cache line and an empty or short list costs no second
// memory access. Order and operations are a vector's: push_back appends, pop_back drops the
// last, and storage, once on the heap, stays there for reuse.

#include <algorithm>
#include <cstdint>
#include <utility>

#include "base/error.h"

namespace commsim {

class SmallIdList {
 public:
  SmallIdList() = default;
  SmallIdList(SmallIdList&& other) noexcept { take(other); }
  SmallIdList& operator=(SmallIdList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  SmallIdList(const SmallIdList&) = delete;
  SmallIdList& operator=(const SmallIdList&) = delete;
  ~SmallIdList() { release(); }

  std::uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint32_t* begin() { return data(); }
  std::uint32_t* end() { return data() + size_; }
  const std::uint32_t* begin() const { return data(); }
  const std::uint32_t* end() const { return data() + size_; }
  std::uint32_t& operator[](std::uint32_t i) { return data()[i]; }
  std::uint32_t operator[](std::uint32_t i) const { return data()[i]; }

  void push_back(std::uint32_t id) {
    if (size_ == capacity_) grow();
    data()[size_++] = id;
  }
  /// Precondition: !empty().
  void pop_back() { --size_; }

 private:
  static constexpr std::uint32_t kInPlace = 2;

  bool on_heap() const { return capacity_ > kInPlace; }
  std::uint32_t* data() { return on_heap() ? heap_ : in_place_; }
  const std::uint32_t* data() const { return on_heap() ? heap_ : in_place_; }
  void grow() {
    COMMSIM_CHECK(capacity_ <= UINT32_MAX / 2, "more than 2^31 ids in a list");
    auto* bigger = new std::uint32_t[2 * capacity_];
    std::copy(begin(), end(), bigger);
    release();
    heap_ = bigger;
    capacity_ *= 2;
  }
  void release() {
    if (on_heap()) delete[] heap_;
  }
  void take(SmallIdList& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (on_heap()) {
      heap_ = std::exchange(other.heap_, nullptr);
    } else {
      std::copy(other.in_place_, other.in_place_ + kInPlace, in_place_);
    }
    other.size_ = 0;
    other.capacity_ = kInPlace;
  }

  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = kInPlace;
  union {
    std::uint32_t in_place_[kInPlace] = {};
    std::uint32_t* heap_;
  };
};
static_assert(sizeof(SmallIdList) == 16);

}  // namespace commsim
