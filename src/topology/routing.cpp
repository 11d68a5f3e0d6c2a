#include "topology/routing.h"

#include <algorithm>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include "base/error.h"

namespace commsim {
namespace {

constexpr LinkId kNoLink = std::numeric_limits<LinkId>::max();
constexpr std::uint32_t kNotKept = std::numeric_limits<std::uint32_t>::max();

// A link traversed from its first end (up, out) and from its second (down, back).
constexpr ChannelId forward(std::uint64_t link) { return static_cast<ChannelId>(2 * link); }
constexpr ChannelId backward(std::uint64_t link) { return static_cast<ChannelId>(2 * link + 1); }

// Dimension by dimension. In dimension d (stride s, size n) NPU r at coordinate c has a link
// to its +1 neighbour, r first, unless c = n - 1 on a mesh line (or a torus ring of 2, which
// has one link); the links of a dimension follow those of the one before, in order of r.
// No division per hop: a hop moves the rank by s, and its line's first link is fixed.
class GridRouter final : public Router {
 public:
  explicit GridRouter(const Grid& grid) : grid_(grid) {
    std::uint64_t npus = 1;
    for (const std::uint32_t n : grid_.dims) npus *= n;
    std::uint64_t base = 0;
    for (const std::uint32_t n : grid_.dims) {
      first_link_.push_back(base);
      base += whole_ring(n) ? npus : npus - npus / n;
    }
  }

  void append_route(Rank src, Rank dst, Route& route) const override {
    if (grid_.dims.size() == 1 && whole_ring(grid_.dims[0])) {  // a ring's neighbours, at once
      const std::uint64_t n = grid_.dims[0];
      if (dst == (src + 1 == n ? 0 : src + 1)) return route.push_back(forward(first_link_[0] + src));
      if (src == (dst + 1 == n ? 0 : dst + 1)) return route.push_back(backward(first_link_[0] + dst));
    }
    std::uint64_t current = src, stride = 1;
    // The coordinates of src and dst, lowest dimension first, peeled off one division each.
    std::uint64_t src_rest = src, dst_rest = dst;
    for (std::size_t d = 0; d < grid_.dims.size(); stride *= grid_.dims[d], ++d) {
      const std::uint64_t n = grid_.dims[d];
      std::uint64_t c = src_rest, target = dst_rest;
      if (d + 1 < grid_.dims.size()) {  // the last dimension's coordinate is what is left
        src_rest /= n;
        dst_rest /= n;
        c -= src_rest * n;
        target -= dst_rest * n;
      }
      if (c == target) continue;
      const std::uint64_t steps_up = target > c ? target - c : target + n - c;
      const bool positive = grid_.wrap ? steps_up <= n - steps_up : target > c;
      // NPU r's +1 link: first + r round a whole ring; on a line first + r - (NPUs at
      // coordinate n - 1 before r) = first + r - (r / s n) s, r / s n being r's line.
      const std::uint64_t first = first_link_[d] - (whole_ring(n) ? 0 : (current / (stride * n)) * stride);
      for (std::uint64_t hop = 0; hop < (positive ? steps_up : n - steps_up); ++hop) {
        const std::uint64_t next_c = positive ? (c + 1 == n ? 0 : c + 1) : (c == 0 ? n - 1 : c - 1);
        const std::uint64_t next = current - c * stride + next_c * stride;
        // Up through current's own link where it has one, else back through next's.
        route.push_back(positive && (whole_ring(n) || c + 1 < n) ? forward(first + current) : backward(first + next));
        current = next;
        c = next_c;
      }
    }
  }

  std::size_t table_entries() const override { return grid_.dims.size() + first_link_.size(); }

 private:
  bool whole_ring(std::uint64_t n) const { return grid_.wrap && n > 2; }

