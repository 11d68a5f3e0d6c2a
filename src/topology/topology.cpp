#include "topology/topology.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <limits>
#include <numeric>
#include <string>

#include "base/error.h"

namespace commsim {

Topology::Topology(std::string name, std::string description, std::shared_ptr<const Graph> graph,
                   std::vector<Link> links, std::size_t npu_count, std::optional<Grid> grid,
                   Shape shape, std::shared_ptr<const Router> router)
    : name_(std::move(name)),
      description_(std::move(description)),
      graph_(std::move(graph)),
      links_(std::move(links)),
      npu_count_(npu_count),
      grid_(std::move(grid)),
      shape_(std::move(shape)),
      router_(std::move(router)) {
  COMMSIM_CHECK(npu_count_ <= boost::num_vertices(*graph_), "more NPUs than vertices");
}

BandwidthBps Topology::injection_bandwidth(Rank npu) const {
  BandwidthBps total = 0;
  for (const auto edge : boost::make_iterator_range(boost::out_edges(npu, graph()))) {
    total += links_[graph()[edge].link].params.bandwidth_Bps;
  }
  return total;
}

void Topology::scale_bandwidths(const std::array<double, 3>& factor_by_class) {
  for (Link& l : links_) {
    const double factor = factor_by_class[static_cast<int>(link_class(l.params.kind))];
    COMMSIM_CHECK(factor > 0, "a bandwidth scale must be positive");
    l.params.bandwidth_Bps *= factor;
  }
}

void Topology::set_both_ways_efficiency(double efficiency) {
  COMMSIM_CHECK(efficiency > 0 && efficiency <= 1, "a both-ways efficiency must be in (0, 1]");
  for (Link& l : links_) {
    if (l.params.duplex == Duplex::kHalf) l.params.both_ways_efficiency = efficiency;
  }
}

std::optional<double> Topology::both_ways_efficiency() const {
  for (const Link& l : links_) {
    if (l.params.duplex == Duplex::kHalf) return l.params.both_ways_efficiency;
  }
  return std::nullopt;
}

VertexId Topology::channel_source(ChannelId channel) const {
  const Link& l = links_.at(link_of(channel));
  return channel % 2 == 0 ? l.first : l.second;
}

VertexId Topology::channel_target(ChannelId channel) const {
  const Link& l = links_.at(link_of(channel));
  return channel % 2 == 0 ? l.second : l.first;
}

Route Topology::route(Rank src, Rank dst) const {
  Route r;
  route_into(src, dst, r);
  return r;
}

void Topology::route_into(Rank src, Rank dst, Route& route) const {
  COMMSIM_CHECK(src < npu_count_ && dst < npu_count_,
                "route between ranks " + std::to_string(src) + " and " + std::to_string(dst) +
                    " of " + std::to_string(npu_count_));
  route.clear();
  if (src == dst) return;
  if (router_) {
    router_->append_route(src, dst, route);
  } else if (!peer_access(src, dst)) {
    append_host_memory_route(src, dst, route);
  } else {
    append_fastest_path(src, dst, route);
  }
}

Route Topology::fastest_route(Rank src, Rank dst) const {
  COMMSIM_CHECK(src < npu_count_ && dst < npu_count_, "fastest route between ranks " + std::to_string(src) +
                                                          " and " + std::to_string(dst));
  Route route;
  if (src != dst) append_fastest_path(src, dst, route);
  return route;
}

std::size_t Topology::route_table_entries() const {
  return (router_ ? router_->table_entries() : 0) + fastest_paths_.table_entries();
}

// The channel of the first link joining two adjacent vertices, in the from->to direction.
ChannelId Topology::channel_between(VertexId from, VertexId to) const {
  const auto [edge, found] = boost::edge(from, to, graph());
  COMMSIM_CHECK(found, "no link between vertices " + std::to_string(from) + " and " +
                           std::to_string(to));
  const LinkId l = graph()[edge].link;
  return 2 * l + (links_[l].first == from ? 0 : 1);
}

void Topology::append_fastest_path(Rank src, VertexId target, Route& route) const {
  if (!fastest_paths_.append_path(graph(), links_, src, target, route)) {
    throw InputError("topology '" + name_ + "': no path from NPU " + std::to_string(src) + " to vertex '" +
                     graph()[target].name + "'");
  }
}

// src -> host h -> dst through the h of least d(src, h) + d(dst, h) (the lowest-numbered on a
// tie): the fastest path out to h, then dst's fastest path to h walked backwards (c ^ 1 is
// channel c's opposite direction).
void Topology::append_host_memory_route(Rank src, Rank dst, Route& route) const {
  const std::vector<VertexId>& hosts = fastest_paths_.host_memory_vertices(graph());
  const std::vector<double> from_src = fastest_paths_.host_memory_distances(graph(), src);
  const std::vector<double> from_dst = fastest_paths_.host_memory_distances(graph(), dst);
  std::optional<std::size_t> best;
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    if (!best || from_src[h] + from_dst[h] < from_src[*best] + from_dst[*best]) best = h;
  }
  COMMSIM_CHECK(best.has_value(), "a pair without peer access and no host-memory vertex");
  append_fastest_path(src, hosts[*best], route);
  Route back;
  append_fastest_path(dst, hosts[*best], back);
  for (auto it = back.rbegin(); it != back.rend(); ++it) route.push_back(*it ^ 1);
}

