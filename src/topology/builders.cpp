#include "topology/builders.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <ranges>
#include <sstream>
#include <utility>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "base/name_table.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

constexpr NameTable<TopologyKind, 7> kKindNames{{
    {TopologyKind::kRing, "ring"},
    {TopologyKind::kSwitch, "switch"},
    {TopologyKind::kFullyConnected, "fully-connected"},
    {TopologyKind::kTree, "tree"},
    {TopologyKind::kHierarchical, "hierarchical"},
    {TopologyKind::kMesh, "mesh"},
    {TopologyKind::kTorus, "torus"},
}};

// Large enough for any cluster of interest, small enough that N^2 route tables fit.
constexpr std::uint32_t kMaxNpus = 1u << 20;

std::string kind_context(const TopologyConfig& c) {
  return std::string(topology_kind_name(c.kind)) + " topology";
}

void require_at_least(std::uint64_t value, std::uint64_t min, const TopologyConfig& c,
                      std::string_view parameter) {
  if (value < min || value > kMaxNpus) {
    throw InputError(kind_context(c) + ": " + std::string(parameter) + " must be in [" +
                     std::to_string(min) + ", " + std::to_string(kMaxNpus) + "], got " +
                     std::to_string(value));
  }
}

std::vector<double> oversubscription_per_level(const TopologyConfig& c, std::size_t levels) {
  std::vector<double> ratios = c.oversubscription;
  if (ratios.empty()) ratios.push_back(1.0);
  // Beyond these a ratio means nothing physical, and uplink bandwidths leave the range.
  constexpr double kMinRatio = 1e-3;
  constexpr double kMaxRatio = 1e6;
  for (const double r : ratios) {
    if (!(r >= kMinRatio && r <= kMaxRatio)) {
      std::ostringstream value;
      value << r;
      throw InputError(kind_context(c) + ": oversubscription " + value.str() +
                       " is outside [0.001, 1e6]");
    }
  }
  if (ratios.size() == 1) ratios.resize(levels, ratios[0]);
  if (ratios.size() != levels) {
    throw InputError(kind_context(c) + ": " + std::to_string(c.oversubscription.size()) +
                     " oversubscription ratios given for " + std::to_string(levels) +
                     " switch levels (give one, or one per level)");
  }
  return ratios;
}

std::string npu_name(std::uint32_t r) { return "npu" + std::to_string(r); }

Topology build_ring(const TopologyConfig& c) {
  require_at_least(c.npus, 1, c, "npus");
  TopologyBuilder b(c.name, "ring, " + std::to_string(c.npus) + " NPUs");
  for (std::uint32_t r = 0; r < c.npus; ++r) b.add_npu(npu_name(r));
  for (std::uint32_t r = 0; r + 1 < c.npus; ++r) b.add_link(r, r + 1, c.link);
  if (c.npus > 2) b.add_link(c.npus - 1, 0, c.link);
  b.set_grid(Grid{{c.npus}, true});
  b.set_router(grid_router(Grid{{c.npus}, true}));
  b.set_shape({TopologyKind::kRing, {c.npus}, c.npus / 2});  // N = 2: one link, 1 hop
  return std::move(b).build();
}

Topology build_switch(const TopologyConfig& c) {
  require_at_least(c.npus, 1, c, "npus");
  TopologyBuilder b(c.name, "switch, " + std::to_string(c.npus) + " NPUs");
  for (std::uint32_t r = 0; r < c.npus; ++r) b.add_npu(npu_name(r));
  const VertexId sw = b.add_switch("switch", c.nvls);
  for (std::uint32_t r = 0; r < c.npus; ++r) b.add_link(r, sw, c.link);
  b.set_shape({TopologyKind::kSwitch, {}, c.npus > 1 ? 2u : 0u});
  b.set_router(star_router());
  return std::move(b).build();
}

