#include "workload/dependency_cycle.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace commsim {
namespace {

// An edge u -> v means "v waits for u". Boost's depth_first_search is iterative, so a long
// chain of dependencies does not overflow the stack.
using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = DependencyGraph::vertex_descriptor;
using Edge = DependencyGraph::edge_descriptor;

struct CycleFound {
  std::vector<std::size_t> waits_for_next;
};

// Records the DFS tree; a back edge s -> t (t an ancestor of s still on the stack) closes
// the cycle t -> ... -> s -> t. The search stops by throwing, as Boost.Graph's documentation
// suggests for ending a search early.
class CycleRecorder : public boost::default_dfs_visitor {
 public:
  explicit CycleRecorder(std::vector<Vertex>& parent) : parent_(&parent) {}

  void tree_edge(Edge e, const DependencyGraph& g) { (*parent_)[target(e, g)] = source(e, g); }

  void back_edge(Edge e, const DependencyGraph& g) {
    const Vertex top = target(e, g);
    // Walking the tree back from s reaches t: s, parent(s), ..., t. Along that walk each
    // vertex waits for its parent, and t waits for s: listed from t, each waits for the next.
    std::vector<std::size_t> walk;
    for (Vertex v = source(e, g); v != top; v = (*parent_)[v]) walk.push_back(v);
    CycleFound found;
    found.waits_for_next.push_back(top);
    found.waits_for_next.insert(found.waits_for_next.end(), walk.begin(), walk.end());
    throw found;
  }

 private:
  std::vector<Vertex>* parent_;
};

}  // namespace

std::optional<std::vector<std::size_t>> find_dependency_cycle(
    const RankTrace& rank, const std::unordered_map<TraceNodeId, std::size_t>& index) {
  DependencyGraph graph(rank.nodes.size());
  for (std::size_t i = 0; i < rank.nodes.size(); ++i) {
    for (const TraceNodeId dep : rank.nodes[i].deps) boost::add_edge(index.at(dep), i, graph);
  }
  std::vector<Vertex> parent(rank.nodes.size());
  try {
    boost::depth_first_search(graph, boost::visitor(CycleRecorder(parent)));
  } catch (const CycleFound& found) {
    return found.waits_for_next;
  }
  return std::nullopt;
}

}  // namespace commsim