bool Topology::peer_access(Rank a, Rank b) const {
  return !std::binary_search(no_peer_access_.begin(), no_peer_access_.end(),
                             std::pair<Rank, Rank>(std::min(a, b), std::max(a, b)));
}

void Topology::set_no_peer_access(std::vector<std::pair<Rank, Rank>> pairs) {
  for (auto& [a, b] : pairs) {
    COMMSIM_CHECK(a < npu_count_ && b < npu_count_ && a != b,
                  "no peer access between ranks " + std::to_string(a) + " and " + std::to_string(b));
    if (b < a) std::swap(a, b);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  COMMSIM_CHECK(pairs.empty() || !router_, "pairs without peer access on a built topology");
  if (!pairs.empty()) {
    const auto [first, last] = boost::vertices(graph());
    if (std::none_of(first, last, [&](VertexId v) { return graph()[v].host_memory; })) {
      throw InputError("pairs without peer access need a host_memory vertex to exchange data through");
    }
  }
  no_peer_access_ = std::move(pairs);
}

LinkClass Topology::route_class(RouteView route) const {
  LinkClass slowest = LinkClass::kNvlink;
  for (const ChannelId c : route) slowest = std::max(slowest, link_class(link(link_of(c)).params.kind));
  return slowest;
}

std::vector<Rank> Topology::ring_order(std::size_t channel, std::size_t channels) const {
  std::vector<Rank> order(npu_count_);
  std::iota(order.begin(), order.end(), Rank{0});
  if (channels <= 1 || shape_.kind != TopologyKind::kHierarchical) return order;
  const std::size_t g = shape_.levels[0];
  for (std::size_t r = 0; r < npu_count_; ++r) {
    const std::size_t node = r / g, slot = r % g;
    const std::size_t step = node % 2 == 0 ? slot : g - 1 - slot;  // up, or back down
    order[r] = static_cast<Rank>(node * g + (step + channel) % g);
  }
  return order;
}

std::size_t Topology::diameter_hops() const {
  return shape_.diameter_hops ? *shape_.diameter_hops : searched_diameter_hops();
}

std::size_t Topology::searched_diameter_hops() const {
  const std::size_t n = boost::num_vertices(graph());
  std::size_t diameter = 0;
  std::vector<std::size_t> hops(n);
  for (Rank src = 0; src < npu_count_; ++src) {
    std::fill(hops.begin(), hops.end(), std::numeric_limits<std::size_t>::max());
    hops[src] = 0;
    boost::breadth_first_search(
        graph(), src,
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(
            boost::make_iterator_property_map(hops.begin(),
                                              boost::get(boost::vertex_index, graph())),
            boost::on_tree_edge()))));
    for (Rank dst = 0; dst < npu_count_; ++dst) {
      if (hops[dst] == std::numeric_limits<std::size_t>::max()) {
        throw InputError("topology '" + name_ + "': NPU " + std::to_string(dst) +
                         " cannot be reached from NPU " + std::to_string(src));
      }
      diameter = std::max(diameter, hops[dst]);
    }
  }
  return diameter;
}

}  // namespace commsim
