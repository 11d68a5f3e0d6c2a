#pragma once
// Ring algorithms (NCCL's): AllReduce = ring ReduceScatter + ring AllGather in 2(p-1)
// steps; AllGather and ReduceScatter in p-1 steps of n/p; Broadcast and Reduce as a
// chain through the ring (pipelined with chunks). Bidirectional: two rings at once, one
// each way round, each with half the data.

#include <memory>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

std::unique_ptr<Schedule> make_ring_schedule(CollectiveKind kind, std::size_t ranks,
                                             bool bidirectional, Rank root);

}  // namespace commsim
