#pragma once
// Recursive doubling (AllGather, AllReduce), recursive halving (ReduceScatter) and
// Rabenseifner (AllReduce = recursive halving + recursive doubling), as in MPICH
// (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in
// MPICH", IJHPCA 2005).
//
// On p' = 2^floor(log2 p) ranks, step k pairs rank v with v XOR 2^k (doubling) or
// v XOR p'/2^(k+1) (halving). Idle-network times on p = p' ranks, n bytes:
//   doubling AllReduce    log p (alpha + n beta + n gamma)   every message is the whole vector
//   doubling AllGather    log p alpha + (p-1)/p n beta
//   halving ReduceScatter log p alpha + (p-1)/p n (beta + gamma)
//   Rabenseifner          2 log p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
// Other p fold first (the paper's treatment of non-powers of two for Rabenseifner): of the
// 2 rem = 2 (p - p') lowest ranks, each even rank r hands its data to r+1 and sits out; the
// p' others run the power-of-two algorithm as virtual ranks; at the end r+1 sends r its
// result. That adds two steps to the critical path: fold (n bytes, n/p for AllGather) and
// unfold (n bytes for AllReduce, n/p for ReduceScatter, (p-1)/p n for AllGather) when the
// ranks move in lock step. The runner sends when a step starts, so ranks that do not fold
// run ahead and their early messages share the folding ranks' links with the fold
// (recursive_test.cpp derives a case).

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

/// `kind` is one `algorithm` implements (algorithms.cpp checked it): kRecursiveDoubling for
/// AllReduce or AllGather, kRecursiveHalving for ReduceScatter, kRabenseifner for AllReduce.
std::unique_ptr<Schedule> make_recursive_schedule(CollectiveKind kind, AlgorithmKind algorithm, std::size_t ranks);

}  // namespace commsim
