#include "workload/chakra_node.h"

#include <algorithm>
#include <limits>

#include "base/error.h"
#include "workload/chakra_attributes.h"

namespace commsim::chakra {
namespace {

using ChakraProtoMsg::Node;

std::string rank_range(std::size_t ranks) {
  return std::to_string(ranks) + " ranks (0.." + std::to_string(ranks - 1) + ")";
}

TimePs duration_ps(const Node& node, const std::string& where) {
  constexpr std::uint64_t kMaxMicros = kMaxTimePs / kPsPerUs;
  if (node.duration_micros() > kMaxMicros) {
    throw InputError(where + ": duration_micros " + std::to_string(node.duration_micros()) +
                     " is beyond the simulator's range of 100 days");
  }
  return static_cast<TimePs>(node.duration_micros()) * kPsPerUs;
}

Bytes byte_count(std::int64_t value, std::string_view attribute, const std::string& where) {
  if (value < 0) {
    throw InputError(where + ": " + std::string(attribute) + " " + std::to_string(value) +
                     " is negative");
  }
  return checked_size(static_cast<Bytes>(value), where + ": " + std::string(attribute));
}

CollectiveKind collective_kind(std::int64_t comm_type, const std::string& where) {
  switch (comm_type) {
    case ChakraProtoMsg::ALL_REDUCE: return CollectiveKind::kAllReduce;
    case ChakraProtoMsg::REDUCE: return CollectiveKind::kReduce;
    case ChakraProtoMsg::ALL_GATHER: return CollectiveKind::kAllGather;
    case ChakraProtoMsg::BROADCAST: return CollectiveKind::kBroadcast;
    case ChakraProtoMsg::ALL_TO_ALL: return CollectiveKind::kAllToAll;
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK: return CollectiveKind::kReduceScatter;
    case ChakraProtoMsg::BARRIER: return CollectiveKind::kBarrier;
    case ChakraProtoMsg::GATHER:
    case ChakraProtoMsg::SCATTER:
      throw InputError(where + ": comm_type " +
                       ChakraProtoMsg::CollectiveCommType_Name(
                           static_cast<ChakraProtoMsg::CollectiveCommType>(comm_type)) +
                       " (" + std::to_string(comm_type) +
                       ") is not supported: commsim has no Gather or Scatter collective");
    default:
      throw InputError(where + ": comm_type " + std::to_string(comm_type) +
                       " is unknown (expected 0..9, a CollectiveCommType)");
  }
}

void read_collective(const Node& spec, const NodeOrigin& origin, const std::string& where,
                     WorkloadNode& node) {
  node.kind = NodeKind::kCollective;
  const auto comm_type = integer_attribute(spec, "comm_type", where);
  if (!comm_type) throw InputError(where + ": COMM_COLL_NODE without a comm_type attribute");
  node.collective = collective_kind(*comm_type, where);
  if (const auto size = integer_attribute(spec, "comm_size", where)) {
    node.bytes = byte_count(*size, "comm_size", where);
  } else if (node.collective != CollectiveKind::kBarrier) {
    throw InputError(where + ": COMM_COLL_NODE without a comm_size attribute");
  }
  if (const auto dims = bool_list_attribute(spec, "involved_dim", where)) {
    if (std::find(dims->begin(), dims->end(), false) != dims->end()) {
      throw InputError(where +
                       ": involved_dim restricts the collective to some topology "
                       "dimensions, which commsim does not support");
    }
  }
  const auto group = process_group_name(spec, where);
  if (!origin.groups || !group) return;  // all ranks (CHAKRA.md)
  const auto it = origin.group_index->find(*group);
  if (it == origin.group_index->end()) {
    throw InputError(where + ": pg_name '" + *group + "' is not a group of " +
                     origin.groups->source);
  }
  node.group = it->second;
}

void read_point_to_point(const Node& spec, const NodeOrigin& origin, const std::string& where,
                         WorkloadNode& node) {
  const bool send = node.kind == NodeKind::kSend;
  const char* self_attribute = send ? "comm_src" : "comm_dst";
  const char* peer_attribute = send ? "comm_dst" : "comm_src";
  if (const auto self = integer_attribute(spec, self_attribute, where);
      self && *self != static_cast<std::int64_t>(origin.rank)) {
    throw InputError(where + ": " + self_attribute + " " + std::to_string(*self) +
                     " is not the rank of this file (" + std::to_string(origin.rank) + ")");
  }
  if (const auto peer = integer_attribute(spec, peer_attribute, where)) {
    if (*peer < 0 || static_cast<std::uint64_t>(*peer) >= origin.ranks) {
      throw InputError(where + ": " + peer_attribute + " " + std::to_string(*peer) +
                       " is outside the trace's " + rank_range(origin.ranks));
    }
    node.peer = static_cast<Rank>(*peer);
  }
  if (const auto size = integer_attribute(spec, "comm_size", where)) {
    node.bytes = byte_count(*size, "comm_size", where);
  } else if (const auto tensor = integer_attribute(spec, "tensor_size", where)) {
    node.bytes = byte_count(*tensor, "tensor_size", where);
  } else {
    throw InputError(where + ": " + (send ? "COMM_SEND_NODE" : "COMM_RECV_NODE") +
                     " has neither comm_size nor tensor_size");
  }
  node.tag = integer_attribute(spec, "comm_tag", where).value_or(0);
}

void add_dependencies(const google::protobuf::RepeatedField<std::uint64_t>& deps,
                      WorkloadNode& node) {
  for (const TraceNodeId dep : deps) {
    if (std::find(node.deps.begin(), node.deps.end(), dep) == node.deps.end()) {
      node.deps.push_back(dep);
    }
  }
}

}  // namespace

std::optional<std::string> process_group_name(const Node& node, const std::string& where) {
  auto group = string_attribute(node, "pg_name", where);
  if (group && group->empty()) group.reset();
  return group;
}

WorkloadNode to_workload_node(const Node& spec, const NodeOrigin& origin) {
  WorkloadNode node;
  node.id = spec.id();
  node.name = spec.name();
  add_dependencies(spec.data_deps(), node);
  add_dependencies(spec.ctrl_deps(), node);
  const std::string where = node_context(origin.source, origin.rank, node);
  switch (spec.type()) {
    case ChakraProtoMsg::METADATA_NODE:
      node.kind = NodeKind::kSkipped;
      node.skipped_origin = "METADATA_NODE";
      break;
    case ChakraProtoMsg::MEM_LOAD_NODE:
    case ChakraProtoMsg::MEM_STORE_NODE:
      if (spec.duration_micros() > 0) {
        node.kind = NodeKind::kCompute;
        node.duration_ps = duration_ps(spec, where);
      } else {
        node.kind = NodeKind::kSkipped;
        node.skipped_origin = ChakraProtoMsg::NodeType_Name(spec.type());
      }
      break;
    case ChakraProtoMsg::COMP_NODE:
      node.kind = NodeKind::kCompute;
      node.duration_ps = duration_ps(spec, where);
      break;
    case ChakraProtoMsg::COMM_SEND_NODE:
    case ChakraProtoMsg::COMM_RECV_NODE:
      node.kind = spec.type() == ChakraProtoMsg::COMM_SEND_NODE ? NodeKind::kSend : NodeKind::kRecv;
      read_point_to_point(spec, origin, where, node);
      break;
    case ChakraProtoMsg::COMM_COLL_NODE: read_collective(spec, origin, where, node); break;
    default:
      throw InputError(where + ": unknown node type " + std::to_string(spec.type()) +
                       " (expected 1..7: METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, "
                       "COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE)");
  }
  return node;
}

}  // namespace commsim::chakra