  Grid grid_;
  std::vector<std::uint64_t> first_link_;  // per dimension
};

class StarRouter final : public Router {
 public:
  void append_route(Rank src, Rank dst, Route& route) const override {
    route.push_back(forward(src));
    route.push_back(backward(dst));
  }
  std::size_t table_entries() const override { return 0; }
};

// Row i holds links (i, i+1) .. (i, N-1); the rows before it hold
// sum_{k<i} (N - 1 - k) = i (N - 1) - i (i - 1) / 2 links.
class FullyConnectedRouter final : public Router {
 public:
  explicit FullyConnectedRouter(std::uint32_t npus) : npus_(npus) {}
  void append_route(Rank src, Rank dst, Route& route) const override {
    const std::uint64_t i = std::min(src, dst), j = std::max(src, dst);
    const std::uint64_t link = i * (npus_ - 1) - i * (i - 1) / 2 + (j - i - 1);
    route.push_back(src < dst ? forward(link) : backward(link));
  }
  std::size_t table_entries() const override { return 1; }

 private:
  std::uint64_t npus_;
};

// Up from both ends, level by level, until they meet: src's links up, then dst's links down
// in reverse. Level l's links start after the members of the levels below.
class TreeRouter final : public Router {
 public:
  TreeRouter(std::uint32_t npus, std::uint32_t arity) : arity_(arity) {
    // Every level of more than one member links up to a level of ceil(members / arity).
    for (std::uint64_t members = npus, first = 0; members > 1; members = (members + arity - 1) / arity) {
      first_link_.push_back(first);
      first += members;
    }
  }

  void append_route(Rank src, Rank dst, Route& route) const override {
    const std::size_t start = route.size();
    std::uint64_t up = src, down = dst;
    std::size_t level = 0;
    for (; up != down; ++level, up /= arity_, down /= arity_) route.push_back(forward(first_link_[level] + up));
    down = dst;
    for (std::size_t l = 0; l < level; ++l, down /= arity_) route.push_back(backward(first_link_[l] + down));
    std::reverse(route.begin() + static_cast<std::ptrdiff_t>(start + level), route.end());
  }

  std::size_t table_entries() const override { return 1 + first_link_.size(); }

 private:
  std::uint64_t arity_;
  std::vector<std::uint64_t> first_link_;  // per level of members, NPUs first
};

class HierarchicalRouter final : public Router {
 public:
  explicit HierarchicalRouter(const HierarchicalNumbering& n) : n_(n) {
    const std::uint64_t gpus = std::uint64_t{n.gpus_per_node} * n.nodes;
    first_nic_ = n.gpus_per_node > 1 ? gpus : 0;
    first_uplink_ = first_nic_ + gpus;
    last_group_ = (std::uint64_t{n.nodes} + n.nodes_per_leaf - 1) / n.nodes_per_leaf - 1;
  }

  void append_route(Rank src, Rank dst, Route& route) const override {
    const std::uint32_t src_node = src / n_.gpus_per_node, dst_node = dst / n_.gpus_per_node;
    if (src_node == dst_node && (n_.intra_node_via_nvswitch || n_.nodes == 1)) {
      route.push_back(forward(src));
      route.push_back(backward(dst));
      return;
    }
    const std::uint64_t src_leaf = leaf_of(src), dst_leaf = leaf_of(dst);
    if (n_.rails && src_leaf != dst_leaf && group_of(src) == group_of(dst) && pxn_in(group_of(src))) {
      // NCCL's PXN: to the sender node's GPU on the receiver's rail, then along that rail.
      const Rank relay = src - src % n_.gpus_per_node + dst % n_.gpus_per_node;
      route.push_back(forward(src));
      route.push_back(backward(relay));
      route.push_back(forward(first_nic_ + relay));
      route.push_back(backward(first_nic_ + dst));
      return;
    }
    route.push_back(forward(first_nic_ + src));
    if (src_leaf != dst_leaf) {
      route.push_back(forward(first_uplink_ + src_leaf));
      route.push_back(backward(first_uplink_ + dst_leaf));
    }
    route.push_back(backward(first_nic_ + dst));
  }

  std::size_t table_entries() const override { return 8; }

 private:
  std::uint64_t group_of(Rank r) const { return r / n_.gpus_per_node / n_.nodes_per_leaf; }
  // Its node's group, and with rails the group's leaf of its GPU index.
  std::uint64_t leaf_of(Rank r) const {
    return n_.rails ? group_of(r) * n_.gpus_per_node + r % n_.gpus_per_node : group_of(r);
  }
  bool pxn_in(std::uint64_t group) const { return group < last_group_ ? n_.pxn_in_full_group : n_.pxn_in_last_group; }

