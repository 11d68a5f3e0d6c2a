#pragma once
// The deadlock report of a replay (workload/replay.h) that fell silent with nodes left.
// Internal to the replay.

#include <cstddef>
#include <vector>

#include "workload/collective_meetings.h"

namespace commsim::replay {

/// Throws DeadlockError when `blocked` (nodes that started and never finished) is not
/// empty: a line per such node saying what it waits for (an unmatched send or receive with
/// peer and tag, the ranks that never reach its collective), then how many nodes wait
/// behind them.
void report_deadlock(const Workload& workload, const std::vector<NodeRef>& blocked, std::size_t waiting_behind,
                     const CollectiveMeetings& meetings);

}  // namespace commsim::replay
