#include "workload/trace_file.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <climits>
#include <map>
#include <utility>

#include "base/error.h"
#include "base/input_file.h"
#include "base/output_file.h"
#include "base/text_proto.h"
#include "base/name_table.h"
#include "proto/workload.pb.h"
#include "workload/trace_quantities.h"

namespace commsim {
namespace {

namespace pb = commsim::spec;

constexpr NameTable<CollectiveKind, 7> kCollectiveTypes{{
    {CollectiveKind::kAllReduce, "ALL_REDUCE"},
    {CollectiveKind::kAllGather, "ALL_GATHER"},
    {CollectiveKind::kReduceScatter, "REDUCE_SCATTER"},
    {CollectiveKind::kBroadcast, "BROADCAST"},
    {CollectiveKind::kReduce, "REDUCE"},
    {CollectiveKind::kAllToAll, "ALL_TO_ALL"},
    {CollectiveKind::kBarrier, "BARRIER"},
}};

pb::WorkloadTraceSpec parse_spec(std::string_view bytes, TraceEncoding encoding,
                                 const std::string& origin) {
  pb::WorkloadTraceSpec spec;
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw InputError(origin + ": trace file larger than 2 GiB");
  }
  if (encoding == TraceEncoding::kText) {
    parse_text_proto(std::string(bytes), spec, origin);
  } else if (!spec.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw InputError(origin +
                     ": not a binary commsim trace (protobuf parse failed); a text-format "
                     "trace needs a name ending in .textproto or .pbtxt");
  }
  return spec;
}

CollectiveKind collective_kind(const pb::CollectiveSpec& spec, const std::string& where) {
  if (spec.type() == pb::COLLECTIVE_TYPE_UNSPECIFIED) {
    throw InputError(where + ": collective.type is missing (expected " +
                     names_in(kCollectiveTypes) + ")");
  }
  const auto kind = value_in(kCollectiveTypes, pb::CollectiveType_Name(spec.type()));
  if (!kind) {
    throw InputError(where + ": collective.type " + std::to_string(spec.type()) +
                     " is unknown (expected " + names_in(kCollectiveTypes) + ")");
  }
  return *kind;
}

class SpecReader {
 public:
  SpecReader(const pb::WorkloadTraceSpec& spec, const std::string& origin)
      : spec_(spec), origin_(origin) {}

  Workload read() {
    Workload workload;
    workload.name = spec_.name();
    read_groups(workload);
    if (spec_.ranks_size() == 0) throw InputError(origin_ + ": the trace has no ranks");
    for (int r = 0; r < spec_.ranks_size(); ++r) {
      RankTrace rank{origin_, {}};
      rank.nodes.reserve(static_cast<std::size_t>(spec_.ranks(r).nodes_size()));
      for (const pb::TraceNodeSpec& node : spec_.ranks(r).nodes()) {
        rank.nodes.push_back(read_node(static_cast<Rank>(r), node));
      }
      workload.ranks.push_back(std::move(rank));
    }
    return workload;
  }

 private:
  void read_groups(Workload& workload) {
    for (int i = 0; i < spec_.groups_size(); ++i) {
      const pb::CommGroupSpec& group = spec_.groups(i);
      const std::string where = origin_ + ": groups[" + std::to_string(i) + "]";
      if (group.name().empty()) throw InputError(where + ".name is missing");
      if (!group_index_.emplace(group.name(), workload.groups.size()).second) {
        throw InputError(where + ": group name '" + group.name() + "' is used twice");
      }
      workload.groups.push_back({group.name(), {group.ranks().begin(), group.ranks().end()}});
    }
  }

  WorkloadNode read_node(Rank r, const pb::TraceNodeSpec& spec) const {
    WorkloadNode node;
    node.id = spec.id();
    node.name = spec.name();
    for (const TraceNodeId dep : spec.deps()) {
      if (std::find(node.deps.begin(), node.deps.end(), dep) == node.deps.end()) {
        node.deps.push_back(dep);
      }
    }
    const std::string where = node_context(origin_, r, node);
    switch (spec.kind_case()) {
      case pb::TraceNodeSpec::kCompute:
        node.kind = NodeKind::kCompute;
        node.duration_ps =
            parse_trace_duration(spec.compute().duration(), where + ": compute.duration");
        break;
      case pb::TraceNodeSpec::kCollective: read_collective(spec.collective(), where, node); break;
      case pb::TraceNodeSpec::kSend:
        node.kind = NodeKind::kSend;
        read_point_to_point(spec.send(), where + ": send", node);
        break;
      case pb::TraceNodeSpec::kRecv:
        node.kind = NodeKind::kRecv;
        read_point_to_point(spec.recv(), where + ": recv", node);
        break;
      case pb::TraceNodeSpec::kSkipped:
        node.kind = NodeKind::kSkipped;
        node.skipped_origin = spec.skipped().origin();
        break;
      default:
        throw InputError(where +
                         ": the node has no kind (give compute, collective, send, "
                         "recv or skipped)");
    }
    return node;
  }

