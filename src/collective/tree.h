#pragma once
// Tree algorithms.
//
//   Broadcast, Reduce: binomial tree, as in MPICH (Thakur, Rabenseifner & Gropp,
//     "Optimization of Collective Communication Operations in MPICH", IJHPCA 19(1), 2005).
//     With rel = (r - root) mod p and L = ceil(log2 p), round k = 0..L-1 has every
//     rel < 2^k send the whole buffer to rel + 2^k; Reduce is the same tree run backwards.
//     One block; on an idle non-blocking network L (alpha + n beta) (+ n gamma per
//     reduction on the critical path).
//   AllReduce: NCCL's double binary tree. Two channels each reduce half the data up a
//     binary tree and broadcast it back down; tree 1 is tree 0 mirrored (p even) or
//     shifted by one rank (p odd), so a rank that is interior in one tree is a leaf or
//     the root of the other and the two halves use different links. Two blocks, block t on
//     channel t. With nodes of G > 1 GPUs, NCCL's own layout (src/graph/connect.cc): a
//     chain through each node's GPUs and the double binary tree across the nodes, joining
//     the chains' heads (GPU 0 of a node in tree 0; GPU G-1 in tree 1, whose chain runs
//     the other way), and with T > 2 trees (NCCL's tree channels) their chains start at
//     T different GPUs of a node. NCCL's trees move at their channels' fixed rates
//     (collective/channel_rates.h): each edge's message of a chunk, up or down, at its share
//     of the links with every edge of every tree busy both ways.

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

/// `kind` is kBroadcast, kReduce or kAllReduce (algorithms.cpp checked it); `root` is used
/// by Broadcast and Reduce; `node_gpus` G and `trees` T by AllReduce: NCCL's trees with ranks
/// in nodes of G (rank r on node r / G; G = 1: its trees of nodes) at fixed channel rates;
/// 0 for the double binary tree of all ranks, sharing links as its messages meet; T >= 2
/// trees at once, each with 1/T of the data (fewer count as 2). Throws InputError unless G
/// divides the ranks.
std::unique_ptr<Schedule> make_tree_schedule(CollectiveKind kind, std::size_t ranks, Rank root,
                                             std::size_t node_gpus = 0, std::size_t trees = 2);

}  // namespace commsim
