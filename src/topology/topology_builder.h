#pragma once
// Assembles a Topology vertex by vertex and link by link, and checks what every topology
// must satisfy: NPUs numbered before switches, links between existing distinct vertices
// with bandwidth and latency in the simulator's range (base/units.h), every NPU reachable
// from every other.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace commsim {

class TopologyBuilder {
 public:
  TopologyBuilder(std::string name, std::string description);

  /// NPUs must all be added before the first switch, so that NPU ids are the ranks.
  VertexId add_npu(std::string name);
  /// `reduces`: the switch reduces and multicasts in the fabric (NVLink SHARP), see
  /// topology/in_switch.h.
  VertexId add_switch(std::string name, bool reduces = false);
  /// Marks switch `v` as a CPU's root complex with its memory (VertexProps::host_memory).
  void set_host_memory(VertexId v);
  LinkId add_link(VertexId a, VertexId b, const LinkParams& params);
  /// Makes room for `links` links in all, so that adding millions of them (a large fully
  /// connected topology) copies none: 2.1 M links at 2,048 NPUs took 1.1 s growing the
  /// vectors, 0.8 s reserved.
  /// Boost's adjacency_list has no reserve; its edge list and each vertex's out-edge list
  /// are public vectors (m_edges, m_vertices[v].m_out_edges), reserved here directly.
  void reserve_links(std::size_t links) {
    links_.reserve(links);
    graph_->m_edges.reserve(links);
  }
  /// Makes room for `degree` links at vertex `v`.
  void reserve_degree(VertexId v, std::size_t degree) { graph_->m_vertices.at(v).m_out_edges.reserve(degree); }
  /// Marks the topology as a grid (its routes come from set_router).
  void set_grid(Grid grid) { grid_ = std::move(grid); }
  /// A built kind's routes, by the numbering of the links it adds (routing.h); without one
  /// the topology is an explicit graph, routed by Dijkstra.
  void set_router(std::shared_ptr<const Router> router) { router_ = std::move(router); }
  void set_shape(Shape shape) { shape_ = std::move(shape); }

  std::size_t npu_count() const { return npu_count_; }
  std::size_t vertex_count() const { return boost::num_vertices(*graph_); }

  /// Throws InputError if the NPUs are not all connected.
  Topology build() &&;

 private:
  std::string name_;
  std::string description_;
  std::shared_ptr<Graph> graph_ = std::make_shared<Graph>();
  std::vector<Link> links_;
  std::size_t npu_count_ = 0;
  std::optional<Grid> grid_;
  Shape shape_;
  std::shared_ptr<const Router> router_;
};

}  // namespace commsim
