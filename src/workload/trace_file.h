#pragma once
// commsim's own trace format (proto/workload.proto): read and written as binary protobuf, or
// as protobuf text format when the file name ends in ".textproto" or ".pbtxt" (so that a
// person can write a small trace by hand). Errors name the file, the rank and the node, and
// for text syntax errors the line.

#include <string>
#include <string_view>

#include "workload/workload.h"

namespace commsim {

enum class TraceEncoding { kBinary, kText };

/// kText for names ending in ".textproto" or ".pbtxt", kBinary for anything else.
TraceEncoding trace_encoding_for(std::string_view path);

/// Reads and validates (validate_workload) a trace file.
Workload load_trace_file(const std::string& path);
/// The same from bytes in memory; `origin` names them in messages (a file path).
Workload parse_trace(std::string_view bytes, TraceEncoding encoding, const std::string& origin);

/// Writes `workload` in the encoding its file name asks for (trace_encoding_for). Throws
/// InputError when the file cannot be written or the workload cannot be expressed in the
/// format (a send or receive without a peer); a failed write removes the partial file.
void write_trace_file(const Workload& workload, const std::string& path);
/// The bytes write_trace_file writes; reading them back gives an equal workload.
std::string serialize_trace(const Workload& workload, TraceEncoding encoding);

}  // namespace commsim
