#pragma once
// Counts heap allocations: the benchmark program replaces the global operator new
// (allocation_counter.cpp) so that a benchmark can report allocations per message.

#include <cstdint>

namespace commsim {

/// Calls of operator new so far in this program.
std::uint64_t heap_allocations();

}  // namespace commsim
