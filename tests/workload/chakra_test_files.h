#pragma once
// Chakra ET files built in memory for the tests: each message preceded by its length as a
// base-128 varint, a GlobalMetadata first, then Nodes (../shared/CHAKRA.md).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "proto/chakra_et.pb.h"

namespace commsim::testing {

inline const std::string kChakraSamples = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/chakra-samples/";

inline std::string varint(std::uint64_t value) {
  std::string bytes;
  while (value >= 0x80) {
    bytes.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  bytes.push_back(static_cast<char>(value));
  return bytes;
}

inline std::string delimited(const google::protobuf::MessageLite& message) {
  const std::string bytes = message.SerializeAsString();
  return varint(bytes.size()) + bytes;
}

inline std::string chakra_file(const std::vector<ChakraProtoMsg::Node>& nodes) {
  ChakraProtoMsg::GlobalMetadata metadata;
  metadata.set_version("0.0.4");
  std::string file = delimited(metadata);
  for (const auto& node : nodes) file += delimited(node);
  return file;
}

inline ChakraProtoMsg::Node chakra_node(std::uint64_t id, ChakraProtoMsg::NodeType type,
                                        std::vector<std::uint64_t> data_deps = {}) {
  ChakraProtoMsg::Node node;
  node.set_id(id);
  std::string name = "n";  // "n" + std::to_string(id) trips g++ 12's -Wrestrict (bug 105329)
  name += std::to_string(id);
  node.set_name(name);
  node.set_type(type);
  for (const auto dep : data_deps) node.add_data_deps(dep);
  return node;
}

inline void add_int64(ChakraProtoMsg::Node& node, const std::string& name, std::int64_t value) {
  auto* attr = node.add_attr();
  attr->set_name(name);
  attr->set_int64_val(value);
}

inline void add_int32(ChakraProtoMsg::Node& node, const std::string& name, std::int32_t value) {
  auto* attr = node.add_attr();
  attr->set_name(name);
  attr->set_int32_val(value);
}

inline ChakraProtoMsg::Node comp_node(std::uint64_t id, std::uint64_t micros,
                                      std::vector<std::uint64_t> deps = {}) {
  auto node = chakra_node(id, ChakraProtoMsg::COMP_NODE, std::move(deps));
  node.set_duration_micros(micros);
  return node;
}

/// A send (src -> dst) or a receive, as Chakra's converters write them.
inline ChakraProtoMsg::Node p2p_node(std::uint64_t id, bool send, std::int32_t src,
                                     std::int32_t dst, std::int64_t bytes, std::int32_t tag) {
  auto node =
      chakra_node(id, send ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE);
  add_int32(node, "comm_src", src);
  add_int32(node, "comm_dst", dst);
  add_int64(node, "comm_size", bytes);
  add_int32(node, "comm_tag", tag);
  return node;
}

inline ChakraProtoMsg::Node coll_node(std::uint64_t id, ChakraProtoMsg::CollectiveCommType type,
                                      std::int64_t bytes,
                                      std::optional<std::string> pg_name = std::nullopt) {
  auto node = chakra_node(id, ChakraProtoMsg::COMM_COLL_NODE);
  add_int64(node, "comm_type", type);
  add_int64(node, "comm_size", bytes);
  if (pg_name) {
    auto* attr = node.add_attr();
    attr->set_name("pg_name");
    attr->set_string_val(*pg_name);
  }
  return node;
}

/// The message of the InputError `load` throws, or "no error".
template <typename Load>
std::string error_of(Load&& load) {
  try {
    load();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace commsim::testing
