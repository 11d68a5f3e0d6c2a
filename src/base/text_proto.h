#pragma once
// Reading protobuf text format and protobuf's JSON mapping (spec files, traces, group
// files) with errors a person can act on, and writing text format.

#include <string>

#include <google/protobuf/message.h>

namespace commsim {

/// Parses `text` into `message`. Throws InputError "<origin>: line L, column C: <what the
/// parser said>" for the first syntax error (lines and columns counted from 1).
void parse_text_proto(const std::string& text, google::protobuf::Message& message,
                      const std::string& origin);

/// What a JSON key that names no field of the message is: an error (a spec, where a typo
/// must not pass), or passed over (another tool's report, which holds more than is read).
enum class UnknownJsonKeys { kRefuse, kIgnore };

/// Parses JSON (protobuf's JSON mapping) into `message`. Throws InputError "<origin>:
/// <problem>: <what the parser said>" (the first line of it) on bad JSON, and for a key given twice in one object
/// (which protobuf's parser takes silently, the last one winning) "<origin>: key 'K' is
/// given twice in <path>".
void parse_json_proto(const std::string& json, google::protobuf::Message& message, const std::string& origin,
                      const std::string& problem, UnknownJsonKeys unknown = UnknownJsonKeys::kRefuse);

/// `message` in protobuf text format (TextFormat), laid out as the specs in topologies/ are:
/// one line per field, except that a message field holding repeated messages (a spec's
/// `graph`) opens a block with one line per element.
std::string print_text_proto(const google::protobuf::Message& message);

}  // namespace commsim
