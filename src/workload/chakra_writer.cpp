#include "workload/chakra_writer.h"

#include <google/protobuf/util/delimited_message_util.h>

#include <filesystem>
#include <limits>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/output_file.h"
#include "proto/chakra_et.pb.h"

namespace commsim {
namespace {

namespace cp = ChakraProtoMsg;

// The schema version of Chakra's own sample traces (tests/data/chakra-samples).
constexpr const char* kChakraVersion = "0.0.4";

cp::CollectiveCommType comm_type(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce: return cp::ALL_REDUCE;
    case CollectiveKind::kAllGather: return cp::ALL_GATHER;
    case CollectiveKind::kReduceScatter: return cp::REDUCE_SCATTER;
    case CollectiveKind::kBroadcast: return cp::BROADCAST;
    case CollectiveKind::kReduce: return cp::REDUCE;
    case CollectiveKind::kAllToAll: return cp::ALL_TO_ALL;
    case CollectiveKind::kBarrier: return cp::BARRIER;
  }
  return cp::ALL_REDUCE;
}

class NodeWriter {
 public:
  NodeWriter(const Workload& w, Rank rank, const WorkloadNode& node)
      : w_(w), rank_(rank), node_(node) {}

  cp::Node write() const {
    cp::Node n;
    n.set_id(node_.id);
    n.set_name(node_.name);
    for (const TraceNodeId dep : node_.deps) n.add_data_deps(dep);
    switch (node_.kind) {
      case NodeKind::kCompute:
        n.set_type(cp::COMP_NODE);
        if (node_.duration_ps % kPsPerUs != 0) {
          fail("compute time " + std::to_string(node_.duration_ps) +
               " ps is not a whole number of microseconds, which Chakra's duration_micros "
               "cannot hold");
        }
        n.set_duration_micros(static_cast<std::uint64_t>(node_.duration_ps / kPsPerUs));
        break;
      case NodeKind::kCollective:
        n.set_type(cp::COMM_COLL_NODE);
        if (node_.algorithm) {
          fail("collective algorithm '" + std::string(algorithm_name(*node_.algorithm)) +
               "': Chakra has no attribute for it (choose it at replay: commsim replay "
               "--algorithm)");
        }
        add_int64(n, "comm_type", comm_type(node_.collective));
        add_int64(n, "comm_size", size());
        if (node_.group) add_string(n, "pg_name", w_.groups.at(*node_.group).name);
        break;
      case NodeKind::kSend:
      case NodeKind::kRecv: {
        const bool send = node_.kind == NodeKind::kSend;
        n.set_type(send ? cp::COMM_SEND_NODE : cp::COMM_RECV_NODE);
        add_int32(n, send ? "comm_src" : "comm_dst", static_cast<std::int64_t>(rank_));
        if (node_.peer) add_int32(n, send ? "comm_dst" : "comm_src", *node_.peer);
        add_int32(n, "comm_tag", node_.tag);
        add_int64(n, "comm_size", size());
        break;
      }
      case NodeKind::kSkipped: {
        cp::NodeType type = cp::METADATA_NODE;
        if (!cp::NodeType_Parse(node_.skipped_origin, &type) ||
            (type != cp::MEM_LOAD_NODE && type != cp::MEM_STORE_NODE)) {
          type = cp::METADATA_NODE;
        }
        n.set_type(type);
        break;
      }
    }
    cp::AttributeProto& cpu = *n.add_attr();
    cpu.set_name("is_cpu_op");
    cpu.set_bool_val(false);
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(node_context(w_, rank_, node_) + ": cannot be written as Chakra: " + why);
  }

  std::int64_t size() const {
    if (node_.bytes > static_cast<Bytes>(std::numeric_limits<std::int64_t>::max())) {
      fail("size " + std::to_string(node_.bytes) + " B does not fit comm_size (int64)");
    }
    return static_cast<std::int64_t>(node_.bytes);
  }

  static void add_int64(cp::Node& n, const char* name, std::int64_t value) {
    cp::AttributeProto& a = *n.add_attr();
    a.set_name(name);
    a.set_int64_val(value);
  }

