#include "workload/workload.h"

#include <algorithm>
#include <numeric>

#include "base/error.h"
#include "workload/dependency_cycle.h"

namespace commsim {
namespace {

std::string rank_range(std::size_t ranks) {
  return std::to_string(ranks) + " ranks (0.." + std::to_string(ranks - 1) + ")";
}

std::string node_label(const WorkloadNode& node) {
  std::string label = std::to_string(node.id);
  if (!node.name.empty()) label += " (" + node.name + ")";
  return label;
}

// "node 1 (a) waits for 3 (c), which waits for 2 (b), which waits for 1 (a)"; a long cycle
// shows its first kCycleNodesShown nodes.
std::string cycle_text(const RankTrace& rank, const std::vector<std::size_t>& cycle) {
  constexpr std::size_t kCycleNodesShown = 10;
  const WorkloadNode& first = rank.nodes[cycle.front()];
  if (cycle.size() == 1) return "node " + node_label(first) + " depends on itself";
  std::string text = "node " + node_label(first);
  for (std::size_t i = 1; i < std::min(cycle.size(), kCycleNodesShown); ++i) {
    text += (i == 1 ? " waits for " : ", which waits for ") + node_label(rank.nodes[cycle[i]]);
  }
  text += ", which waits for ";
  if (cycle.size() > kCycleNodesShown) text += "... ";
  text += node_label(first);
  if (cycle.size() > kCycleNodesShown) {
    text += " (a cycle of " + std::to_string(cycle.size()) + " nodes)";
  }
  return text;
}

// Checks a group the first time a collective uses it, so that the message names that node.
class GroupChecker {
 public:
  explicit GroupChecker(const Workload& workload) : workload_(workload), sorted_(workload.groups.size()) {}

  void check(Rank rank, const WorkloadNode& node) {
    if (!node.group) return;  // all ranks, which include this one
    // Where, for a message: built only when there is one (a trace has millions of nodes).
    const auto where = [&] { return node_context(workload_, rank, node); };
    if (*node.group >= workload_.groups.size()) {
      throw InputError(where() + ": collective group index " + std::to_string(*node.group) +
                       " does not exist (the trace has " + std::to_string(workload_.groups.size()) +
                       " groups)");
    }
    const CommGroup& group = workload_.groups[*node.group];
    const auto named = [&] { return "collective group '" + group.name + "'"; };
    std::vector<Rank>& members = sorted_[*node.group];
    if (members.empty()) {
      if (group.ranks.empty()) throw InputError(where() + ": " + named() + " has no ranks");
      std::vector<bool> seen(workload_.rank_count(), false);
      for (const Rank member : group.ranks) {
        if (member >= workload_.rank_count()) {
          throw InputError(where() + ": " + named() + " names rank " + std::to_string(member) +
                           ", outside the trace's " + rank_range(workload_.rank_count()));
        }
        if (seen[member]) {
          throw InputError(where() + ": " + named() + " names rank " + std::to_string(member) +
                           " twice");
        }
        seen[member] = true;
      }
      members = group.ranks;
      std::sort(members.begin(), members.end());
    }
    if (std::binary_search(members.begin(), members.end(), rank)) return;
    throw InputError(where() + ": " + named() + " does not include rank " + std::to_string(rank) +
                     ", which runs the collective");
  }

 private:
  const Workload& workload_;
  std::vector<std::vector<Rank>> sorted_;  // each group's members in order, once checked
};

void check_rank(const Workload& workload, Rank r, GroupChecker& groups) {
  const RankTrace& rank = workload.ranks[r];
  std::unordered_map<TraceNodeId, std::size_t> index;
  index.reserve(rank.nodes.size());
  for (std::size_t i = 0; i < rank.nodes.size(); ++i) {
    const auto [it, fresh] = index.emplace(rank.nodes[i].id, i);
    if (!fresh) {
      throw InputError(node_context(workload, r, rank.nodes[i]) + ": node id " +
                       std::to_string(rank.nodes[i].id) + " is used twice (nodes #" +
                       std::to_string(it->second) + " and #" + std::to_string(i) + " of the rank)");
    }
  }
  for (const WorkloadNode& node : rank.nodes) {
    const auto where = [&] { return node_context(workload, r, node); };
    for (const TraceNodeId dep : node.deps) {
      if (!index.count(dep)) {
        throw InputError(where() + ": depends on node " + std::to_string(dep) + ", which rank " +
                         std::to_string(r) + " does not have");
      }
    }
    if (node.duration_ps < 0) {
      throw InputError(where() + ": negative duration " + std::to_string(node.duration_ps) + " ps");
    }
    if ((node.kind == NodeKind::kSend || node.kind == NodeKind::kRecv) && node.peer &&
        *node.peer >= workload.rank_count()) {
      throw InputError(where() + ": " + std::string(node_kind_name(node.kind)) + " peer " +
                       std::to_string(*node.peer) + " is outside the trace's " +
                       rank_range(workload.rank_count()));
    }
    if (node.kind == NodeKind::kCollective) groups.check(r, node);
    if (node.kind == NodeKind::kCollective && node.collective == CollectiveKind::kBarrier &&
        node.bytes != 0) {
      throw InputError(where() + ": a barrier of " + std::to_string(node.bytes) +
                       " B: a barrier moves no data, so its size (collective.size, Chakra's "
                       "comm_size) must be absent or 0");
    }
  }
  if (const auto cycle = find_dependency_cycle(rank, index)) {
    throw InputError(rank.source + ": rank " + std::to_string(r) +
                     ": dependency cycle: " + cycle_text(rank, *cycle));
  }
}

}  // namespace

std::string_view node_kind_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::kCompute: return "compute";
    case NodeKind::kCollective: return "collective";
    case NodeKind::kSend: return "send";
    case NodeKind::kRecv: return "recv";
    case NodeKind::kSkipped: return "skipped";
  }
  return "unknown";
}

