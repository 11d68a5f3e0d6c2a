#pragma once
// Ring algorithms (NCCL's): AllReduce = ring ReduceScatter + ring AllGather in 2(p-1)
// steps; AllGather and ReduceScatter in p-1 steps of n/p; Broadcast and Reduce as a
// chain through the ring (pipelined with chunks). Bidirectional: two rings at once, one
// each way round, each with half the data. Several channels (NCCL's): one ring per
// channel, each in its own order of the ranks (Topology::ring_order), each with 1/C of the
// data, all the same way round.

#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

std::unique_ptr<Schedule> make_ring_schedule(CollectiveKind kind, std::size_t ranks,
                                             bool bidirectional, Rank root);
/// One ring per order (each a permutation of 0..p-1), for AllReduce, AllGather and
/// ReduceScatter; for Broadcast and Reduce a chain along each ring from (to) `root`, each
/// with 1/C of the data (NCCL's ring Broadcast and Reduce split the data over its channels).
std::unique_ptr<Schedule> make_channel_ring_schedule(CollectiveKind kind, std::vector<std::vector<Rank>> orders,
                                                     Rank root = 0);

}  // namespace commsim
