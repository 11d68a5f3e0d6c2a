#pragma once
// Loads a topology spec file (proto/topology.proto): protobuf text format, or JSON when
// the file name ends in ".json". Errors name the file, and for syntax errors the line.

#include <string>

#include "topology/topology.h"

namespace commsim {

Topology load_topology_file(const std::string& path);
/// Parses spec text; `origin` names it in error messages (a file path).
Topology parse_topology_spec(const std::string& text, const std::string& origin, bool json);

}  // namespace commsim