std::vector<Rank> Workload::members(const WorkloadNode& collective) const {
  if (collective.group) return groups.at(*collective.group).ranks;
  std::vector<Rank> all(ranks.size());
  std::iota(all.begin(), all.end(), Rank{0});
  return all;
}

std::string node_context(std::string_view source, Rank rank, const WorkloadNode& node) {
  return std::string(source) + ": rank " + std::to_string(rank) + ": node " + node_label(node);
}

std::string node_context(const Workload& workload, Rank rank, const WorkloadNode& node) {
  return node_context(workload.ranks.at(rank).source, rank, node);
}

void validate_workload(const Workload& workload) {
  if (workload.ranks.empty()) throw InputError(workload.name + ": the trace has no ranks");
  GroupChecker groups(workload);
  for (Rank r = 0; r < workload.rank_count(); ++r) check_rank(workload, r, groups);
}

void check_against_topology(const Workload& workload, std::size_t npus) {
  const std::size_t ranks = workload.rank_count();
  if (ranks <= npus) return;
  const std::string beyond = ", beyond the topology's " + std::to_string(npus) +
                             " NPUs (the trace has " + std::to_string(ranks) + " ranks)";
  for (Rank r = 0; r < ranks; ++r) {
    const RankTrace& rank = workload.ranks[r];
    if (r >= npus) throw InputError(rank.source + ": rank " + std::to_string(r) + beyond);
    for (const WorkloadNode& node : rank.nodes) {
      const std::string where = node_context(workload, r, node);
      if (node.kind == NodeKind::kSend && node.peer && *node.peer >= npus) {
        throw InputError(where + ": sends to rank " + std::to_string(*node.peer) + beyond);
      }
      if (node.kind == NodeKind::kRecv && node.peer && *node.peer >= npus) {
        throw InputError(where + ": receives from rank " + std::to_string(*node.peer) + beyond);
      }
      if (node.kind == NodeKind::kCollective) {
        for (const Rank member : workload.members(node)) {
          if (member >= npus) {
            throw InputError(where + ": collective among ranks including " +
                             std::to_string(member) + beyond);
          }
        }
      }
    }
  }
}

std::unordered_map<TraceNodeId, std::size_t> index_by_id(const RankTrace& rank) {
  std::unordered_map<TraceNodeId, std::size_t> index;
  index.reserve(rank.nodes.size());
  for (std::size_t i = 0; i < rank.nodes.size(); ++i) index.emplace(rank.nodes[i].id, i);
  return index;
}

std::vector<std::vector<std::size_t>> simulated_dependencies(const RankTrace& rank) {
  const std::size_t n = rank.nodes.size();
  const auto index = index_by_id(rank);
  std::vector<std::vector<std::size_t>> deps(n);
  std::vector<std::vector<std::size_t>> dependents(n);
  std::vector<std::size_t> waiting(n);
  std::vector<std::size_t> order;  // Kahn's topological order: a node after its dependencies
  for (std::size_t i = 0; i < n; ++i) {
    for (const TraceNodeId dep : rank.nodes[i].deps) dependents[index.at(dep)].push_back(i);
    waiting[i] = rank.nodes[i].deps.size();
    if (waiting[i] == 0) order.push_back(i);
  }
  // Resolving in topological order means a skipped dependency's list is final when used.
  std::vector<std::size_t> listed_for(n, n);  // == i: already in node i's list
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    const auto add = [&](std::size_t d) {
      if (listed_for[d] != i) deps[i].push_back(d);
      listed_for[d] = i;
    };
    for (const TraceNodeId dep : rank.nodes[i].deps) {
      const std::size_t d = index.at(dep);
      if (rank.nodes[d].kind != NodeKind::kSkipped) {
        add(d);
      } else {
        for (const std::size_t through : deps[d]) add(through);
      }
    }
    for (const std::size_t next : dependents[i]) {
      if (--waiting[next] == 0) order.push_back(next);
    }
  }
  COMMSIM_CHECK(order.size() == n, rank.source + ": dependency cycle left after validation");
  for (std::size_t i = 0; i < n; ++i) {
    if (rank.nodes[i].kind == NodeKind::kSkipped) deps[i] = {};
  }
  return deps;
}

std::size_t count_nodes(const Workload& workload, NodeKind kind) {
  std::size_t count = 0;
  for (const RankTrace& rank : workload.ranks) {
    for (const WorkloadNode& node : rank.nodes) count += node.kind == kind ? 1 : 0;
  }
  return count;
}

}  // namespace commsim
