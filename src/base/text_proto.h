#pragma once
// Reading protobuf text format (spec files, traces) with errors a person can act on.

#include <string>

#include <google/protobuf/message.h>

namespace commsim {

/// Parses `text` into `message`. Throws InputError "<origin>: line L, column C: <what the
/// parser said>" for the first syntax error (lines and columns counted from 1).
void parse_text_proto(const std::string& text, google::protobuf::Message& message,
                      const std::string& origin);

}  // namespace commsim
