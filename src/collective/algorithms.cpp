#include "collective/algorithms.h"
#include <algorithm>

#include "base/error.h"
#include "collective/barrier.h"
#include "collective/direct.h"
#include "collective/multilevel.h"
#include "collective/recursive.h"
#include "collective/ring.h"
#include "collective/tree.h"

namespace commsim {
namespace {

using C = CollectiveKind;
using A = AlgorithmKind;

std::vector<CollectiveKind> implemented(AlgorithmKind algorithm) {
  switch (algorithm) {
    case A::kRing:
    case A::kRingBidir:
    case A::kHierarchical:
    case A::kDimensional:
      return {C::kAllReduce, C::kAllGather, C::kReduceScatter, C::kBroadcast, C::kReduce};
    case A::kTree: return {C::kAllReduce, C::kBroadcast, C::kReduce};
    case A::kRecursiveDoubling: return {C::kAllReduce, C::kAllGather};
    case A::kRecursiveHalving: return {C::kReduceScatter};
    case A::kRabenseifner: return {C::kAllReduce};
    case A::kDirect: return {C::kAllReduce, C::kAllGather, C::kReduceScatter, C::kAllToAll};
    case A::kPairwise: return {C::kAllToAll};
    case A::kBruck: return {C::kAllGather, C::kAllToAll};
    case A::kDissemination: return {C::kBarrier};
  }
  return {};
}

std::string topology_text(const Topology& t) {
  return "topology '" + t.name() + "' (" + t.description() + ")";
}

}  // namespace

std::optional<std::string> inapplicable_reason(CollectiveKind kind, AlgorithmKind algorithm,
                                               const Topology& topology) {
  const std::vector<CollectiveKind> kinds = implemented(algorithm);
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string list;
    for (const CollectiveKind k : kinds) {
      if (!list.empty()) list += ", ";
      list += collective_name(k);
    }
    return "algorithm '" + std::string(algorithm_name(algorithm)) + "' does not implement " +
           std::string(collective_name(kind)) + " (it implements " + list + ")";
  }
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
      if (kind != C::kAllToAll && shape != TopologyKind::kSwitch &&
          shape != TopologyKind::kFullyConnected) {
        return "algorithm 'direct' runs " + std::string(collective_name(kind)) +
               " only on a switch or fully-connected topology, not " + topology_text(topology);
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

std::unique_ptr<Schedule> make_schedule(CollectiveKind kind, AlgorithmKind algorithm,
                                        const Topology& topology, Rank root) {
  if (const auto reason = inapplicable_reason(kind, algorithm, topology)) throw InputError(*reason);
  const std::size_t p = topology.npu_count();
  switch (algorithm) {
    case A::kRing: return make_ring_schedule(kind, p, false, root);
    case A::kRingBidir: return make_ring_schedule(kind, p, true, root);
    case A::kTree: return make_tree_schedule(kind, p, root);
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
  }
  throw InternalError("unhandled algorithm");
}

Bytes block_space_bytes(CollectiveKind kind, Bytes size, std::size_t ranks) {
  return kind == C::kAllToAll ? size * ranks : size;
}

}  // namespace commsim