// A fully-connected graph has N(N-1)/2 links, ~320 bytes each as built (measured: 2.6 GB
// and 20 s for 4,096 NPUs); beyond that it is refused rather than left to exhaust memory.
constexpr std::uint32_t kMaxFullyConnectedNpus = 4096;
constexpr double kBytesPerBuiltLink = 320;

Topology build_fully_connected(const TopologyConfig& c) {
  require_at_least(c.npus, 1, c, "npus");
  if (c.npus > kMaxFullyConnectedNpus) {
    const double links = 0.5 * c.npus * (c.npus - 1.0);
    std::ostringstream text;
    text << kind_context(c) << ": " << c.npus << " NPUs need " << std::fixed << std::setprecision(0)
         << links << " links, about " << std::setprecision(1) << links * kBytesPerBuiltLink / 1e9
         << " GB of memory; the limit is " << kMaxFullyConnectedNpus
         << " NPUs (for a large non-blocking fabric, use a switch topology)";
    throw InputError(text.str());
  }
  TopologyBuilder b(c.name, "fully connected, " + std::to_string(c.npus) + " NPUs");
  for (std::uint32_t r = 0; r < c.npus; ++r) b.add_npu(npu_name(r));
  b.reserve_links(std::size_t{c.npus} * (c.npus - 1) / 2);
  for (std::uint32_t r = 0; r < c.npus; ++r) b.reserve_degree(r, c.npus - 1);
  for (std::uint32_t i = 0; i < c.npus; ++i) {
    for (std::uint32_t j = i + 1; j < c.npus; ++j) b.add_link(i, j, c.link);
  }
  b.set_shape({TopologyKind::kFullyConnected, {}, c.npus > 1 ? 1u : 0u});
  b.set_router(fully_connected_router(c.npus));
  return std::move(b).build();
}

Topology build_tree(const TopologyConfig& c) {
  require_at_least(c.npus, 1, c, "npus");
  require_at_least(c.arity, 2, c, "arity");
  std::size_t levels = 0;  // switch levels: ceil(log_arity(npus)), at least 1
  for (std::uint64_t reach = 1; levels == 0 || reach < c.npus; reach *= c.arity) ++levels;
  const std::vector<double> ratios = oversubscription_per_level(c, levels);

  TopologyBuilder b(c.name, "tree, " + std::to_string(c.npus) + " NPUs, arity " +
                                std::to_string(c.arity) + ", " + std::to_string(levels) +
                                " switch levels");
  struct Member {
    VertexId vertex;
    std::uint32_t npus_below;
  };
  std::vector<Member> current;
  for (std::uint32_t r = 0; r < c.npus; ++r) current.push_back({b.add_npu(npu_name(r)), 1});
  for (std::size_t level = 1; level <= levels; ++level) {
    std::vector<Member> parents;
    for (std::size_t first = 0; first < current.size(); first += c.arity) {
      const VertexId sw = b.add_switch("sw" + std::to_string(level) + "." +
                                       std::to_string(parents.size()));
      Member parent{sw, 0};
      for (std::size_t i = first; i < std::min(current.size(), first + c.arity); ++i) {
        LinkParams up = c.link;
        // NPU links carry B; a switch's uplink carries what its NPUs could send at full
        // rate, divided by that level's oversubscription ratio.
        if (level > 1) up.bandwidth_Bps *= current[i].npus_below / ratios[level - 2];
        b.add_link(current[i].vertex, sw, up);
        parent.npus_below += current[i].npus_below;
      }
      parents.push_back(parent);
    }
    current = std::move(parents);
  }
  // NPU 0 and NPU N-1 sit under different children of the root, so they meet only there.
  b.set_shape({TopologyKind::kTree, {}, c.npus > 1 ? 2 * levels : 0});
  b.set_router(tree_router(c.npus, c.arity));
  return std::move(b).build();
}

// A leaf's uplink to the spine: the NICs below it (every GPU of its nodes, or with rails
// one a node) over the oversubscription.
LinkParams uplink_params(const TopologyConfig& c, std::uint32_t nodes_below, bool rails, double oversubscription) {
  LinkParams uplink = c.nic;
  uplink.bandwidth_Bps *= static_cast<double>(nodes_below) * (rails ? 1 : c.gpus_per_node) / oversubscription;
  return uplink;
}

