#include "collective/algorithms.h"

#include <algorithm>

#include "base/error.h"
#include "collective/barrier.h"
#include "collective/direct.h"
#include "collective/footprint.h"
#include "collective/multilevel.h"
#include "collective/recursive.h"
#include "collective/ring.h"
#include "collective/tree.h"
#include "topology/in_switch.h"

namespace commsim {
namespace {

using C = CollectiveKind;
using A = AlgorithmKind;

std::string topology_text(const Topology& t) {
  return "topology '" + t.name() + "' (" + t.description() + ")";
}

}  // namespace

std::optional<std::string> inapplicable_reason(CollectiveKind kind, AlgorithmKind algorithm,
                                               const Topology& topology) {
  if (!implements(algorithm, kind)) {
    return "algorithm '" + std::string(algorithm_name(algorithm)) + "' does not implement " +
           std::string(collective_name(kind)) + " (it implements " +
           collective_names(implemented_collectives(algorithm)) + ")";
  }
  if (!needs_topology_shape(kind, algorithm)) return std::nullopt;
  const std::optional<TopologyKind> shape = topology.shape().kind;
  const std::string name(algorithm_name(algorithm));
  switch (algorithm) {
    case A::kHierarchical:
      if (shape != TopologyKind::kHierarchical) {
        return "algorithm 'hierarchical' needs a hierarchical topology, not " + topology_text(topology);
      }
      break;
    case A::kDimensional:
      if (shape != TopologyKind::kMesh && shape != TopologyKind::kTorus) {
        return "algorithm 'dimensional' needs a mesh or torus, not " + topology_text(topology);
      }
      break;
    case A::kDirect:
      if (shape != TopologyKind::kSwitch && shape != TopologyKind::kFullyConnected) {
        return "algorithm 'direct' runs " + std::string(collective_name(kind)) +
               " only on a switch or fully-connected topology, not " + topology_text(topology);
      }
      break;
    case A::kNvls:
    case A::kNvlsTree:
      if (auto reason = in_switch_unavailable(topology, algorithm == A::kNvlsTree)) {
        return "algorithm '" + name + "': " + *reason;
      }
      break;
    default: break;
  }
  return std::nullopt;
}

std::vector<AlgorithmKind> applicable_algorithms(CollectiveKind kind, const Topology& topology) {
  std::vector<AlgorithmKind> result;
  for (const AlgorithmKind a : all_algorithms()) {
    if (!inapplicable_reason(kind, a, topology)) result.push_back(a);
  }
  return result;
}

namespace {

// Every algorithm's schedule over p ranks; the multi-level ones take the topology's levels.
// NCCL's tree (tree_node_gpus > 0) runs a tree per channel, at least two; the double
// binary tree of all ranks (0) runs two.
std::unique_ptr<Schedule> schedule_for(CollectiveKind kind, AlgorithmKind algorithm, const Topology& topology,
                                       std::size_t p, Rank root, std::size_t channels = 1,
                                       std::size_t tree_node_gpus = 0) {
  switch (algorithm) {
    case A::kRing: return make_ring_schedule(kind, p, false, root);
    case A::kRingBidir: return make_ring_schedule(kind, p, true, root);
    case A::kTree:
      return make_tree_schedule(kind, p, root, tree_node_gpus,
                                collective_lanes(kind, algorithm, channels, tree_node_gpus));
    case A::kRecursiveDoubling:
    case A::kRecursiveHalving:
    case A::kRabenseifner: return make_recursive_schedule(kind, algorithm, p);
    case A::kDirect:
    case A::kPairwise:
    case A::kBruck: return make_direct_schedule(kind, algorithm, p);
    case A::kHierarchical:
      return make_multilevel_schedule(kind, topology.shape().levels, false, root);
    case A::kDimensional:
      return make_multilevel_schedule(kind, topology.shape().levels,
                                      topology.shape().kind == TopologyKind::kTorus, root);
    case A::kDissemination: return make_dissemination_schedule(p);
    case A::kNvls:
    case A::kNvlsTree:
      throw InputError("algorithm '" + std::string(algorithm_name(algorithm)) +
                       "' reduces in the switch: it runs as flows to and from the switch, "
                       "not as a schedule of messages");
  }
  throw InternalError("unhandled algorithm");
}

}  // namespace

std::unique_ptr<Schedule> make_schedule(CollectiveKind kind, AlgorithmKind algorithm, const Topology& topology,
                                        Rank root, std::size_t channels, std::size_t tree_node_gpus) {
  if (const auto reason = inapplicable_reason(kind, algorithm, topology)) throw InputError(*reason);
  if (algorithm == A::kRing && collective_lanes(kind, algorithm, channels, tree_node_gpus) > 1) {
    check_lanes(topology.npu_count(), channels, 1,
                "ring " + std::string(collective_name(kind)) + " on " + std::to_string(topology.npu_count()) +
                    " ranks in " + std::to_string(channels) + " rings");
    std::vector<std::vector<Rank>> orders;
    for (std::size_t c = 0; c < channels; ++c) orders.push_back(topology.ring_order(c, channels));
    return make_channel_ring_schedule(kind, std::move(orders), root);
  }
  return schedule_for(kind, algorithm, topology, topology.npu_count(), root, channels, tree_node_gpus);
}

AlgorithmKind default_algorithm(CollectiveKind kind, const Topology& topology, bool whole_topology) {
  switch (kind) {
    case C::kBroadcast:
    case C::kReduce: return A::kTree;
    case C::kAllToAll: return A::kDirect;
    case C::kBarrier: return A::kDissemination;
    default: break;
  }
  if (whole_topology) {
    const auto shape = topology.shape().kind;
    if (shape == TopologyKind::kHierarchical) return A::kHierarchical;
    if (shape == TopologyKind::kMesh || shape == TopologyKind::kTorus) return A::kDimensional;
  }
  return A::kRing;
}

std::size_t default_channels(const Topology& topology, const LibraryProfile& library) {
  const Shape& shape = topology.shape();
  const bool channels = !library.ideal() && !library.runs_own_algorithms();
  return channels && shape.kind == TopologyKind::kHierarchical ? shape.levels.at(0) : 1;
}

std::size_t default_tree_node_gpus(const Topology& topology, const LibraryProfile& library) {
  if (library.ideal() || library.runs_own_algorithms()) return 0;
  const Shape& shape = topology.shape();
  return shape.kind == TopologyKind::kHierarchical ? shape.levels.at(0) : topology.npu_count();
}

Bytes block_space_bytes(CollectiveKind kind, Bytes size, std::size_t ranks) {
  return kind == C::kAllToAll ? multiply_sizes(size, ranks, "AllToAll data of all ranks (size x ranks)") : size;
}

}  // namespace commsim
