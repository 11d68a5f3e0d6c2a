#include "topology/spec_file.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "base/error.h"
#include "base/text_proto.h"
#include "proto/topology.pb.h"
#include "topology/builders.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

namespace pb = commsim::spec;

LinkKind link_kind(pb::LinkKind kind) {
  switch (kind) {
    case pb::NVLINK: return LinkKind::kNvlink;
    case pb::PCIE: return LinkKind::kPcie;
    case pb::INFINIBAND: return LinkKind::kInfiniband;
    case pb::ETHERNET: return LinkKind::kEthernet;
    default: return LinkKind::kOther;
  }
}

LinkParams link_params(const pb::LinkSpec& spec, const std::string& where) {
  if (spec.bandwidth().empty()) throw InputError(where + ".bandwidth is missing");
  if (spec.latency().empty()) throw InputError(where + ".latency is missing");
  LinkParams p;
  p.bandwidth_Bps = parse_bandwidth(spec.bandwidth(), where + ".bandwidth");
  p.latency_ps = parse_time(spec.latency(), where + ".latency");
  p.kind = link_kind(spec.kind());
  p.duplex = spec.duplex() == pb::HALF ? Duplex::kHalf : Duplex::kFull;
  return p;
}

TopologyKind topology_kind(pb::TopologyKind kind, const std::string& where) {
  switch (kind) {
    case pb::RING: return TopologyKind::kRing;
    case pb::SWITCH: return TopologyKind::kSwitch;
    case pb::FULLY_CONNECTED: return TopologyKind::kFullyConnected;
    case pb::TREE: return TopologyKind::kTree;
    case pb::HIERARCHICAL: return TopologyKind::kHierarchical;
    case pb::MESH: return TopologyKind::kMesh;
    case pb::TORUS: return TopologyKind::kTorus;
    default: throw InputError(where + ".kind is missing");
  }
}

// Proto3 cannot tell a field left out from one set to 0, so a zero is "missing": a spec of
// a real system says what it has rather than relying on defaults.
std::uint32_t required(std::uint32_t value, const std::string& field) {
  if (value == 0) throw InputError(field + " is missing or 0");
  return value;
}

// A field the kind does not use is an error, as the command-line option is: a spec that
// says `dims` on a ring means something the builder would silently not do.
void check_fields_apply(const pb::BuilderSpec& b, TopologyKind kind, const std::string& where) {
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  b.GetReflection()->ListFields(b, &fields);  // the fields set to other than their default
  for (const auto* field : fields) {
    if (field->name() == "kind") continue;
    for (const BuilderParameter& parameter : builder_parameters()) {
      if (parameter.spec_field != field->name() || parameter.applies_to(kind)) continue;
      throw InputError(where + "." + field->name() + " does not apply to a " +
                       std::string(topology_kind_name(kind)) + " builder (only to " +
                       parameter.kind_names() + ")");
    }
  }
}

Topology from_builder(const pb::TopologySpec& spec, const std::string& origin) {
  const pb::BuilderSpec& b = spec.builder();
  const std::string where = origin + ": builder";
  TopologyConfig c;
  c.kind = topology_kind(b.kind(), where);
  check_fields_apply(b, c.kind, where);
  c.name = spec.name();
  switch (c.kind) {
    case TopologyKind::kMesh:
    case TopologyKind::kTorus:
      if (b.dims().empty()) throw InputError(where + ".dims is missing");
      c.dims = parse_dims(b.dims(), where + ".dims");
      break;
    case TopologyKind::kHierarchical:
      c.nodes = required(b.nodes(), where + ".nodes");
      c.gpus_per_node = required(b.gpus_per_node(), where + ".gpus_per_node");
      c.leaf_size = b.leaf_size();
      c.nic = link_params(b.nic(), where + ".nic");
      break;
    case TopologyKind::kTree:
      c.arity = required(b.arity(), where + ".arity");
      c.npus = required(b.npus(), where + ".npus");
      break;
    default:
      c.npus = required(b.npus(), where + ".npus");
  }
  c.oversubscription.assign(b.oversubscription().begin(), b.oversubscription().end());
  c.link = link_params(b.link(), where + ".link");
  try {
    return build_topology(c);
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
}

Topology from_graph(const pb::TopologySpec& spec, const std::string& origin) {
  const pb::ExplicitSpec& g = spec.graph();
  TopologyBuilder builder(spec.name(), "explicit graph");
  std::map<std::string, VertexId> ids;
  // NPUs first, in the order listed, so that their ids are the ranks; then switches.
  for (const bool npus : {true, false}) {
    for (int i = 0; i < g.vertices_size(); ++i) {
      const pb::VertexSpec& v = g.vertices(i);
      if ((v.kind() == pb::VertexSpec::NPU) != npus) continue;
      const std::string where = origin + ": graph.vertices[" + std::to_string(i) + "]";
      if (v.name().empty()) throw InputError(where + ".name is missing");
      if (ids.count(v.name())) {
        throw InputError(where + ": vertex name '" + v.name() + "' is used twice");
      }
      ids[v.name()] = npus ? builder.add_npu(v.name()) : builder.add_switch(v.name());
    }
  }
  std::map<std::pair<VertexId, VertexId>, int> linked;  // unordered pair -> first link index
  for (int i = 0; i < g.links_size(); ++i) {
    const pb::ExplicitLinkSpec& l = g.links(i);
    const std::string where = origin + ": graph.links[" + std::to_string(i) + "]";
    const auto end = [&](const std::string& name, const char* field) {
      const auto it = ids.find(name);
      if (it == ids.end()) {
        throw InputError(where + "." + field + ": vertex '" + name + "' does not exist");
      }
      return it->second;
    };
    const VertexId a = end(l.a(), "a");
    const VertexId b = end(l.b(), "b");
    if (a == b) throw InputError(where + ": links vertex '" + l.a() + "' to itself");
    // Routing takes one link per hop, so a second link would be counted but never used.
    const auto [first, fresh] = linked.emplace(std::minmax(a, b), i);
    if (!fresh) {
      throw InputError(where + ": '" + l.a() + "' and '" + l.b() + "' are already linked by graph.links[" +
                       std::to_string(first->second) +
                       "] (give one link with the bandwidth of both)");
    }
    builder.add_link(a, b, link_params(l.link(), where + ".link"));
  }
  try {
    return std::move(builder).build();
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
}

}  // namespace

Topology parse_topology_spec(const std::string& text, const std::string& origin, bool json) {
  pb::TopologySpec spec;
  if (json) {
    parse_json_proto(text, spec, origin, "invalid JSON topology spec");
  } else {
    parse_text_proto(text, spec, origin);
  }
  if (spec.name().empty()) throw InputError(origin + ": name is missing");
  switch (spec.shape_case()) {
    case pb::TopologySpec::kBuilder: return from_builder(spec, origin);
    case pb::TopologySpec::kGraph: return from_graph(spec, origin);
    default: throw InputError(origin + ": give either a builder { ... } or a graph { ... }");
  }
}

Topology load_topology_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open topology file");
  std::stringstream text;
  text << in.rdbuf();
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return parse_topology_spec(text.str(), path, json);
}

}  // namespace commsim