Topology build_hierarchical(const TopologyConfig& c) {
  require_at_least(c.nodes, 1, c, "nodes");
  require_at_least(c.gpus_per_node, 1, c, "gpus per node");
  require_at_least(static_cast<std::uint64_t>(c.nodes) * c.gpus_per_node, 1, c, "GPUs");
  // A leaf larger than the cluster is one leaf with spare ports; in 64 bits, since
  // nodes + leaf_size - 1 overflows 32 (a leaf_size of 2^32 - 1 once left no leaves).
  const std::uint32_t leaf_size = c.leaf_size == 0 ? c.nodes : std::min(c.leaf_size, c.nodes);
  const auto groups = static_cast<std::uint32_t>((std::uint64_t{c.nodes} + leaf_size - 1) / leaf_size);
  // Rail-optimised: a leaf per GPU index of each group of leaf_size nodes; at most one a GPU,
  // so within the GPUs' bound above.
  const std::uint32_t rails = c.rails ? c.gpus_per_node : 1;
  const std::uint32_t leaves = groups * rails;
  const std::vector<double> ratios = oversubscription_per_level(c, 1);

  std::string description = "hierarchical, " + counted(c.nodes, "node") + " x " + counted(c.gpus_per_node, "GPU");
  if (groups > 1) description += ", " + std::to_string(leaf_size) + " nodes per leaf";  // one group: no spine
  if (c.rails) description += ", rail-optimised";
  TopologyBuilder b(c.name, description);
  for (std::uint32_t n = 0; n < c.nodes; ++n) {
    for (std::uint32_t g = 0; g < c.gpus_per_node; ++g) {
      b.add_npu("node" + std::to_string(n) + "/gpu" + std::to_string(g));
    }
  }
  const auto gpu = [&](std::uint32_t n, std::uint32_t g) { return n * c.gpus_per_node + g; };
  // GPUs meet at their NVSwitch (2 hops), their leaf (2), through the spine or across rails
  // through another GPU of their node and its rail (4).
  const std::size_t diameter = c.nodes > 1 ? (leaves > 1 ? 4 : 2) : (c.gpus_per_node > 1 ? 2 : 0);
  b.set_shape({TopologyKind::kHierarchical, {c.gpus_per_node, c.nodes}, diameter});
  // Inside a node the NVSwitch (two NVLink hops) unless two NIC hops weigh less; Dijkstra
  // keeps the NVSwitch on a tie (routing.h). With rails two GPUs of a node are on different
  // leaves: the NVSwitch. Across rails of a group, PXN's two NVLink hops unless the group's
  // two uplink hops weigh less (no spine with one group).
  const bool spine = c.rails ? groups > 1 : leaves > 1;
  const std::uint32_t last_group_nodes = c.nodes - (groups - 1) * leaf_size;
  const auto pxn_in = [&](std::uint32_t group_nodes) {
    return !spine || route_weight(c.link) <= route_weight(uplink_params(c, group_nodes, c.rails, ratios[0]));
  };
  b.set_router(
      hierarchical_router({c.gpus_per_node, c.nodes, leaf_size, c.rails || route_weight(c.link) <= route_weight(c.nic),
                           c.rails, pxn_in(leaf_size), pxn_in(last_group_nodes)}));
  if (c.gpus_per_node > 1) {
    for (std::uint32_t n = 0; n < c.nodes; ++n) {
      const VertexId nvswitch = b.add_switch("node" + std::to_string(n) + "/nvswitch", c.nvls);
      for (std::uint32_t g = 0; g < c.gpus_per_node; ++g) b.add_link(gpu(n, g), nvswitch, c.link);
    }
  }
  if (c.nodes == 1) return std::move(b).build();

  std::vector<VertexId> leaf;
  for (std::uint32_t l = 0; l < leaves; ++l) {
    const std::string group = groups == 1 ? "" : "leaf" + std::to_string(l / rails);
    const std::string rail = "rail" + std::to_string(l % rails);
    leaf.push_back(b.add_switch(leaves == 1   ? "netswitch"
                                : !c.rails    ? group
                                : groups == 1 ? rail
                                              : group + "/" + rail));
  }
  for (std::uint32_t n = 0; n < c.nodes; ++n) {
    for (std::uint32_t g = 0; g < c.gpus_per_node; ++g) {
      b.add_link(gpu(n, g), leaf[n / leaf_size * rails + (c.rails ? g : 0)], c.nic);
    }
  }
  if (spine) {
    const VertexId spine_switch = b.add_switch("spine");
    for (std::uint32_t l = 0; l < leaves; ++l) {
      const std::uint32_t first_node = l / rails * leaf_size;
      const std::uint32_t nodes_below = std::min(leaf_size, c.nodes - first_node);
      b.add_link(leaf[l], spine_switch, uplink_params(c, nodes_below, c.rails, ratios[0]));
    }
  }
  return std::move(b).build();
}

