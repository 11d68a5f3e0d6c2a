#include "allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace commsim {
namespace {
std::atomic<std::uint64_t> allocations{0};
}  // namespace

std::uint64_t heap_allocations() { return allocations.load(std::memory_order_relaxed); }

}  // namespace commsim

// The array forms and the nothrow forms call these by default.
void* operator new(std::size_t size) {
  commsim::allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
