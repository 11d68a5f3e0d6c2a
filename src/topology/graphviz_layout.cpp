#include "topology/graphviz_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <utility>

#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<DotEngine, 2> kEngineNames{{
    {DotEngine::kDot, "dot"},
    {DotEngine::kNeato, "neato"},
}};

constexpr std::size_t kUnreached = std::numeric_limits<std::size_t>::max();

// Grid spacing, inches: room for a label "npu63" and for the wrap-around links of a torus
// to pass between rows; each plane of a 3-D grid is shifted by one node width and a half
// row.
constexpr double kGridDx = 1.3;
constexpr double kGridDy = 1.0;
constexpr double kPlaneDx = 0.9;
constexpr double kPlaneDy = 0.45;
// Between neighbours round a circle, inches: a box "npu63" and a gap.
constexpr double kCircleStep = 1.0;

bool is_network(const LinkParams& p) { return link_class(p.kind) == LinkClass::kNet; }

VertexId other_end(const Topology& t, LinkId l, VertexId v) {
  const Link& link = t.link(l);
  return link.first == v ? link.second : link.first;
}

struct Search {
  std::vector<std::size_t> hops;  // kUnreached where no path
  std::vector<VertexId> parent;   // the vertex each was reached from (itself for a source)
  std::vector<VertexId> order;    // in the order reached
};

// Breadth-first from every source at once, over the links `follow` accepts; neighbours are
// taken in the graph's edge order, so the result is the same on every run.
template <typename Follow>
Search breadth_first(const Topology& t, const std::vector<VertexId>& sources, Follow follow) {
  const Graph& g = t.graph();
  Search s{std::vector<std::size_t>(t.vertex_count(), kUnreached), std::vector<VertexId>(t.vertex_count()), {}};
  for (const VertexId v : sources) {
    s.hops[v] = 0;
    s.parent[v] = v;
    s.order.push_back(v);
  }
  for (std::size_t next = 0; next < s.order.size(); ++next) {
    const VertexId v = s.order[next];
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      if (!follow(t.link(g[e].link).params)) continue;
      const VertexId u = other_end(t, g[e].link, v);
      if (s.hops[u] != kUnreached) continue;
      s.hops[u] = s.hops[v] + 1;
      s.parent[u] = v;
      s.order.push_back(u);
    }
  }
  return s;
}

bool any_link(const LinkParams&) { return true; }

// "node3" when every member's name starts with "node3/", else "node K" (K from 0).
std::string node_label(const Topology& t, const std::vector<VertexId>& members, std::size_t index) {
  const std::string& first = t.vertex(members.front()).name;
  const std::size_t slash = first.find('/');
  if (slash != std::string::npos && slash > 0) {
    const std::string prefix = first.substr(0, slash + 1);
    if (std::all_of(members.begin(), members.end(),
                    [&](VertexId v) { return t.vertex(v).name.rfind(prefix, 0) == 0; })) {
      return prefix.substr(0, slash);
    }
  }
  return "node " + std::to_string(index);
}

// Union-find over vertices, the smallest vertex of a set as its representative.
struct Sets {
  std::vector<VertexId> up;
  explicit Sets(std::size_t n) : up(n) { std::iota(up.begin(), up.end(), VertexId{0}); }
  VertexId find(VertexId v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  }
  void join(VertexId a, VertexId b) {
    a = find(a);
    b = find(b);
    if (a != b) up[std::max(a, b)] = std::min(a, b);
  }
};

std::vector<DotCluster> find_node_clusters(const Topology& t) {
  const auto& links = t.links();
  if (std::none_of(links.begin(), links.end(), [](const Link& l) { return is_network(l.params); })) return {};
  Sets pieces(t.vertex_count());
  for (const Link& l : links) {
    if (!is_network(l.params)) pieces.join(l.first, l.second);
  }
  std::map<VertexId, std::vector<VertexId>> members_of;  // by the piece's first vertex
  for (VertexId v = 0; v < t.vertex_count(); ++v) members_of[pieces.find(v)].push_back(v);
  std::vector<DotCluster> clusters;
  for (auto& [first, members] : members_of) {
    if (first < t.npu_count() && members.size() >= 2) {
      clusters.push_back({node_label(t, members, clusters.size()), std::move(members)});
    }
  }
  return clusters;
}

