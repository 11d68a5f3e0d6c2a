#pragma once
// Writes a Workload as a Chakra execution trace (../shared/CHAKRA.md), the inverse of
// chakra_reader.h: load_chakra_trace on what write_chakra_trace wrote gives back an equal
// workload (name and source files aside), hence the same replay.
//
// Per rank, `<prefix>.<rank>.et`: a GlobalMetadata (version "0.0.4", the schema version of
// Chakra's own samples), then one Node per workload node in order, each message preceded by
// its length as a base-128 varint (protobuf's SerializeDelimitedToOstream). Nodes become:
//
//   compute     COMP_NODE, duration_micros (the duration must be whole microseconds)
//   collective  COMM_COLL_NODE, attributes comm_type (int64, a CollectiveCommType),
//               comm_size (int64, bytes), pg_name (string) when it runs in a group
//   send, recv  COMM_SEND_NODE / COMM_RECV_NODE, attributes comm_src and comm_dst (int32:
//               this rank and the peer), comm_tag (int32), comm_size (int64)
//   skipped     the node type it came from (METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE;
//               METADATA_NODE for any other origin), no duration
// every one with is_cpu_op = false, as Chakra's generator writes; dependencies go in
// data_deps. When the workload has groups, `<prefix>.comm_groups.json` lists them as
// {"<name>": [ranks...]} (the file `commsim replay --comm-groups` reads).
//
// A group file is read back sorted by name: groups whose names are not in workload order come
// back reordered (the same groups, the same replay, other indices).
//
// What Chakra cannot hold is an InputError naming the rank and node, never dropped: a
// compute time that is not whole microseconds, a collective with a chosen algorithm (Chakra
// has no such attribute: choose it at replay), a tag beyond int32, a group without a name or
// with the name of another.

#include <optional>
#include <string>
#include <vector>

#include "workload/workload.h"

namespace commsim {

struct ChakraWriteResult {
  std::vector<std::string> rank_files;     // <prefix>.0.et, <prefix>.1.et, ...
  std::optional<std::string> groups_file;  // <prefix>.comm_groups.json, when there are groups
};

/// The name of rank r's file, and of the group file.
std::string chakra_rank_path(const std::string& prefix, Rank rank);
std::string chakra_groups_path(const std::string& prefix);

/// The bytes of rank r's file.
std::string serialize_chakra_rank(const Workload& workload, Rank rank);
/// The group file's JSON, one group per line, in the workload's order.
std::string comm_groups_json(const Workload& workload);

/// Writes every rank's file and the group file. Checks everything before writing anything;
/// refuses to leave a `<prefix>.<N>.et` for N = rank count behind (it would be read as one
/// more rank). Throws InputError naming the file on a write error, and then removes every
/// file it wrote (base/output_file.h).
ChakraWriteResult write_chakra_trace(const Workload& workload, const std::string& prefix);

}  // namespace commsim
