#pragma once
// The vocabulary of collectives, shared by the simulator and the closed-form model (which
// must not depend on each other): kinds, algorithms, and nccl-tests' size and bus-bandwidth
// conventions (nccl-tests doc/PERFORMANCE.md and src/*.cu).
//
// Sizes follow nccl-tests: `size` is what nccl-tests prints in its size column.
//   AllReduce, Broadcast, Reduce: each rank's buffer.
//   AllGather: the gathered output (each rank contributes size / p).
//   ReduceScatter: the input (each rank ends with size / p).
//   AllToAll: what each rank sends in all (size / p to each rank, itself included).
// For AllGather, ReduceScatter and AllToAll nccl-tests rounds the size down to a multiple
// of p elements; its count column is elements per rank (size / type / p).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.h"

namespace commsim {

enum class CollectiveKind : std::uint8_t { kAllReduce, kAllGather, kReduceScatter, kBroadcast, kReduce, kAllToAll, kBarrier };

enum class AlgorithmKind : std::uint8_t {
  kRing,               // ring (NCCL's AllReduce = ring ReduceScatter + ring AllGather); chain for Broadcast/Reduce
  kRingBidir,          // half the data around each direction of the ring
  kTree,               // binomial tree (Broadcast, Reduce); double binary tree (AllReduce)
  kRecursiveDoubling,  // AllGather, AllReduce
  kRecursiveHalving,   // ReduceScatter
  kRabenseifner,       // AllReduce = recursive-halving ReduceScatter + recursive-doubling AllGather
  kDirect,             // every rank with every other at once
  kPairwise,           // AllToAll in p-1 rounds
  kBruck,              // AllGather, AllToAll
  kHierarchical,       // per level of a hierarchical topology (intra-node, inter-node)
  kDimensional,        // per dimension of a mesh or torus
  kDissemination,      // Barrier
  kNvls,               // AllReduce reduced and multicast by an NVSwitch (NVLink SHARP)
  kNvlsTree,           // AllReduce: NVLS inside each node, a tree across nodes
};

/// Whether the algorithm reduces in a switch (NVLS) rather than on the ranks.
constexpr bool reduces_in_switch(AlgorithmKind kind) {
  return kind == AlgorithmKind::kNvls || kind == AlgorithmKind::kNvlsTree;
}

/// Whether `algorithm` runs `kind` (a pair it implements) only on a topology of some shape,
/// as collective/algorithms.h's inapplicable_reason says which: hierarchical (a hierarchical
/// topology), dimensional (a mesh or torus), direct except AllToAll (a switch or fully
/// connected), and the in-switch ones (a switch that reduces). Every other pair runs on any.
constexpr bool needs_topology_shape(CollectiveKind kind, AlgorithmKind algorithm) {
  return algorithm == AlgorithmKind::kHierarchical || algorithm == AlgorithmKind::kDimensional ||
         (algorithm == AlgorithmKind::kDirect && kind != CollectiveKind::kAllToAll) || reduces_in_switch(algorithm);
}

/// Whether a ring of `kind` runs as channel rings, each its share of the data (every
/// collective but AllToAll and Barrier).
constexpr bool has_channel_rings(CollectiveKind kind) {
  return kind != CollectiveKind::kAllToAll && kind != CollectiveKind::kBarrier;
}

/// The rings or trees a schedule of `algorithm` runs at once, each one of the library's
/// channels: `channels` rings (channel rings, where the collective has them); a tree
/// AllReduce, NCCL's tree (with `tree_node_gpus` GPUs a node) a tree per channel, at least
/// two, and the double binary tree of all ranks two; 1 for every other run.
constexpr std::size_t collective_lanes(CollectiveKind kind, AlgorithmKind algorithm, std::size_t channels,
                                       std::size_t tree_node_gpus) {
  if (algorithm == AlgorithmKind::kRing) return channels > 1 && has_channel_rings(kind) ? channels : 1;
  if (algorithm != AlgorithmKind::kTree || kind != CollectiveKind::kAllReduce) return 1;
  return tree_node_gpus > 0 && channels > 2 ? channels : 2;
}

/// Whether a ring runs the collective in steps round the ring, every rank sending at once
/// (AllReduce, AllGather, ReduceScatter: NCCL's ring patterns); Broadcast and Reduce run as
/// a chain from or to the root instead.
constexpr bool runs_round_the_ring(CollectiveKind kind) {
  return kind == CollectiveKind::kAllReduce || kind == CollectiveKind::kAllGather ||
         kind == CollectiveKind::kReduceScatter;
}

std::string_view collective_name(CollectiveKind kind);  // "allreduce"
std::optional<CollectiveKind> collective_from_name(std::string_view name);
std::string_view algorithm_name(AlgorithmKind kind);    // "ring-bidir"
std::optional<AlgorithmKind> algorithm_from_name(std::string_view name);
/// As the _from_name functions, but an unknown name is an InputError "<what>: unknown
/// collective 'x' (known: ...)".
CollectiveKind parse_collective(std::string_view name, std::string_view what);
AlgorithmKind parse_algorithm(std::string_view name, std::string_view what);
const std::vector<CollectiveKind>& all_collectives();
const std::vector<AlgorithmKind>& all_algorithms();
/// "allreduce, allgather, ...": every name, in the order above, for help and errors.
std::string collective_names();
/// "allreduce, broadcast": the names of `kinds`, in their order.
std::string collective_names(const std::vector<CollectiveKind>& kinds);

/// The collectives `algorithm` implements, in the order of all_collectives(): the one table
/// of collectives x algorithms that the simulator (collective/algorithms.h), the closed form
/// (model/collective_model.h, a formula for every pair) and --help read. Whether the
/// algorithm runs on a given topology is the collective layer's further check.
const std::vector<CollectiveKind>& implemented_collectives(AlgorithmKind algorithm);
bool implements(AlgorithmKind algorithm, CollectiveKind kind);

/// nccl-tests' element type: float.
inline constexpr Bytes kElementBytes = 4;

/// The size nccl-tests would run and print for a requested size on p ranks.
Bytes nccl_size(CollectiveKind kind, Bytes requested, std::size_t ranks);
/// nccl-tests' count column: elements per rank.
Bytes nccl_count(CollectiveKind kind, Bytes size, std::size_t ranks);
/// busbw = algbw * factor: AllReduce 2(p-1)/p; AllGather, ReduceScatter, AllToAll (p-1)/p;
/// Broadcast, Reduce 1; Barrier 0 (it moves no data).
double busbw_factor(CollectiveKind kind, std::size_t ranks);

}  // namespace commsim
