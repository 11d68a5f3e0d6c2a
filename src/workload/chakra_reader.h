#pragma once
// Reads Chakra execution traces (../shared/CHAKRA.md) into a Workload: one file per rank,
// `<prefix>.<rank>.et`, each a GlobalMetadata followed by Nodes, every message preceded by
// its length as a base-128 varint.
//
// Node types (proto/chakra_et.proto) become:
//   COMP_NODE                      compute for duration_micros
//   COMM_COLL_NODE                 collective: comm_type (ALL_REDUCE, REDUCE, ALL_GATHER,
//                                  BROADCAST, ALL_TO_ALL, REDUCE_SCATTER, BARRIER;
//                                  REDUCE_SCATTER_BLOCK, MPI's equal-block reduce-scatter, is
//                                  ReduceScatter; GATHER and SCATTER are rejected: commsim has
//                                  no collective that moves the same data), comm_size bytes
//                                  (a BARRIER's must be absent or 0), group pg_name when a
//                                  group file is read, else all ranks
//   COMM_SEND_NODE, COMM_RECV_NODE send to comm_dst / receive from comm_src, comm_size bytes
//                                  (else tensor_size, which Chakra's generator writes),
//                                  comm_tag (0 when absent, as in ASTRA-sim). A missing peer
//                                  is kept as unknown; comm_src of a send and comm_dst of a
//                                  receive, when given, must be the file's rank. Replay
//                                  requires a receive's size to equal its send's, except
//                                  that a receive of size 0 takes any send: 0 says the
//                                  trace does not know (see WorkloadNode::bytes).
//   MEM_LOAD_NODE, MEM_STORE_NODE  compute for duration_micros if it is not 0, else skipped
//   METADATA_NODE                  skipped
// Any other type is an error. data_deps and ctrl_deps both become dependencies. A collective
// restricted to some topology dimensions (involved_dim with a false entry) is an error.

#include <optional>
#include <string>
#include <vector>

#include "workload/comm_groups_json.h"
#include "workload/workload.h"

namespace commsim {

/// One rank's file in memory.
struct ChakraFile {
  std::string name;   // named in messages: the file path
  std::string bytes;  // the whole file
};

/// Reads `<prefix>.0.et`, `<prefix>.1.et`, ... up to the first missing rank (rank 0 must
/// exist), and the group file when given; validates the result (validate_workload).
Workload load_chakra_trace(const std::string& prefix,
                           const std::optional<std::string>& comm_groups_path = std::nullopt);

/// A Chakra trace and what a user should be told of its communicator groups.
struct ChakraTrace {
  Workload workload;
  std::optional<std::string> groups_file;  // the group file read, if any
  bool groups_found_beside = false;        // it was not given but found beside the trace
  /// Collectives (over all ranks' files) that name a process group in pg_name yet span
  /// every rank, as no group file was read.
  std::size_t ungrouped_collectives = 0;
};

/// As load_chakra_trace, except that without a group file given it reads
/// `<prefix>.comm_groups.json` (chakra_groups_path, where `commsim generate --format chakra`
/// writes the groups) if that exists. A group file found so that cannot be read or parsed is
/// an InputError naming it, never skipped.
ChakraTrace load_chakra_trace_and_groups(const std::string& prefix,
                                         const std::optional<std::string>& comm_groups_path);

/// The same from files in memory, rank r being files[r]; `name` becomes Workload::name.
Workload parse_chakra_trace(const std::vector<ChakraFile>& files,
                            const std::optional<CommGroupFile>& groups, const std::string& name);

}  // namespace commsim