  void read_collective(const pb::CollectiveSpec& spec, const std::string& where,
                       WorkloadNode& node) const {
    node.kind = NodeKind::kCollective;
    node.collective = collective_kind(spec, where);
    const bool sized = node.collective != CollectiveKind::kBarrier || !spec.size().empty();
    if (sized) node.bytes = parse_trace_size(spec.size(), where + ": collective.size");
    if (!spec.algorithm().empty()) {
      node.algorithm = parse_algorithm(spec.algorithm(), where + ": collective.algorithm");
    }
    if (!spec.group().empty()) {
      const auto it = group_index_.find(spec.group());
      if (it == group_index_.end()) {
        throw InputError(where + ": collective.group '" + spec.group() +
                         "' is not declared in the trace's groups");
      }
      node.group = it->second;
    }
  }

  static void read_point_to_point(const pb::PointToPointSpec& spec, const std::string& where,
                                  WorkloadNode& node) {
    if (!spec.has_peer()) throw InputError(where + ".peer is missing");
    node.peer = spec.peer();
    node.bytes = parse_trace_size(spec.size(), where + ".size");
    node.tag = spec.tag();
  }

  const pb::WorkloadTraceSpec& spec_;
  const std::string& origin_;
  std::map<std::string, std::size_t> group_index_;
};

pb::CollectiveType collective_type(CollectiveKind kind) {
  pb::CollectiveType type = pb::COLLECTIVE_TYPE_UNSPECIFIED;
  pb::CollectiveType_Parse(std::string(name_in(kCollectiveTypes, kind)), &type);
  return type;
}

pb::TraceNodeSpec node_spec(const Workload& workload, Rank r, const WorkloadNode& node) {
  pb::TraceNodeSpec spec;
  spec.set_id(node.id);
  spec.set_name(node.name);
  for (const TraceNodeId dep : node.deps) spec.add_deps(dep);
  const auto unwritable = [&](const std::string& why) {
    return InputError(node_context(workload, r, node) +
                      ": cannot be written as a commsim trace: " + why);
  };
  switch (node.kind) {
    case NodeKind::kCompute:
      spec.mutable_compute()->set_duration(format_trace_duration(node.duration_ps));
      break;
    case NodeKind::kCollective: {
      pb::CollectiveSpec& c = *spec.mutable_collective();
      c.set_type(collective_type(node.collective));
      c.set_size(format_trace_size(node.bytes));
      if (node.algorithm) c.set_algorithm(std::string(algorithm_name(*node.algorithm)));
      if (node.group) {
        const std::string& group = workload.groups.at(*node.group).name;
        if (group.empty()) throw unwritable("its collective group has no name");
        c.set_group(group);
      }
      break;
    }
    case NodeKind::kSend:
    case NodeKind::kRecv: {
      if (!node.peer) throw unwritable("the trace it came from gives no peer rank");
      pb::PointToPointSpec& p =
          node.kind == NodeKind::kSend ? *spec.mutable_send() : *spec.mutable_recv();
      p.set_peer(*node.peer);
      p.set_size(format_trace_size(node.bytes));
      p.set_tag(node.tag);
      break;
    }
    case NodeKind::kSkipped: spec.mutable_skipped()->set_origin(node.skipped_origin); break;
  }
  return spec;
}

}  // namespace

TraceEncoding trace_encoding_for(std::string_view path) {
  for (const std::string_view ext : {std::string_view(".textproto"), std::string_view(".pbtxt")}) {
    if (path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext) {
      return TraceEncoding::kText;
    }
  }
  return TraceEncoding::kBinary;
}

Workload parse_trace(std::string_view bytes, TraceEncoding encoding, const std::string& origin) {
  const pb::WorkloadTraceSpec spec = parse_spec(bytes, encoding, origin);
  Workload workload = SpecReader(spec, origin).read();
  validate_workload(workload);
  return workload;
}

Workload load_trace_file(const std::string& path) {
  return parse_trace(read_input_file(path, "trace file"), trace_encoding_for(path), path);
}

std::string serialize_trace(const Workload& workload, TraceEncoding encoding) {
  pb::WorkloadTraceSpec spec;
  spec.set_name(workload.name);
  for (const CommGroup& group : workload.groups) {
    pb::CommGroupSpec& g = *spec.add_groups();
    g.set_name(group.name);
    for (const Rank r : group.ranks) g.add_ranks(r);
  }
  for (Rank r = 0; r < workload.rank_count(); ++r) {
    pb::RankTraceSpec& rank = *spec.add_ranks();
    for (const WorkloadNode& node : workload.ranks[r].nodes) {
      *rank.add_nodes() = node_spec(workload, r, node);
    }
  }
  std::string bytes;
  if (encoding == TraceEncoding::kText) {
    google::protobuf::TextFormat::PrintToString(spec, &bytes);
    return "# commsim workload trace, text format of proto/workload.proto\n" + bytes;
  }
  spec.SerializeToString(&bytes);
  return bytes;
}

void write_trace_file(const Workload& workload, const std::string& path) {
  const std::string bytes = serialize_trace(workload, trace_encoding_for(path));
  OutputFile out(path);
  out.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.commit();
}

}  // namespace commsim
