#include "workload/comm_groups_json.h"

#include <google/protobuf/struct.pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "base/error.h"
#include "base/input_file.h"
#include "base/text_proto.h"

namespace commsim {
namespace {

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

Rank group_rank(const google::protobuf::Value& value, const std::string& where) {
  if (value.kind_case() != google::protobuf::Value::kNumberValue) {
    throw InputError(where + ": ranks must be numbers");
  }
  const double rank = value.number_value();
  if (!(rank >= 0) || rank != std::floor(rank) ||
      rank > static_cast<double>(std::numeric_limits<Rank>::max())) {
    throw InputError(where + ": rank " + number_text(rank) + " is not a whole number >= 0");
  }
  return static_cast<Rank>(rank);
}

}  // namespace

CommGroupFile parse_comm_groups_json(std::string_view json, const std::string& origin) {
  google::protobuf::Struct object;
  parse_json_proto(std::string(json), object, origin,
                   "not a JSON object of communicator groups {\"name\": [ranks]}");
  CommGroupFile file{origin, {}};
  for (const auto& [name, value] : object.fields()) {
    const std::string where = origin + ": group '" + name + "'";
    if (name.empty()) throw InputError(origin + ": a group has an empty name");
    if (value.kind_case() != google::protobuf::Value::kListValue) {
      throw InputError(where + ": expected a list of ranks");
    }
    CommGroup group{name, {}};
    for (const google::protobuf::Value& rank : value.list_value().values()) {
      group.ranks.push_back(group_rank(rank, where));
    }
    file.groups.push_back(std::move(group));
  }
  // protobuf's Map iterates in no fixed order: sort so that group indices are deterministic.
  std::sort(file.groups.begin(), file.groups.end(),
            [](const CommGroup& a, const CommGroup& b) { return a.name < b.name; });
  return file;
}

CommGroupFile load_comm_groups_file(const std::string& path) {
  return parse_comm_groups_json(read_input_file(path, "communicator group file"), path);
}

}  // namespace commsim
