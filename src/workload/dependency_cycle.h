#pragma once
// Finds a cycle among one rank's node dependencies, so that a trace that could never finish
// is rejected when it is loaded and the message names the nodes on the cycle.

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

#include "workload/workload.h"

namespace commsim {

/// Positions in `rank.nodes` of the nodes on one dependency cycle, each waiting for the next
/// and the last for the first ({i} when node i depends on itself), or nothing when the
/// dependencies form a DAG. Every dependency must be in `index` (see index_by_id).
/// Deterministic: depth-first search from the nodes in file order. O(nodes + dependencies).
std::optional<std::vector<std::size_t>> find_dependency_cycle(
    const RankTrace& rank, const std::unordered_map<TraceNodeId, std::size_t>& index);

}  // namespace commsim