  HierarchicalNumbering n_;
  std::uint64_t first_nic_ = 0;
  std::uint64_t first_uplink_ = 0;
  std::uint64_t last_group_ = 0;
};

}  // namespace

std::shared_ptr<const Router> grid_router(const Grid& grid) { return std::make_shared<GridRouter>(grid); }
std::shared_ptr<const Router> star_router() { return std::make_shared<StarRouter>(); }
std::shared_ptr<const Router> fully_connected_router(std::uint32_t npus) {
  return std::make_shared<FullyConnectedRouter>(npus);
}
std::shared_ptr<const Router> tree_router(std::uint32_t npus, std::uint32_t arity) {
  return std::make_shared<TreeRouter>(npus, arity);
}
std::shared_ptr<const Router> hierarchical_router(const HierarchicalNumbering& numbering) {
  return std::make_shared<HierarchicalRouter>(numbering);
}

const std::vector<VertexId>& FastestPathTrees::host_memory_vertices(const Graph& graph) {
  if (!host_vertices_) {
    host_vertices_.emplace();
    for (VertexId v = 0; v < boost::num_vertices(graph); ++v) {
      if (graph[v].host_memory) host_vertices_->push_back(v);
    }
  }
  return *host_vertices_;
}

void FastestPathTrees::compute(const Graph& graph, Rank src, Tree& tree) {
  const std::size_t n = boost::num_vertices(graph);
  using EdgeDesc = boost::graph_traits<Graph>::edge_descriptor;
  std::vector<EdgeDesc> pred_edge(n);
  distance_.assign(n, 0);
  const auto index = boost::get(boost::vertex_index, graph);
  boost::dijkstra_shortest_paths(
      graph, src,
      boost::weight_map(boost::get(&EdgeProps::route_weight, graph))
          .distance_map(boost::make_iterator_property_map(distance_.begin(), index))
          .visitor(boost::make_dijkstra_visitor(boost::record_edge_predecessors(
              boost::make_iterator_property_map(pred_edge.begin(), index), boost::on_edge_relaxed()))));
  tree.predecessor.assign(n, kNoLink);
  for (std::size_t v = 0; v < n; ++v) {
    if (v != src && distance_[v] < std::numeric_limits<double>::max()) tree.predecessor[v] = graph[pred_edge[v]].link;
  }
  tree.to_host.clear();
  for (const VertexId h : host_memory_vertices(graph)) tree.to_host.push_back(distance_[h]);
}

const FastestPathTrees::Tree& FastestPathTrees::tree(const Graph& graph, Rank src) {
  if (src < slot_of_source_.size() && slot_of_source_[src] != kNotKept) return kept_[slot_of_source_[src]];
  if (src == last_source_) return last_;
  const std::size_t n = boost::num_vertices(graph);
  if (kept_entries_ + n <= max_entries_) {
    if (src >= slot_of_source_.size()) slot_of_source_.resize(src + 1, kNotKept);
    slot_of_source_[src] = static_cast<std::uint32_t>(kept_.size());
    kept_entries_ += n;
    compute(graph, src, kept_.emplace_back());
    return kept_.back();
  }
  last_source_ = src;
  compute(graph, src, last_);
  return last_;
}

bool FastestPathTrees::append_path(const Graph& graph, const std::vector<Link>& links, Rank src, VertexId target,
                                   Route& route) {
  const std::vector<LinkId>& pred = tree(graph, src).predecessor;
  const std::size_t start = route.size();
  for (VertexId v = target; v != src;) {
    const LinkId l = pred[v];
    if (l == kNoLink) return false;
    const Link& link = links[l];
    const VertexId from = link.first == v ? link.second : link.first;
    route.push_back(link.first == from ? forward(l) : backward(l));
    v = from;
  }
  std::reverse(route.begin() + static_cast<std::ptrdiff_t>(start), route.end());
  return true;
}

std::vector<double> FastestPathTrees::host_memory_distances(const Graph& graph, Rank src) {
  return tree(graph, src).to_host;
}

std::size_t FastestPathTrees::table_entries() const {
  std::size_t entries = 0;
  for (const Tree& t : kept_) entries += t.predecessor.size() + t.to_host.size();
  return entries + last_.predecessor.size() + last_.to_host.size() + slot_of_source_.size();
}

}  // namespace commsim
