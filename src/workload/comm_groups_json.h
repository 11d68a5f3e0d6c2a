#pragma once
// Communicator groups of a Chakra trace: a JSON object from process-group name to ranks,
// {"<pg_name>": [ranks...]}, the form ../shared/CHAKRA.md gives (a COMM_COLL_NODE names its
// group in its pg_name attribute). Parsed with protobuf's JSON parser into a
// google.protobuf.Struct, not by hand.

#include <string>
#include <string_view>
#include <vector>

#include "workload/workload.h"

namespace commsim {

struct CommGroupFile {
  std::string source;             // the JSON file, for messages
  std::vector<CommGroup> groups;  // sorted by name (the JSON's order is not kept)
};

/// Throws InputError naming `origin` when the text is not such an object, a group name is
/// empty, or a rank is not a whole number in [0, 2^32). Whether the ranks exist in the trace
/// is checked with the trace (validate_workload).
CommGroupFile parse_comm_groups_json(std::string_view json, const std::string& origin);
CommGroupFile load_comm_groups_file(const std::string& path);

}  // namespace commsim
