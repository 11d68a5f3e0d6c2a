#pragma once
// Which algorithm implements which collective on which topology, and the schedules.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"
#include "topology/topology.h"

namespace commsim {

/// Why `algorithm` cannot run `kind` on `topology`, or nothing if it can.
std::optional<std::string> inapplicable_reason(CollectiveKind kind, AlgorithmKind algorithm,
                                               const Topology& topology);
/// Every algorithm that can run `kind` on `topology`, in the order of all_algorithms().
std::vector<AlgorithmKind> applicable_algorithms(CollectiveKind kind, const Topology& topology);

/// Throws InputError with inapplicable_reason() if the algorithm does not apply. With
/// channels > 1, `ring` AllReduce, AllGather, ReduceScatter, Broadcast and Reduce run one
/// ring (or chain) per channel in the topology's ring orders (rail-aligned on a hierarchical
/// topology), each with 1/C of the data; other algorithms and collectives ignore channels.
/// `tree_node_gpus` G > 0: `tree` AllReduce is NCCL's, a tree per channel and at least two,
/// chaining the G GPUs of each node and joining the nodes by the double binary tree
/// (tree.h; G = 1: the double binary tree of the nodes alone); 0: the double binary tree of
/// all ranks, two trees whatever the channels.
std::unique_ptr<Schedule> make_schedule(CollectiveKind kind, AlgorithmKind algorithm, const Topology& topology,
                                        Rank root, std::size_t channels = 1, std::size_t tree_node_gpus = 0);

/// The algorithm used when none is chosen: the topology's own for AllReduce, AllGather and
/// ReduceScatter (hierarchical on hierarchical, dimensional on mesh and torus, ring
/// otherwise), tree for Broadcast and Reduce, direct for AllToAll, dissemination for Barrier.
AlgorithmKind default_algorithm(CollectiveKind kind, const Topology& topology, bool whole_topology);

/// The rings a library runs at once by default: on a hierarchical topology one per GPU of a
/// node (a ring per NIC, rail-aligned, as NCCL builds them); else, under ideal, and under a
/// library that runs its own algorithms from one thread (LibraryProfile::own_algorithms), 1.
std::size_t default_channels(const Topology& topology, const LibraryProfile& library);

/// The GPUs of a node that NCCL's tree chains (tree.h): under a library, a
/// hierarchical topology's GPUs per node (1 with one GPU a node: NCCL's trees of the nodes
/// alone), and all NPUs on any other topology (one node); under ideal, and a library that
/// runs its own algorithms, 0: the double binary tree of all ranks.
std::size_t default_tree_node_gpus(const Topology& topology, const LibraryProfile& library);

/// Bytes of a schedule's whole block space for an nccl-tests size on p ranks: the size,
/// except AllToAll, whose blocks hold every rank's data (p * size).
Bytes block_space_bytes(CollectiveKind kind, Bytes size, std::size_t ranks);

}  // namespace commsim
