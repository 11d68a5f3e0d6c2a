#include "topology/spec_file.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "base/error.h"
#include "base/input_file.h"
#include "base/text_proto.h"
#include "proto/topology.pb.h"
#include "topology/builders.h"
#include "topology/presets.h"
#include "topology/spec_message.h"
#include "topology/topology_builder.h"

namespace commsim {
namespace {

namespace pb = commsim::spec;

LinkParams link_params(const pb::LinkSpec& spec, const std::string& where) {
  if (spec.bandwidth().empty()) throw InputError(where + ".bandwidth is missing");
  if (spec.latency().empty()) throw InputError(where + ".latency is missing");
  LinkParams p;
  p.bandwidth_Bps = parse_bandwidth(spec.bandwidth(), where + ".bandwidth");
  p.latency_ps = parse_time(spec.latency(), where + ".latency");
  p.kind = link_kind(spec.kind());
  p.duplex = spec.duplex() == pb::HALF ? Duplex::kHalf : Duplex::kFull;
  if (spec.both_ways_efficiency() != 0) {
    const double e = spec.both_ways_efficiency();
    if (p.duplex != Duplex::kHalf) throw InputError(where + ".both_ways_efficiency applies to half-duplex links only");
    if (!(e > 0 && e <= 1)) {
      throw InputError(where + ".both_ways_efficiency must be in (0, 1], got " + std::to_string(e));
    }
    p.both_ways_efficiency = e;
  }
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

// What a builder spec builds, before the library.
TopologyConfig builder_config(const pb::TopologySpec& spec, const std::string& origin, const SpecScale& scale) {
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
      c.rails = b.rails();
      c.nic = link_params(b.nic(), where + ".nic");
      c.nodes = scale.nodes.value_or(c.nodes);
      c.gpus_per_node = scale.gpus_per_node.value_or(c.gpus_per_node);
      break;
    case TopologyKind::kTree:
      c.arity = required(b.arity(), where + ".arity");
      c.npus = required(b.npus(), where + ".npus");
      break;
    case TopologyKind::kSwitch:  // one node: its GPUs scale, the node stays one
      c.npus = scale.gpus_per_node.value_or(required(b.npus(), where + ".npus"));
      break;
    default:
      c.npus = required(b.npus(), where + ".npus");
  }
  c.oversubscription.assign(b.oversubscription().begin(), b.oversubscription().end());
  c.link = link_params(b.link(), where + ".link");
  c.nvls = b.nvls();
  return c;
}

Topology from_builder(const pb::TopologySpec& spec, const std::string& origin, const SpecScale& scale) {
  const TopologyConfig c = builder_config(spec, origin, scale);
  try {
    return build_topology(c);
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
}

// The vertex a field names; `field` names the field in the error ("FILE: graph.links[0].a").
VertexId vertex_named(const std::map<std::string, VertexId>& ids, const std::string& name, const std::string& field) {
  const auto it = ids.find(name);
  if (it == ids.end()) throw InputError(field + ": vertex '" + name + "' does not exist");
  return it->second;
}

// graph.no_peer_access: pairs of distinct NPUs, each pair once.
std::vector<std::pair<Rank, Rank>> peer_pairs(const pb::ExplicitSpec& g, const std::map<std::string, VertexId>& ids,
                                              std::size_t npu_count, const std::string& origin) {
  std::map<std::pair<Rank, Rank>, int> seen;  // pair -> first index
  std::vector<std::pair<Rank, Rank>> pairs;
  for (int i = 0; i < g.no_peer_access_size(); ++i) {
    const pb::PeerPairSpec& p = g.no_peer_access(i);
    const std::string where = origin + ": graph.no_peer_access[" + std::to_string(i) + "]";
    const auto npu = [&](const std::string& name, const char* field) {
      const VertexId v = vertex_named(ids, name, where + "." + field);
      if (v >= npu_count) throw InputError(where + "." + field + ": '" + name + "' is a switch, not an NPU");
      return static_cast<Rank>(v);
    };
    const Rank a = npu(p.a(), "a");
    const Rank b = npu(p.b(), "b");
    if (a == b) throw InputError(where + ": pairs NPU '" + p.a() + "' with itself");
    const auto [first, fresh] = seen.emplace(std::minmax(a, b), i);
    if (!fresh) {
      throw InputError(where + ": '" + p.a() + "' and '" + p.b() + "' are already given in graph.no_peer_access[" +
                       std::to_string(first->second) + "]");
    }
    pairs.emplace_back(a, b);
  }
  return pairs;
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
      if (npus && v.reduces()) throw InputError(where + ".reduces: only a switch reduces, and '" + v.name() + "' is an NPU");
      if (npus && v.host_memory()) {
        throw InputError(where + ".host_memory: only a switch (a CPU's root complex) has it, and '" + v.name() +
                         "' is an NPU");
      }
      ids[v.name()] = npus ? builder.add_npu(v.name()) : builder.add_switch(v.name(), v.reduces());
      if (v.host_memory()) builder.set_host_memory(ids[v.name()]);
    }
  }
  std::map<std::pair<VertexId, VertexId>, int> linked;  // unordered pair -> first link index
  for (int i = 0; i < g.links_size(); ++i) {
    const pb::ExplicitLinkSpec& l = g.links(i);
    const std::string where = origin + ": graph.links[" + std::to_string(i) + "]";
    const VertexId a = vertex_named(ids, l.a(), where + ".a");
    const VertexId b = vertex_named(ids, l.b(), where + ".b");
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
  const auto no_peer_access = peer_pairs(g, ids, builder.npu_count(), origin);
  try {
    Topology topology = std::move(builder).build();
    topology.set_no_peer_access(no_peer_access);
    return topology;
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
}

ProtocolCosts protocol_costs(const pb::ProtocolSpec& spec, const std::string& where) {
  const auto time = [&](const std::string& text, const char* field) {
    if (text.empty()) throw InputError(where + "." + field + " is missing");
    return parse_time(text, where + "." + field);
  };
  ProtocolCosts c;
  c.call_latency_ps = time(spec.call_latency(), "call_latency");
  c.step_latency_ps = {time(spec.nvlink_step(), "nvlink_step"), time(spec.pcie_step(), "pcie_step"),
                       time(spec.net_step(), "net_step")};
  if (!(spec.efficiency() > 0 && spec.efficiency() <= 1)) {
    throw InputError(where + ".efficiency must be in (0, 1], got " + std::to_string(spec.efficiency()));
  }
  c.efficiency = spec.efficiency();
  if (!spec.max_bandwidth().empty()) c.max_rate_Bps = parse_bandwidth(spec.max_bandwidth(), where + ".max_bandwidth");
  if (!spec.loop_chunk().empty()) {
    c.loop_chunk_bytes = parse_size(spec.loop_chunk(), where + ".loop_chunk");
    if (c.loop_chunk_bytes == 0) throw InputError(where + ".loop_chunk must be positive, got '" + spec.loop_chunk() + "'");
  }
  return c;
}

// Rows where a ring's loops do not apply (tree, in_switch) must not give a loop chunk.
void check_no_loop_chunk(const pb::ProtocolSpec& spec, const std::string& where) {
  if (!spec.loop_chunk().empty()) {
    throw InputError(where + ".loop_chunk: only the ring's protocols loop through the buffers (give it in protocols)");
  }
}

Protocol protocol_of(pb::Protocol protocol, const std::string& where) {
  switch (protocol) {
    case pb::LL: return Protocol::kLL;
    case pb::LL128: return Protocol::kLL128;
    case pb::SIMPLE: return Protocol::kSimple;
    default: throw InputError(where + ".protocol is missing");
  }
}

std::optional<ProtocolCosts> in_switch_costs(const spec::LibrarySpec& spec, const std::string& where) {
  if (!spec.has_in_switch()) return std::nullopt;
  const std::string at = where + ".in_switch";
  const pb::Protocol protocol = spec.in_switch().protocol();
  if (protocol != pb::PROTOCOL_UNSPECIFIED && protocol != pb::SIMPLE) {
    throw InputError(at + ".protocol: in-switch reduction runs the SIMPLE protocol only");
  }
  check_no_loop_chunk(spec.in_switch(), at);
  return protocol_costs(spec.in_switch(), at);
}

std::optional<P2pChannels> p2p_channels(const spec::LibrarySpec& spec, const std::string& where) {
  if (!spec.has_p2p()) return std::nullopt;
  const pb::P2pSpec& p = spec.p2p();
  const std::string at = where + ".p2p";
  const auto count = [&](std::uint32_t value, const char* field) {
    if (value == 0) throw InputError(at + "." + field + " must be at least 1");
    return value;
  };
  const auto rate = [&](const std::string& text, const char* field) {
    return text.empty() ? std::numeric_limits<double>::infinity() : parse_bandwidth(text, at + "." + field);
  };
  P2pChannels c;
  c.communicator_channels = p.communicator_channels();
  // With communicator channels, min_channels is only a floor (1 when left out).
  c.min_channels = c.communicator_channels > 0 && p.min_channels() == 0 ? 1 : count(p.min_channels(), "min_channels");
  c.max_channels = count(p.max_channels(), "max_channels");
  if (c.max_channels < c.min_channels) {
    throw InputError(at + ".max_channels (" + std::to_string(c.max_channels) + ") is below min_channels (" +
                     std::to_string(c.min_channels) + ")");
  }
  if (p.max_bytes_per_channel().empty()) throw InputError(at + ".max_bytes_per_channel is missing");
  c.max_bytes_per_channel = parse_size(p.max_bytes_per_channel(), at + ".max_bytes_per_channel");
  c.net_peer_channels = count(p.net_peer_channels(), "net_peer_channels");
  c.channel_rate_Bps = {rate(p.nvlink_channel_rate(), "nvlink_channel_rate"), rate(p.pcie_channel_rate(), "pcie_channel_rate"),
                        rate(p.net_channel_rate(), "net_channel_rate")};
  c.net_peer_rate_Bps = rate(p.net_peer_rate(), "net_peer_rate");
  if (!p.ll_max_bytes_per_channel().empty()) {
    c.ll_max_bytes_per_channel = parse_size(p.ll_max_bytes_per_channel(), at + ".ll_max_bytes_per_channel");
  }
  if (!p.min_bytes_per_channel().empty()) {
    c.min_bytes_per_channel = parse_size(p.min_bytes_per_channel(), at + ".min_bytes_per_channel");
    if (c.min_bytes_per_channel > c.max_bytes_per_channel) {
      throw InputError(at + ".min_bytes_per_channel (" + p.min_bytes_per_channel() + ") is above max_bytes_per_channel (" +
                       p.max_bytes_per_channel() + ")");
    }
  }
  return c;
}

// Factors by collective, each collective once (`field`: "collective_bandwidth" or "ll_share"),
// of the entries whose one_node is `one_node` (only collective_bandwidth's may say it).
std::vector<std::pair<CollectiveKind, double>> collective_factors(
    const google::protobuf::RepeatedPtrField<pb::CollectiveBandwidthSpec>& specs, const std::string& where,
    const std::string& field, bool one_node = false) {
  std::vector<std::pair<CollectiveKind, double>> factors;
  for (int i = 0; i < specs.size(); ++i) {
    const pb::CollectiveBandwidthSpec& c = specs[i];
    const std::string at = where + "." + field + "[" + std::to_string(i) + "]";
    if (c.one_node() && field != "collective_bandwidth") {
      throw InputError(at + ".one_node: only a collective_bandwidth factor has a value inside one node");
    }
    if (c.one_node() != one_node) continue;
    const CollectiveKind kind = parse_collective(c.collective(), at + ".collective");
    for (const auto& [known, factor] : factors) {
      if (known == kind) {
        throw InputError(at + ": collective " + std::string(collective_name(kind)) + " is given twice" +
                         (one_node ? " inside one node" : ""));
      }
    }
    if (!(c.factor() > 0 && c.factor() <= 2)) {
      throw InputError(at + ".factor must be in (0, 2], got " + std::to_string(c.factor()));
    }
    factors.emplace_back(kind, c.factor());
  }
  return factors;
}

// A ramp's points: sizes increasing, ratios in (0, 1].
std::vector<SizeRatio> ramp_points(const google::protobuf::RepeatedPtrField<pb::SizeRatioSpec>& specs,
                                   const std::string& where) {
  std::vector<SizeRatio> points;
  for (int i = 0; i < specs.size(); ++i) {
    const std::string at = where + ".one_node_ramp[" + std::to_string(i) + "]";
    const Bytes bytes = parse_size(specs[i].size(), at + ".size");
    if (!points.empty() && bytes <= points.back().bytes) {
      throw InputError(at + ".size (" + specs[i].size() + ") is not above the size before it: give sizes in increasing order");
    }
    if (!(specs[i].ratio() > 0 && specs[i].ratio() <= 1)) {
      throw InputError(at + ".ratio must be in (0, 1], got " + std::to_string(specs[i].ratio()));
    }
    points.push_back({bytes, specs[i].ratio()});
  }
  return points;
}

// Rows of protocol costs (`field`: "protocols" or "tree"), each protocol once.
ProtocolRows protocol_rows(const google::protobuf::RepeatedPtrField<pb::ProtocolSpec>& specs, const std::string& where,
                           const std::string& field) {
  ProtocolRows rows;
  for (int i = 0; i < specs.size(); ++i) {
    const std::string at = where + "." + field + "[" + std::to_string(i) + "]";
    const Protocol protocol = protocol_of(specs[i].protocol(), at);
    for (const auto& [known, costs] : rows) {
      if (known == protocol) throw InputError(at + ": protocol " + std::string(protocol_name(protocol)) + " is given twice");
    }
    rows.emplace_back(protocol, protocol_costs(specs[i], at));
  }
  return rows;
}

// The protocols of rows, in their order.
std::vector<Protocol> protocols_of(const ProtocolRows& rows) {
  std::vector<Protocol> protocols;
  for (const auto& entry : rows) protocols.push_back(entry.first);
  return protocols;
}

// The tree rows of a `library` block for `profile` (none given: its own).
ProtocolRows tree_rows(const spec::LibrarySpec& spec, const std::string& where, const LibraryProfile& profile) {
  if (spec.tree().empty()) return profile.tree;
  if (profile.ideal()) throw InputError(where + ".tree: the ideal library has no costs to add to");
  for (int i = 0; i < spec.tree().size(); ++i) check_no_loop_chunk(spec.tree(i), where + ".tree[" + std::to_string(i) + "]");
  ProtocolRows rows = protocol_rows(spec.tree(), where, "tree");
  if (protocols_of(rows) != protocols_of(profile.protocols)) {
    throw InputError(where + ".tree names other protocols than the library: give it the same protocols, in the same order");
  }
  return rows;
}

// The profile a `library` block describes, without its estimate and collective factors.
LibraryProfile protocols_from_spec(const spec::LibrarySpec& spec, const std::string& where) {
  if (spec.name().empty()) throw InputError(where + ".name is missing");
  if (spec.protocols().empty()) {
    LibraryProfile built_in = library_by_name(spec.name(), where + ".name");
    if (spec.has_in_switch()) {
      if (built_in.ideal()) throw InputError(where + ".in_switch: the ideal library has no costs to add to");
      built_in.in_switch = in_switch_costs(spec, where);
    }
    if (spec.has_p2p()) {
      if (built_in.ideal()) throw InputError(where + ".p2p: the ideal library has no costs to add to");
      built_in.p2p = p2p_channels(spec, where);
    }
    built_in.tree = tree_rows(spec, where, built_in);
    return built_in;
  }
  LibraryProfile profile;
  profile.name = spec.name();
  profile.in_switch = in_switch_costs(spec, where);
  profile.p2p = p2p_channels(spec, where);
  profile.protocols = protocol_rows(spec.protocols(), where, "protocols");
  profile.tree = tree_rows(spec, where, profile);
  return profile;
}

// The algorithms a block's `algorithm` entries give the library its own (LibrarySpec.algorithm).
std::vector<std::pair<CollectiveKind, AlgorithmKind>> own_algorithms(const spec::LibrarySpec& spec,
                                                                     const std::string& where) {
  std::vector<std::pair<CollectiveKind, AlgorithmKind>> own;
  for (int i = 0; i < spec.algorithm_size(); ++i) {
    const spec::CollectiveAlgorithmSpec& entry = spec.algorithm(i);
    const std::string at = where + ".algorithm[" + std::to_string(i) + "]";
    const CollectiveKind kind = parse_collective(entry.collective(), at + ".collective");
    const AlgorithmKind algorithm = parse_algorithm(entry.algorithm(), at + ".algorithm");
    if (!implements(algorithm, kind) || needs_topology_shape(kind, algorithm)) {
      throw InputError(at + ": " + std::string(algorithm_name(algorithm)) +
                       " cannot be a library's own algorithm for " + std::string(collective_name(kind)) +
                       " (one that runs it on any topology, from one thread)");
    }
    for (const auto& [known, unused] : own) {
      if (known == kind)
        throw InputError(at + ": collective " + std::string(collective_name(kind)) + " is given twice");
    }
    own.emplace_back(kind, algorithm);
  }
  return own;
}

// The first of a block's thread launch fields it gives (with the channel counts), if any.
std::optional<std::string> thread_launch_field(const spec::LibrarySpec& spec) {
  if (!spec.thread_launch().empty()) return "thread_launch";
  if (!spec.thread_launch_per_gpu().empty()) return "thread_launch_per_gpu";
  if (!spec.thread_launch_per_channel().empty()) return "thread_launch_per_channel";
  if (spec.collective_channels() > 0) return "collective_channels";
  if (spec.nvls_channels() > 0) return "nvls_channels";
  if (spec.gpus_per_thread() > 0) return "gpus_per_thread";
  return std::nullopt;
}

// A channel count a block gives (0: left out) over the profile's `out`.
void read_channels(std::uint32_t given, const std::string& where, std::uint32_t& out) {
  if (given > LibraryProfile::kMaxChannels) {
    throw InputError(where + ": " + std::to_string(given) + " is more than NCCL's " +
                     std::to_string(LibraryProfile::kMaxChannels));
  }
  if (given > 0) out = given;
}

// The thread_launch terms and channel counts a block gives, over the profile's.
void read_thread_launch(const spec::LibrarySpec& spec, const std::string& where, LibraryProfile& profile) {
  const auto field = thread_launch_field(spec);
  if (!field) return;
  if (profile.ideal()) throw InputError(where + "." + *field + ": the ideal library has no calls to launch");
  const auto read = [&](const std::string& text, const char* name, TimePs& out) {
    if (!text.empty()) out = parse_time(text, where + "." + name);
  };
  ThreadLaunch& launch = profile.thread_launch;
  read(spec.thread_launch(), "thread_launch", launch.per_call_ps);
  read(spec.thread_launch_per_gpu(), "thread_launch_per_gpu", launch.per_gpu_ps);
  read(spec.thread_launch_per_channel(), "thread_launch_per_channel", launch.per_channel_ps);
  read_channels(spec.collective_channels(), where + ".collective_channels", profile.collective_channels);
  read_channels(spec.nvls_channels(), where + ".nvls_channels", profile.nvls_channels);
  if (spec.gpus_per_thread() > LibraryProfile::kMaxGpusPerThread) {
    throw InputError(where + ".gpus_per_thread: " + std::to_string(spec.gpus_per_thread()) + " is more than " +
                     std::to_string(LibraryProfile::kMaxGpusPerThread));
  }
  if (spec.gpus_per_thread() > 0) profile.gpus_per_thread = spec.gpus_per_thread();
}

// The profile a `library` block describes, without its estimate.
LibraryProfile costs_from_spec(const spec::LibrarySpec& spec, const std::string& where) {
  LibraryProfile profile = protocols_from_spec(spec, where);
  if (spec.collective_bandwidth_size() > 0) {
    if (profile.ideal()) throw InputError(where + ".collective_bandwidth: the ideal library has no costs to scale");
    profile.collective_bandwidth = collective_factors(spec.collective_bandwidth(), where, "collective_bandwidth");
    profile.collective_bandwidth_one_node =
        collective_factors(spec.collective_bandwidth(), where, "collective_bandwidth", true);
  }
  if (spec.ll_share_size() > 0) {
    const auto& rows = profile.protocols;
    if (std::none_of(rows.begin(), rows.end(), [](const auto& row) { return row.first == Protocol::kLL; })) {
      throw InputError(where + ".ll_share: library '" + profile.name + "' has no LL protocol");
    }
    profile.ll_share = collective_factors(spec.ll_share(), where, "ll_share");
  }
  if (!spec.launch().empty()) {
    if (profile.ideal()) throw InputError(where + ".launch: the ideal library has no calls to add it to");
    profile.launch_ps = parse_time(spec.launch(), where + ".launch");
  }
  read_thread_launch(spec, where, profile);
  if (!spec.net_channel_rate().empty()) {
    if (profile.ideal()) throw InputError(where + ".net_channel_rate: the ideal library has no channels to bound");
    profile.net_channel_rate_Bps = parse_bandwidth(spec.net_channel_rate(), where + ".net_channel_rate");
  }
  if (!spec.nvls_tree_net_rate().empty()) {
    if (profile.ideal()) throw InputError(where + ".nvls_tree_net_rate: the ideal library ranks nothing");
    profile.nvls_tree_net_rate_Bps = parse_bandwidth(spec.nvls_tree_net_rate(), where + ".nvls_tree_net_rate");
  }
  if (spec.one_node_ramp_size() > 0) {
    if (profile.ideal()) throw InputError(where + ".one_node_ramp: the ideal library has no calls to bound");
    profile.one_node_ramp = ramp_points(spec.one_node_ramp(), where);
  }
  if (spec.algorithm_size() > 0) {
    if (profile.ideal()) throw InputError(where + ".algorithm: the ideal library runs no algorithm of its own");
    profile.own_algorithms = own_algorithms(spec, where);
  }
  return profile;
}

}  // namespace

LibraryProfile library_from_spec(const spec::LibrarySpec& spec, const std::string& where) {
  LibraryProfile profile = costs_from_spec(spec, where);
  if (!spec.has_estimate()) return profile;
  const std::string at = where + ".estimate";
  if (spec.estimate().has_estimate()) throw InputError(at + " has an estimate of its own: give one estimate");
  if (!spec.estimate().launch().empty()) {
    throw InputError(at + ".launch: an estimate has no launch cost (it is the same for every choice)");
  }
  if (const auto field = thread_launch_field(spec.estimate())) {
    throw InputError(at + "." + *field + ": an estimate has no thread launch cost (it is the same for every choice)");
  }
  if (spec.estimate().collective_bandwidth_size() > 0) {
    throw InputError(at + ".collective_bandwidth: an estimate has no collective factors (NCCL's ranking knows none)");
  }
  if (spec.estimate().one_node_ramp_size() > 0) {
    throw InputError(at + ".one_node_ramp: an estimate has no ramp (NCCL's ranking knows none)");
  }
  if (!spec.estimate().net_channel_rate().empty()) {
    throw InputError(at + ".net_channel_rate: an estimate has no channel rate (NCCL's ranking knows none)");
  }
  if (spec.estimate().algorithm_size() > 0) {
    throw InputError(at + ".algorithm: an estimate ranks; the library's own algorithms are the library's");
  }
  LibraryProfile estimate = costs_from_spec(spec.estimate(), at);
  if (protocols_of(estimate.protocols) != protocols_of(profile.protocols)) {
    throw InputError(at + " names other protocols than the library: give it the same protocols, in the same order");
  }
  if (!estimate.in_switch) estimate.in_switch = profile.in_switch;  // NVLS ranked by its own costs
  if (spec.estimate().tree().empty()) estimate.tree = profile.tree;  // as tree by its own
  profile.estimate = std::make_shared<const LibraryProfile>(std::move(estimate));
  return profile;
}

LibraryProfile load_library_file(const std::string& path) {
  spec::LibrarySpec spec;
  parse_text_proto(read_input_file(path, "library file"), spec, path);
  return library_from_spec(spec, path);
}

namespace {

// What may scale: a cluster (hierarchical builder) its nodes and GPUs a node, a node (switch
// builder) its GPUs; nothing else.
void check_scale(const pb::TopologySpec& spec, const std::string& origin, const SpecScale& scale) {
  const auto kind = spec.shape_case() == pb::TopologySpec::kBuilder ? std::optional(spec.builder().kind())
                                                                     : std::nullopt;
  if ((scale.nodes || scale.gpus_per_node) && kind != pb::HIERARCHICAL && kind != pb::SWITCH) {
    throw InputError(origin +
                     ": --nodes and --gpus-per-node scale a hierarchical or switch builder spec, and this is not one");
  }
  if (kind == pb::SWITCH && scale.nodes && *scale.nodes != 1) {
    throw InputError(origin + ": a switch builder spec is one node, not " + std::to_string(*scale.nodes) +
                     " (--gpus-per-node scales it; a cluster spec, such as topologies/h100-ib-cluster.textproto, "
                     "has nodes)");
  }
}

}  // namespace

Topology parse_topology_spec(const std::string& text, const std::string& origin, bool json,
                             const SpecScale& scale) {
  const pb::TopologySpec spec = parse_spec_message(text, origin, json);
  if (spec.name().empty()) throw InputError(origin + ": name is missing");
  check_scale(spec, origin, scale);
  Topology topology = [&] {
    switch (spec.shape_case()) {
      case pb::TopologySpec::kBuilder: return from_builder(spec, origin, scale);
      case pb::TopologySpec::kGraph: return from_graph(spec, origin);
      default: throw InputError(origin + ": give either a builder { ... } or a graph { ... }");
    }
  }();
  if (spec.has_library()) topology.set_library(library_from_spec(spec.library(), origin + ": library"));
  topology.set_system(spec.description());
  return topology;
}

Topology load_topology_file(const std::string& path, const SpecScale& scale) {
  return parse_topology_spec(read_topology_spec_text(path), path, is_json_spec_path(path), scale);
}

TopologyConfig load_builder_config(const std::string& path, const SpecScale& scale) {
  const pb::TopologySpec spec = parse_spec_message(read_topology_spec_text(path), path, is_json_spec_path(path));
  if (spec.name().empty()) throw InputError(path + ": name is missing");
  check_scale(spec, path, scale);
  if (spec.shape_case() != pb::TopologySpec::kBuilder) {
    throw InputError(path +
                     ": a builder { ... } spec is needed here, to build it at each size; this one gives a graph");
  }
  TopologyConfig c = builder_config(spec, path, scale);
  if (spec.has_library()) c.library = library_from_spec(spec.library(), path + ": library");
  return c;
}

// The default topology: the preset of this name (topologies/h100-nvswitch-node.textproto).
constexpr std::string_view kDefaultPreset = "h100-nvswitch-node";

TopologyConfig default_topology_config() {
  static const TopologyConfig config = [] {
    const std::string origin = "the default topology (topologies/" + std::string(kDefaultPreset) + ".textproto)";
    const pb::TopologySpec spec = parse_spec_message(std::string(*built_in_preset(kDefaultPreset)), origin, false);
    TopologyConfig c = builder_config(spec, origin, {});
    c.library = library_from_spec(spec.library(), origin + ": library");
    return c;
  }();
  return config;
}

TopologyConfig default_cluster_config(std::size_t npus) {
  TopologyConfig node = default_topology_config();
  if (npus <= node.npus) return node;
  TopologyConfig c = node;
  c.kind = TopologyKind::kHierarchical;
  c.gpus_per_node = node.npus;
  c.nodes = static_cast<std::uint32_t>((npus + node.npus - 1) / node.npus);
  c.name = "h100-cluster-" + std::to_string(c.nodes) + "x" + std::to_string(node.npus);
  return c;
}

}  // namespace commsim
