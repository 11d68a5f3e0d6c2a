#pragma once
// Turns one Chakra Node into a WorkloadNode (the mapping is listed in chakra_reader.h).

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "proto/chakra_et.pb.h"
#include "workload/comm_groups_json.h"
#include "workload/workload.h"

namespace commsim::chakra {

/// What the mapping needs to know about the file a node is in.
struct NodeOrigin {
  std::string source;  // the file
  Rank rank = 0;
  std::size_t ranks = 0;                  // in the whole trace
  const CommGroupFile* groups = nullptr;  // the group file, if one was given
  const std::map<std::string, std::size_t>* group_index = nullptr;  // name -> groups index
};

/// Throws InputError naming the file, rank and node for a node commsim cannot replay.
WorkloadNode to_workload_node(const ChakraProtoMsg::Node& node, const NodeOrigin& origin);

/// The process group a COMM_COLL_NODE names in its pg_name attribute, if it names one (not
/// empty). Throws InputError naming `where` when pg_name is not a string.
std::optional<std::string> process_group_name(const ChakraProtoMsg::Node& node, const std::string& where);

}  // namespace commsim::chakra
