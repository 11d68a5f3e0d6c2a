#include "topology/topology_builder.h"

#include <boost/graph/connected_components.hpp>
#include <cmath>

#include "base/error.h"

namespace commsim {

TopologyBuilder::TopologyBuilder(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {}

VertexId TopologyBuilder::add_npu(std::string name) {
  COMMSIM_CHECK(npu_count_ == boost::num_vertices(*graph_), "NPU added after a switch");
  ++npu_count_;
  return static_cast<VertexId>(boost::add_vertex(VertexProps{VertexKind::kNpu, std::move(name)},
                                                 *graph_));
}

VertexId TopologyBuilder::add_switch(std::string name, bool reduces) {
  return static_cast<VertexId>(
      boost::add_vertex(VertexProps{VertexKind::kSwitch, std::move(name), reduces}, *graph_));
}

void TopologyBuilder::set_host_memory(VertexId v) {
  COMMSIM_CHECK(v < boost::num_vertices(*graph_) && (*graph_)[v].kind == VertexKind::kSwitch,
                "host memory on vertex " + std::to_string(v) + ", not a switch");
  (*graph_)[v].host_memory = true;
}

LinkId TopologyBuilder::add_link(VertexId a, VertexId b, const LinkParams& params) {
  const std::size_t n = boost::num_vertices(*graph_);
  COMMSIM_CHECK(a < n && b < n && a != b, "link between vertices " + std::to_string(a) +
                                              " and " + std::to_string(b));
  // Derived bandwidths (a tree's uplinks: NPUs below x B / oversubscription) are checked
  // here too, so none can be infinite or denormal. The message is composed only on failure:
  // a fully-connected topology adds millions of links.
  if (!bandwidth_in_range(params.bandwidth_Bps) || params.latency_ps < 0 || params.latency_ps > kMaxTimePs) {
    const std::string where = "topology '" + name_ + "': link " + (*graph_)[a].name + " -- " + (*graph_)[b].name;
    checked_bandwidth(params.bandwidth_Bps, where);
    throw InputError(where + ": latency " + std::to_string(params.latency_ps) +
                     " ps is outside the simulator's range of 0 to 100 days");
  }
  const auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, params});
  boost::add_edge(a, b, EdgeProps{id, route_weight(params)}, *graph_);
  return id;
}

Topology TopologyBuilder::build() && {
  if (npu_count_ == 0) throw InputError("topology '" + name_ + "' has no NPUs");
  std::vector<int> component(boost::num_vertices(*graph_));
  boost::connected_components(*graph_, component.data());
  for (std::size_t r = 1; r < npu_count_; ++r) {
    if (component[r] != component[0]) {
      throw InputError("topology '" + name_ + "': NPU " + std::to_string(r) + " ('" +
                       (*graph_)[r].name + "') is not connected to NPU 0 ('" + (*graph_)[0].name +
                       "')");
    }
  }
  return Topology(std::move(name_), std::move(description_), std::move(graph_),
                  std::move(links_), npu_count_, std::move(grid_), std::move(shape_),
                  std::move(router_));
}

}  // namespace commsim
