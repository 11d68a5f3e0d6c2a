#include "topology/graphviz.h"

#include <boost/graph/graphviz.hpp>

#include <sstream>

namespace commsim {

void write_dot(std::ostream& out, const Topology& topology) {
  const Graph& g = topology.graph();
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  using Edge = boost::graph_traits<Graph>::edge_descriptor;
  const auto vertex_writer = [&](std::ostream& os, Vertex v) {
    const VertexProps& p = g[v];
    os << "[label=" << boost::escape_dot_string(p.name)
       << (p.kind == VertexKind::kNpu ? ", shape=box" : ", shape=ellipse, style=filled") << "]";
  };
  const auto edge_writer = [&](std::ostream& os, Edge e) {
    const LinkParams& p = topology.link(g[e].link).params;
    std::string label = format_bandwidth(p.bandwidth_Bps) + " " + format_time(p.latency_ps) +
                        " " + std::string(link_kind_name(p.kind));
    if (p.duplex == Duplex::kHalf) label += " half-duplex";
    if (p.duplex == Duplex::kHalf && p.both_ways_efficiency < 1) {
      std::ostringstream both_ways;
      both_ways << " (x" << p.both_ways_efficiency << " both ways)";
      label += both_ways.str();
    }
    os << "[label=" << boost::escape_dot_string(label) << "]";
  };
  const auto graph_writer = [&](std::ostream& os) {
    os << "label=" << boost::escape_dot_string(topology.name() + " (" +
                                               topology.description() + ")")
       << ";\n";
  };
  boost::write_graphviz(out, g, vertex_writer, edge_writer, graph_writer);
}

}  // namespace commsim
