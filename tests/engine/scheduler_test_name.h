#pragma once
// Names tests parameterized by scheduler after it: AllSchedulers/EngineOrderTest.X/radixheap.

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "engine/event_scheduler.h"

namespace commsim {

/// How gtest prints a parameter in a failure: GetParam() = radix-heap.
inline void PrintTo(SchedulerKind kind, std::ostream* os) { *os << scheduler_name(kind); }

inline std::string scheduler_test_name(const ::testing::TestParamInfo<SchedulerKind>& info) {
  std::string name(scheduler_name(info.param));
  std::erase(name, '-');  // test names are alphanumeric
  return name;
}

}  // namespace commsim