  void add_int32(cp::Node& n, const char* name, std::int64_t value) const {
    if (value < std::numeric_limits<std::int32_t>::min() ||
        value > std::numeric_limits<std::int32_t>::max()) {
      fail(std::string(name) + " " + std::to_string(value) + " does not fit Chakra's int32");
    }
    cp::AttributeProto& a = *n.add_attr();
    a.set_name(name);
    a.set_int32_val(static_cast<std::int32_t>(value));
  }

  static void add_string(cp::Node& n, const char* name, const std::string& value) {
    cp::AttributeProto& a = *n.add_attr();
    a.set_name(name);
    a.set_string_val(value);
  }

  const Workload& w_;
  Rank rank_;
  const WorkloadNode& node_;
};

void check_groups(const Workload& w) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < w.groups.size(); ++i) {
    const std::string& name = w.groups[i].name;
    if (name.empty()) {
      throw InputError(w.name + ": group #" + std::to_string(i) +
                       " has no name, which Chakra's pg_name needs");
    }
    if (!names.insert(name).second) {
      throw InputError(w.name + ": two groups are named '" + name + "'");
    }
  }
}

// A JSON string literal (RFC 8259 section 7).
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string chakra_rank_path(const std::string& prefix, Rank rank) {
  return prefix + "." + std::to_string(rank) + ".et";
}

std::string chakra_groups_path(const std::string& prefix) { return prefix + ".comm_groups.json"; }

std::string serialize_chakra_rank(const Workload& workload, Rank rank) {
  check_groups(workload);
  std::ostringstream out;
  cp::GlobalMetadata metadata;
  metadata.set_version(kChakraVersion);
  google::protobuf::util::SerializeDelimitedToOstream(metadata, &out);
  for (const WorkloadNode& node : workload.ranks.at(rank).nodes) {
    google::protobuf::util::SerializeDelimitedToOstream(NodeWriter(workload, rank, node).write(),
                                                        &out);
  }
  return out.str();
}

std::string comm_groups_json(const Workload& workload) {
  check_groups(workload);
  std::string json = "{";
  for (std::size_t i = 0; i < workload.groups.size(); ++i) {
    const CommGroup& g = workload.groups[i];
    json += (i == 0 ? "\n  " : ",\n  ") + json_string(g.name) + ": [";
    for (std::size_t k = 0; k < g.ranks.size(); ++k) {
      json += (k == 0 ? "" : ", ") + std::to_string(g.ranks[k]);
    }
    json += "]";
  }
  return json + "\n}\n";
}

ChakraWriteResult write_chakra_trace(const Workload& workload, const std::string& prefix) {
  validate_workload(workload);
  const std::string beyond = chakra_rank_path(prefix, static_cast<Rank>(workload.rank_count()));
  if (std::error_code error; std::filesystem::exists(beyond, error)) {
    throw InputError(beyond + ": exists and would be read as rank " +
                     std::to_string(workload.rank_count()) + " of this trace of " +
                     std::to_string(workload.rank_count()) +
                     " ranks: remove it or choose another prefix");
  }
  // Every file in memory first, so that nothing is written when one node cannot be.
  std::vector<std::string> files;
  for (Rank r = 0; r < workload.rank_count(); ++r) files.push_back(serialize_chakra_rank(workload, r));
  if (!workload.groups.empty()) files.push_back(comm_groups_json(workload));
  ChakraWriteResult result;
  for (Rank r = 0; r < workload.rank_count(); ++r) result.rank_files.push_back(chakra_rank_path(prefix, r));
  std::vector<std::string> paths = result.rank_files;
  if (!workload.groups.empty()) {
    result.groups_file = chakra_groups_path(prefix);
    paths.push_back(*result.groups_file);
  }
  // Each file closed once written, all committed at the end: a failed write removes every
  // one, so no trace with ranks missing is left behind.
  std::vector<OutputFile> outputs;
  for (std::size_t i = 0; i < files.size(); ++i) {
    outputs.emplace_back(paths[i]);
    outputs.back().stream().write(files[i].data(), static_cast<std::streamsize>(files[i].size()));
    outputs.back().close();
  }
  for (OutputFile& output : outputs) output.commit();
  return result;
}

}  // namespace commsim