// The index of each vertex's node cluster, or none.
std::vector<std::optional<std::size_t>> cluster_of(const Topology& t, const std::vector<DotCluster>& clusters) {
  std::vector<std::optional<std::size_t>> of(t.vertex_count());
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    for (const VertexId v : clusters[c].members) of[v] = c;
  }
  return of;
}

std::vector<VertexId> all_npus(const Topology& t) {
  std::vector<VertexId> npus(t.npu_count());
  std::iota(npus.begin(), npus.end(), VertexId{0});
  return npus;
}

// Beyond this many NPUs the core is found from this many of them, evenly spaced: an
// approximation that only moves the picture's centre, and keeps the search linear in size.
constexpr std::size_t kCoreProbes = 64;

// The core: outside the nodes (among all vertices when every vertex lies in one), the
// vertices whose farthest NPU is nearest (least eccentricity in links): a tree's root, a
// cluster's network switch or spine, a node's NVSwitch or its CPU sockets.
std::vector<VertexId> find_core(const Topology& t, const std::vector<std::optional<std::size_t>>& in_node) {
  const std::size_t n = t.vertex_count();
  std::vector<std::size_t> eccentricity(n, 0);
  const std::size_t probes = std::min(t.npu_count(), kCoreProbes);
  for (std::size_t i = 0; i < probes; ++i) {
    const auto npu = static_cast<VertexId>(i * t.npu_count() / probes);
    const std::vector<std::size_t> hops = breadth_first(t, {npu}, any_link).hops;
    for (VertexId v = 0; v < n; ++v) eccentricity[v] = std::max(eccentricity[v], hops[v]);
  }
  const bool all_in_nodes = std::all_of(in_node.begin(), in_node.end(), [](const auto& c) { return c.has_value(); });
  const auto eligible = [&](VertexId v) { return eccentricity[v] != kUnreached && (all_in_nodes || !in_node[v]); };
  std::size_t least = kUnreached;
  for (VertexId v = 0; v < n; ++v) {
    if (eligible(v)) least = std::min(least, eccentricity[v]);
  }
  std::vector<VertexId> core;
  for (VertexId v = 0; v < n; ++v) {
    if (eligible(v) && eccentricity[v] == least) core.push_back(v);
  }
  return core;
}

// Which side of the core each vertex is drawn on (-1 left, +1 right, 0 the core itself).
// A branch is everything reached through one neighbour of the core; branches that share a
// node go together. Taken in order of their first vertex, branches go left while the left
// holds at most half the NPUs (the first always), the rest right.
std::vector<int> sides(const Topology& t, const Search& from_core, const std::vector<DotCluster>& nodes) {
  const std::size_t n = t.vertex_count();
  std::vector<VertexId> branch(n);
  for (const VertexId v : from_core.order) {
    branch[v] = from_core.hops[v] <= 1 ? v : branch[from_core.parent[v]];
  }
  Sets together(n);
  for (const DotCluster& node : nodes) {
    std::optional<VertexId> first;
    for (const VertexId v : node.members) {
      if (from_core.hops[v] == 0 || from_core.hops[v] == kUnreached) continue;
      if (first) together.join(branch[*first], branch[v]);
      else first = v;
    }
  }
  std::map<VertexId, std::size_t> npus_of_group;  // by representative, the group's first vertex
  for (const VertexId v : from_core.order) {
    if (from_core.hops[v] > 0) npus_of_group[together.find(branch[v])] += v < t.npu_count() ? 1 : 0;
  }
  std::map<VertexId, int> side_of_group;
  std::size_t left = 0;
  bool right_started = false;
  for (const auto& [group, npus] : npus_of_group) {
    right_started = right_started || (!side_of_group.empty() && 2 * (left + npus) > t.npu_count());
    side_of_group[group] = right_started ? 1 : -1;
    if (!right_started) left += npus;
  }
  std::vector<int> side(n, 0);
  for (const VertexId v : from_core.order) {
    if (from_core.hops[v] > 0) side[v] = side_of_group[together.find(branch[v])];
  }
  return side;
}

