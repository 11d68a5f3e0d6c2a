#pragma once
// Two replays that must be the same run: equal total, equal per-rank times, and the same
// critical path by rank and time (node positions may differ between a trace and a copy of
// it written another way or without its skipped nodes).

#include <gtest/gtest.h>

#include <string>

#include "workload/replay.h"

namespace commsim::testing {

inline void expect_same_replay(const ReplayResult& a, const ReplayResult& b) {
  EXPECT_EQ(a.total_ps, b.total_ps);
  ASSERT_EQ(a.ranks.size(), b.ranks.size());
  for (std::size_t r = 0; r < a.ranks.size(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(a.ranks[r].finish_ps, b.ranks[r].finish_ps);
    EXPECT_EQ(a.ranks[r].compute_ps, b.ranks[r].compute_ps);
    EXPECT_EQ(a.ranks[r].exposed_comm_ps, b.ranks[r].exposed_comm_ps);
  }
  ASSERT_EQ(a.critical_path.size(), b.critical_path.size());
  for (std::size_t i = 0; i < a.critical_path.size(); ++i) {
    EXPECT_EQ(a.critical_path[i].rank, b.critical_path[i].rank);
    EXPECT_EQ(a.critical_path[i].start_ps, b.critical_path[i].start_ps);
    EXPECT_EQ(a.critical_path[i].end_ps, b.critical_path[i].end_ps);
  }
}

}  // namespace commsim::testing
