#include "topology/graphviz.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

#include "topology/graphviz_layout.h"

namespace commsim {
namespace {

constexpr double kMaxPenWidth = 6;
// NPUs take the default node look; switches set their own.
constexpr const char* kNpuLook = "shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\"";

std::string fixed(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  value = std::round(value * scale) / scale;
  if (value == 0) value = 0;  // no "-0.00" for a coordinate a rounding error below zero
  std::ostringstream text;
  text.imbue(std::locale::classic());
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

// A DOT string, always quoted (a bare name could be a keyword: node, graph, edge), with the
// quote and the backslash (which starts DOT's escapes: \N, \n) escaped.
std::string quoted(const std::string& text) {
  std::string escaped = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped + "\"";
}

// Text inside an HTML-like label: &, < and > as entities.
std::string html(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '&') escaped += "&amp;";
    else if (c == '<') escaped += "&lt;";
    else if (c == '>') escaped += "&gt;";
    else escaped += c;
  }
  return escaped;
}

BandwidthBps slowest_link(const Topology& t) {
  BandwidthBps slowest = 0;
  for (const Link& l : t.links()) {
    if (slowest == 0 || l.params.bandwidth_Bps < slowest) slowest = l.params.bandwidth_Bps;
  }
  return slowest;
}

std::string edge_style(const LinkParams& p, BandwidthBps slowest) {
  std::string style = "color=\"" + std::string(link_colour(p.kind)) + "\", penwidth=" +
                      fixed(link_pen_width(p.bandwidth_Bps, slowest), 1);
  if (p.duplex == Duplex::kHalf) style += ", style=dashed";
  return style;
}

// Graph, node and edge defaults per engine: dot left to right with room between columns for
// the links that fan into a switch; neato with splines that go round vertices.
void write_defaults(std::ostream& out, const DotLayout& layout) {
  out << "  layout=" << dot_engine_name(layout.engine) << ";\n";
  if (layout.engine == DotEngine::kDot) out << "  rankdir=LR;\n  ranksep=0.8;\n  nodesep=0.06;\n";
  if (layout.engine == DotEngine::kNeato) out << "  splines=true;\n";
  out << "  fontname=\"Helvetica\";\n  fontsize=11;\n  labelloc=b;\n"
      << "  node [fontname=\"Helvetica\", fontsize=10, height=0.3, margin=\"0.06,0.02\", " << kNpuLook << "];\n"
      << "  edge [color=\"#777777\"];\n";
}

// One row per kind of link present: a bar in its colour as thick as its lines, what it is,
// how many there are.
std::string legend_link_rows(const Topology& t) {
  using Key = std::tuple<LinkKind, double, TimePs, Duplex, double>;
  std::map<Key, std::size_t> count;
  for (const Link& l : t.links()) {
    const LinkParams& p = l.params;
    ++count[{p.kind, -p.bandwidth_Bps, p.latency_ps, p.duplex, p.both_ways_efficiency}];
  }
  const BandwidthBps slowest = slowest_link(t);
  std::string rows;
  for (const auto& [key, n] : count) {
    const auto& [kind, minus_bandwidth, latency, duplex, efficiency] = key;
    const LinkParams p{-minus_bandwidth, latency, kind, duplex, efficiency};
    const int bar = static_cast<int>(std::ceil(link_pen_width(p.bandwidth_Bps, slowest)));
    rows += "<tr><td bgcolor=\"" + std::string(link_colour(kind)) + "\" width=\"36\" height=\"" +
            std::to_string(bar) + "\" fixedsize=\"true\" cellpadding=\"0\"></td><td align=\"left\">" +
            html(link_description(p)) + (duplex == Duplex::kHalf ? " (dashed)" : "") +
            "</td><td align=\"right\">" + std::to_string(n) + (n == 1 ? " link" : " links") + "</td></tr>\n";
  }
  return rows;
}

std::string legend_shapes(const Topology& t) {
  std::string text = "box: NPU";
  bool reduces = false;
  bool host_memory = false;
  for (VertexId v = static_cast<VertexId>(t.npu_count()); v < t.vertex_count(); ++v) {
    reduces = reduces || t.vertex(v).reduces;
    host_memory = host_memory || t.vertex(v).host_memory;
  }
  if (t.switch_count() > 0) text += ", ellipse: switch";
  if (reduces) text += ", double ellipse: reduces in the switch (NVLS)";
  if (host_memory) text += ", cylinder: host memory";
  return text + "; line width grows with bandwidth";
}

std::string legend(const Topology& t) {
  return "<<table border=\"0\" cellborder=\"0\" cellspacing=\"1\" cellpadding=\"1\">\n<tr><td colspan=\"3\"><b>" +
         html(t.name()) + "</b>: " + html(t.description()) + "</td></tr>\n" + legend_link_rows(t) +
         "<tr><td colspan=\"3\">" + html(legend_shapes(t)) + "</td></tr>\n</table>>";
}

std::string vertex_attributes(const VertexProps& p, const std::string& label) {
  std::string attributes = "label=" + quoted(label) + ", tooltip=" + quoted(p.name);
  if (p.kind == VertexKind::kNpu) return attributes;  // the default look
  attributes += p.host_memory ? ", shape=cylinder" : ", shape=ellipse";
  if (p.reduces) attributes += ", peripheries=2";
  return attributes + ", style=filled, fillcolor=\"#dddddd\"";
}

// Inside the box of node "node0", "node0/gpu3" is labelled "gpu3".
std::string short_label(const std::string& name, const std::string& cluster) {
  const std::string prefix = cluster + "/";
  return name.size() > prefix.size() && name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
}

void write_vertex(std::ostream& out, const Topology& t, const DotLayout& layout, VertexId v,
                  const std::string& cluster, const char* indent) {
  out << indent << v << " [" << vertex_attributes(t.vertex(v), short_label(t.vertex(v).name, cluster));
  if (!layout.position.empty()) {
    out << ", pos=\"" << fixed(layout.position[v].x, 2) << "," << fixed(layout.position[v].y, 2) << "!\"";
  }
  out << "];\n";
}

// The order vertices are written in, by column left to right: dot orders each column by a
// search from the leftmost vertices in input order, and this order draws the lowest vertex of
// a column at its top on both sides of the core. Within a node left of the core the search
// meets its vertices in reverse, so there a column is written in descending order.
std::vector<VertexId> writing_order(std::vector<VertexId> vertices, const DotLayout& layout, bool in_node) {
  if (layout.column.empty()) return vertices;
  std::sort(vertices.begin(), vertices.end(), [&](VertexId a, VertexId b) {
    const int ca = layout.column[a];
    const int cb = layout.column[b];
    return ca != cb ? ca < cb : (in_node && ca < 0 ? a > b : a < b);
  });
  return vertices;
}

// The core in one column: links between its vertices (CPU sockets) would otherwise spread it.
void write_core_rank(std::ostream& out, const DotLayout& layout, const std::vector<VertexId>& unclustered) {
  std::vector<VertexId> core;
  for (const VertexId v : unclustered) {
    if (!layout.column.empty() && layout.column[v] == 0) core.push_back(v);
  }
  if (core.size() < 2) return;
  out << "  {rank=same;";
  for (const VertexId v : core) out << " " << v << ";";
  out << "}\n";
}

void write_vertices(std::ostream& out, const Topology& t, const DotLayout& layout) {
  std::vector<bool> written(t.vertex_count(), false);
  const auto write_cluster = [&](const DotCluster& c, std::size_t index, const char* style) {
    out << "  subgraph cluster_" << index << " {\n    label=" << quoted(c.label) << ";\n    " << style << "\n";
    for (const VertexId v : writing_order(c.members, layout, index < layout.node_clusters.size())) {
      write_vertex(out, t, layout, v, c.label, "    ");
      written[v] = true;
    }
    out << "  }\n";
  };
  std::size_t index = 0;
  for (const DotCluster& c : layout.node_clusters) {
    write_cluster(c, index++, "style=\"rounded,filled\"; fillcolor=\"#f6f6f6\"; color=\"#999999\";");
  }
  for (const DotCluster& c : layout.level_clusters) {
    write_cluster(c, index++, "style=dashed; color=\"#999999\";");
  }
  std::vector<VertexId> rest;
  for (VertexId v = 0; v < t.vertex_count(); ++v) {
    if (!written[v]) rest.push_back(v);
  }
  for (const VertexId v : writing_order(rest, layout, false)) write_vertex(out, t, layout, v, "", "  ");
  write_core_rank(out, layout, rest);
}

// Each link once, from its end in the lower column (dot ranks the first end before the
// second), else from its lower vertex.
void write_links(std::ostream& out, const Topology& t, const DotLayout& layout) {
  const BandwidthBps slowest = slowest_link(t);
  for (const Link& l : t.links()) {
    VertexId a = std::min(l.first, l.second);
    VertexId b = std::max(l.first, l.second);
    if (!layout.column.empty() && layout.column[b] < layout.column[a]) std::swap(a, b);
    // A link within a column (CPU sockets at the core) must not push its ends apart.
    const bool within_column = !layout.column.empty() && layout.column[a] == layout.column[b];
    const std::string tooltip = t.vertex(a).name + " -- " + t.vertex(b).name + ": " + link_description(l.params);
    out << "  " << a << " -- " << b << " [" << edge_style(l.params, slowest) << ", tooltip=" << quoted(tooltip)
        << (within_column ? ", constraint=false" : "") << "];\n";
  }
}

}  // namespace