// Switch levels: outside the nodes and the core, switches grouped by side and by level.
std::vector<DotCluster> find_level_clusters(const Topology& t, const std::vector<std::size_t>& level,
                                            const std::vector<int>& side,
                                            const std::vector<std::optional<std::size_t>>& in_node) {
  std::map<std::pair<int, std::size_t>, std::vector<VertexId>> by_side_and_level;
  std::vector<std::size_t> levels;
  for (VertexId v = static_cast<VertexId>(t.npu_count()); v < t.vertex_count(); ++v) {
    if (in_node[v] || level[v] == kUnreached) continue;
    levels.push_back(level[v]);
    if (side[v] != 0) by_side_and_level[{side[v], level[v]}].push_back(v);
  }
  std::sort(levels.begin(), levels.end());
  if (std::unique(levels.begin(), levels.end()) - levels.begin() < 2) return {};
  std::vector<DotCluster> clusters;
  for (auto& [key, members] : by_side_and_level) {
    if (members.size() >= 2) clusters.push_back({"level " + std::to_string(key.second) + " switches", std::move(members)});
  }
  return clusters;
}

void plan_mirrored(const Topology& t, DotLayout& layout) {
  layout.node_clusters = find_node_clusters(t);
  const auto in_node = cluster_of(t, layout.node_clusters);
  const std::vector<std::size_t> level = breadth_first(t, all_npus(t), any_link).hops;
  const Search from_core = breadth_first(t, find_core(t, in_node), any_link);
  const std::vector<int> side = sides(t, from_core, layout.node_clusters);
  layout.level_clusters = find_level_clusters(t, level, side, in_node);
  layout.column.assign(t.vertex_count(), 0);
  for (VertexId v = 0; v < t.vertex_count(); ++v) {
    if (from_core.hops[v] != kUnreached) layout.column[v] = side[v] * static_cast<int>(from_core.hops[v]);
  }
}

// NPU r at its grid coordinate (r mod d0, (r / d0) mod d1, r / (d0 d1)): x along dimension 0,
// rows of dimension 1 downwards, and the planes of dimension 2 in oblique projection, each
// shifted right and up from the one before, as a cube is drawn: the links between planes
// are short diagonals instead of lines through a row.
std::vector<DotPosition> grid_positions(const Topology& t, const Grid& grid) {
  const std::uint32_t d0 = grid.dims[0];
  const std::uint32_t d1 = grid.dims.size() > 1 ? grid.dims[1] : 1;
  const std::uint32_t d2 = grid.dims.size() > 2 ? grid.dims[2] : 1;
  const double dx = (d2 - 1) * kPlaneDx + kGridDx;
  const double dy = (d2 - 1) * kPlaneDy + kGridDy;
  std::vector<DotPosition> position(t.vertex_count());
  for (VertexId r = 0; r < t.npu_count(); ++r) {
    const std::uint32_t x = r % d0;
    const std::uint32_t y = (r / d0) % d1;
    const std::uint32_t z = r / (d0 * d1);
    position[r] = {x * dx + z * kPlaneDx, z * kPlaneDy - y * dy};
  }
  return position;
}

// NPU r of N on a circle, clockwise from the top: at angle pi/2 - 2 pi r / N, radius
// N kCircleStep / (2 pi) (at least kCircleStep), so neighbours are kCircleStep apart.
std::vector<DotPosition> circle_positions(const Topology& t) {
  const double n = static_cast<double>(t.npu_count());
  const double radius = std::max(kCircleStep, n * kCircleStep / (2 * std::numbers::pi));
  std::vector<DotPosition> position(t.vertex_count());
  for (VertexId r = 0; r < t.npu_count(); ++r) {
    const double angle = std::numbers::pi / 2 - 2 * std::numbers::pi * r / n;
    position[r] = {radius * std::cos(angle), radius * std::sin(angle)};
  }
  return position;
}

}  // namespace

std::string_view dot_engine_name(DotEngine engine) { return name_in(kEngineNames, engine); }

DotLayout plan_dot_layout(const Topology& topology) {
  DotLayout layout;
  const auto& grid = topology.grid();
  const bool ring = grid && grid->dims.size() == 1 && grid->wrap;
  if (ring || (!grid && topology.switch_count() == 0)) {
    layout.engine = DotEngine::kNeato;
    layout.position = circle_positions(topology);
  } else if (grid) {
    layout.engine = DotEngine::kNeato;
    layout.position = grid_positions(topology, *grid);
  } else {
    plan_mirrored(topology, layout);
  }
  return layout;
}

}  // namespace commsim
