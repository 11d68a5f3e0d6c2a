#pragma once
// Algorithms that talk to many peers per step, for switched and fully-connected networks
// (where every pair has its own path), after Thakur, Rabenseifner & Gropp, "Optimization of
// Collective Communication Operations in MPICH", IJHPCA 19(1), 2005:
//
//   direct    one step in which every rank sends to every other (AllToAll, AllGather,
//             ReduceScatter); AllReduce is that ReduceScatter then a direct AllGather of
//             the reduced blocks. Latency-optimal (1 or 2 alphas); each rank's link carries
//             p-1 concurrent flows.
//   pairwise  AllToAll in p-1 steps; in step k rank r sends to r+k+1 and receives from
//             r-k-1 (MPICH's pairwise exchange), so each link carries one flow at a time.
//   bruck     ceil(log2 p) steps (Bruck, Ho, Kipnis, Upfal & Weathersby, IEEE TPDS 8(11),
//             1997). AllGather: bandwidth-optimal for any p. AllToAll: each block hops
//             along the binary digits of its offset (d - s) mod p, so it trades about
//             (p/2) log2 p blocks sent per rank for log2 p alphas.
//
// Block spaces follow data_tracker.h: p blocks for AllGather, ReduceScatter and AllReduce
// (block b belongs to rank b), p*p for AllToAll (block s*p + d goes from s to d).

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

/// `algorithm` is kDirect, kPairwise or kBruck and implements `kind` (algorithms.cpp has
/// checked both).
std::unique_ptr<Schedule> make_direct_schedule(CollectiveKind kind, AlgorithmKind algorithm, std::size_t ranks);

}  // namespace commsim