Topology build_grid(const TopologyConfig& c, bool wrap) {
  if (c.dims.empty() || c.dims.size() > 3) {
    throw InputError(kind_context(c) + ": dims must have 1 to 3 dimensions, got " +
                     std::to_string(c.dims.size()) + " (give e.g. --dims 4x4)");
  }
  std::uint64_t npus = 1;
  for (const std::uint32_t d : c.dims) {
    if (d == 0) throw InputError(kind_context(c) + ": dims " + format_dims(c.dims) +
                                 " has a dimension of size 0");
    npus *= d;
    require_at_least(npus, 1, c, "the number of NPUs (product of dims)");
  }
  TopologyBuilder b(c.name, std::string(wrap ? "torus " : "mesh ") + format_dims(c.dims));
  for (std::uint32_t r = 0; r < npus; ++r) b.add_npu(npu_name(r));
  std::uint32_t stride = 1;
  for (const std::uint32_t size : c.dims) {
    for (std::uint32_t r = 0; r < npus; ++r) {
      const std::uint32_t coord = (r / stride) % size;
      if (coord + 1 < size) b.add_link(r, r + stride, c.link);
      // A wrap-around link closes each ring; with size 2 it would double the one link.
      if (wrap && size > 2 && coord == size - 1) b.add_link(r, r - coord * stride, c.link);
    }
    stride *= size;
  }
  b.set_grid(Grid{c.dims, wrap});
  b.set_router(grid_router(Grid{c.dims, wrap}));
  // Dimension by dimension: d - 1 hops along a mesh line, d / 2 round a torus ring.
  std::size_t diameter = 0;
  for (const std::uint32_t d : c.dims) diameter += wrap ? d / 2 : d - 1;
  b.set_shape({wrap ? TopologyKind::kTorus : TopologyKind::kMesh, c.dims, diameter});
  return std::move(b).build();
}

// "-os4" or "-os2-1" for oversubscribed levels; empty when every level is non-blocking.
std::string oversubscription_suffix(const std::vector<double>& ratios) {
  if (std::all_of(ratios.begin(), ratios.end(), [](double r) { return r == 1; })) return "";
  std::ostringstream text;
  text << "-os";
  for (std::size_t i = 0; i < ratios.size(); ++i) text << (i ? "-" : "") << ratios[i];
  return text.str();
}

// Names tell apart every topology a sweep builds: tree-16, tree-16-k4-os2, hierarchical-4x8,
// hierarchical-4x8-rails.
std::string default_name(const TopologyConfig& c) {
  const std::string kind(topology_kind_name(c.kind));
  switch (c.kind) {
    case TopologyKind::kHierarchical:
      return kind + "-" + std::to_string(c.nodes) + "x" + std::to_string(c.gpus_per_node) +
             oversubscription_suffix(c.oversubscription) + (c.rails ? "-rails" : "");
    case TopologyKind::kMesh:
    case TopologyKind::kTorus:
      return kind + "-" + format_dims(c.dims);
    case TopologyKind::kTree:
      return kind + "-" + std::to_string(c.npus) + (c.arity == 2 ? "" : "-k" + std::to_string(c.arity)) +
             oversubscription_suffix(c.oversubscription);
    default:
      return kind + "-" + std::to_string(c.npus);
  }
}

}  // namespace