std::string link_description(const LinkParams& p) {
  std::string text = format_bandwidth(p.bandwidth_Bps) + " " + format_time(p.latency_ps) + " " +
                     std::string(link_kind_name(p.kind));
  if (p.duplex == Duplex::kHalf) text += " half-duplex";
  if (p.duplex == Duplex::kHalf && p.both_ways_efficiency < 1) {
    std::ostringstream both_ways;
    both_ways << " (x" << p.both_ways_efficiency << " both ways)";
    text += both_ways.str();
  }
  return text;
}

std::string_view link_colour(LinkKind kind) {
  switch (kind) {
    case LinkKind::kNvlink: return "#009E73";      // bluish green
    case LinkKind::kPcie: return "#0072B2";        // blue
    case LinkKind::kInfiniband: return "#D55E00";  // vermilion
    case LinkKind::kEthernet: return "#CC79A7";    // reddish purple
    case LinkKind::kOther: break;
  }
  return "#E69F00";  // orange
}

double link_pen_width(BandwidthBps bandwidth, BandwidthBps slowest) {
  return std::min(kMaxPenWidth, 1 + std::log2(bandwidth / slowest));
}

void write_dot(std::ostream& out, const Topology& topology) {
  const DotLayout layout = plan_dot_layout(topology);
  out << "graph G {\n";
  write_defaults(out, layout);
  out << "  label=" << legend(topology) << ";\n";
  write_vertices(out, topology, layout);
  write_links(out, topology, layout);
  out << "}\n";
}

}  // namespace commsim
