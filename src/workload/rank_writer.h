#pragma once
// Appends nodes to one rank of a Workload being generated (generators.h, training_step.h):
// each node gets the next id, 1, 2, 3, ... after the largest id the rank already holds, so
// ids follow the order nodes are listed in, which the generators keep topological.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "workload/workload.h"

namespace commsim {

class RankWriter {
 public:
  explicit RankWriter(RankTrace& rank) : rank_(rank) {
    for (const WorkloadNode& n : rank.nodes) next_id_ = std::max(next_id_, n.id + 1);
  }

  /// Adds `node` with the next id and `deps` (ids of this rank, no repeats); returns the id.
  TraceNodeId add(WorkloadNode node, std::vector<TraceNodeId> deps) {
    node.id = next_id_++;
    node.deps = std::move(deps);
    rank_.nodes.push_back(std::move(node));
    return rank_.nodes.back().id;
  }

  TraceNodeId compute(std::string name, TimePs duration_ps, std::vector<TraceNodeId> deps) {
    WorkloadNode n;
    n.kind = NodeKind::kCompute;
    n.name = std::move(name);
    n.duration_ps = duration_ps;
    return add(std::move(n), std::move(deps));
  }

  /// `group`: index into Workload::groups; empty: all ranks.
  TraceNodeId collective(std::string name, CollectiveKind kind, Bytes bytes,
                         std::optional<AlgorithmKind> algorithm, std::optional<std::size_t> group,
                         std::vector<TraceNodeId> deps) {
    WorkloadNode n;
    n.kind = NodeKind::kCollective;
    n.name = std::move(name);
    n.collective = kind;
    n.bytes = bytes;
    n.algorithm = algorithm;
    n.group = group;
    return add(std::move(n), std::move(deps));
  }

 private:
  RankTrace& rank_;
  TraceNodeId next_id_ = 1;
};

}  // namespace commsim