std::string_view topology_kind_name(TopologyKind kind) { return name_in(kKindNames, kind); }

TopologyKind parse_topology_kind(std::string_view name, std::string_view what) {
  return parse_in(kKindNames, name, what, "topology kind");
}

std::vector<std::uint32_t> parse_dims(std::string_view text, std::string_view what) {
  std::vector<std::uint32_t> dims;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('x', start);
    const std::string_view part = text.substr(start, end - start);
    std::uint32_t value = 0;
    const auto [stop, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc() || stop != part.data() + part.size()) {
      throw InputError(std::string(what) + ": cannot parse '" + std::string(text) +
                       "' as dimensions (expected e.g. 4x4 or 4x4x4)");
    }
    if (value == 0) {
      throw InputError(std::string(what) + ": '" + std::string(text) +
                       "' has a dimension of size 0");
    }
    dims.push_back(value);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (dims.size() > 3) {
    throw InputError(std::string(what) + ": '" + std::string(text) +
                     "' has more than 3 dimensions");
  }
  return dims;
}

std::string format_dims(const std::vector<std::uint32_t>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) text += 'x';
    text += std::to_string(dims[i]);
  }
  return text;
}

LinkParams default_npu_link() {
  return {450e9, ps_from_ns(250), LinkKind::kNvlink, Duplex::kFull};
}

LinkParams default_nic_link() {
  return {400e9 / 8, ps_from_ns(1000), LinkKind::kInfiniband, Duplex::kFull};
}

const std::vector<BuilderParameter>& builder_parameters() {
  using K = TopologyKind;
  static const std::vector<BuilderParameter> parameters{
      {"npus", "npus", {K::kRing, K::kSwitch, K::kFullyConnected, K::kTree}},
      {"dims", "dims", {K::kMesh, K::kTorus}},
      {"arity", "arity", {K::kTree}},
      {"oversubscription", "oversubscription", {K::kTree, K::kHierarchical}},
      {"nodes", "nodes", {K::kHierarchical}},
      {"gpus-per-node", "gpus_per_node", {K::kHierarchical}},
      {"leaf-size", "leaf_size", {K::kHierarchical}},
      {"rails", "rails", {K::kHierarchical}},
      {"nic-bandwidth", "nic", {K::kHierarchical}},
      {"nic-latency", "nic", {K::kHierarchical}},
      {"bandwidth", "link", {}},
      {"latency", "link", {}},
      {"link-kind", "link", {}},
      {"duplex", "link", {}},
      {"nvls", "nvls", {K::kSwitch, K::kHierarchical}},
  };
  return parameters;
}

bool BuilderParameter::applies_to(TopologyKind kind) const {
  return kinds.empty() || std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::string BuilderParameter::kind_names() const {
  return kinds.empty() ? "every kind" : joined(std::views::transform(kinds, topology_kind_name));
}

Topology build_topology(const TopologyConfig& config) {
  TopologyConfig c = config;
  if (c.name.empty()) c.name = default_name(c);
  Topology topology = [&] {
    switch (c.kind) {
      case TopologyKind::kRing: return build_ring(c);
      case TopologyKind::kSwitch: return build_switch(c);
      case TopologyKind::kFullyConnected: return build_fully_connected(c);
      case TopologyKind::kTree: return build_tree(c);
      case TopologyKind::kHierarchical: return build_hierarchical(c);
      case TopologyKind::kMesh: return build_grid(c, false);
      case TopologyKind::kTorus: return build_grid(c, true);
    }
    throw InternalError("unhandled topology kind");
  }();
  topology.set_library(c.library);
  return topology;
}

}  // namespace commsim
