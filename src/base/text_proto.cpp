#include "base/text_proto.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <memory>
#include <set>
#include <vector>
#include <sstream>

#include "base/error.h"

namespace commsim {
namespace {

// Keeps the first syntax error the text-format parser reports (it counts lines from 0).
class FirstSyntaxError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (message_.empty()) {
      message_ = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) +
                 ": " + message;
    }
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// Boost.PropertyTree keeps every key of an object, repeats included (array elements have
// empty keys), so walking its tree finds the repeats protobuf's parser drops.
void check_unique_keys(const boost::property_tree::ptree& tree, const std::string& path,
                       const std::string& origin) {
  std::set<std::string> seen;
  for (const auto& [key, child] : tree) {
    if (!key.empty() && !seen.insert(key).second) {
      throw InputError(origin + ": key '" + key + "' is given twice in " +
                       (path.empty() ? "the top-level object" : "'" + path + "'"));
    }
    const std::string child_path = key.empty() ? path + "[]" : path.empty() ? key : path + "." + key;
    check_unique_keys(child, child_path, origin);
  }
}

namespace pb = google::protobuf;

// Element `index` of `field` (any index for a singular field) on one line: a copy of the
// message holding that element alone, printed in single-line mode.
std::string field_line(const pb::Message& message, const pb::FieldDescriptor* field, int index) {
  std::unique_ptr<pb::Message> single(message.New());
  single->CopyFrom(message);
  const pb::Reflection* r = single->GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(*single, &fields);
  for (const auto* other : fields) {
    if (other != field) r->ClearField(single.get(), other);
  }
  if (field->is_repeated()) {
    r->SwapElements(single.get(), field, 0, index);
    while (r->FieldSize(*single, field) > 1) r->RemoveLast(single.get(), field);
  }
  pb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string line;
  printer.PrintToString(*single, &line);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

bool holds_repeated_messages(const pb::FieldDescriptor* field) {
  if (field->is_repeated() || field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) return false;
  const pb::Descriptor* type = field->message_type();
  for (int i = 0; i < type->field_count(); ++i) {
    const pb::FieldDescriptor* f = type->field(i);
    if (f->is_repeated() && f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) return true;
  }
  return false;
}

// Every element of every field set in `message`, one line each, indented.
void print_lines(const pb::Message& message, const std::string& indent, std::string& out) {
  const pb::Reflection* r = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const auto* field : fields) {
    if (holds_repeated_messages(field)) {
      out += indent + field->name() + " {\n";
      print_lines(r->GetMessage(message, field), indent + "  ", out);
      out += indent + "}\n";
      continue;
    }
    const int count = field->is_repeated() ? r->FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) out += indent + field_line(message, field, i) + "\n";
  }
}

}  // namespace

std::string print_text_proto(const google::protobuf::Message& message) {
  std::string out;
  print_lines(message, "", out);
  return out;
}

void parse_json_proto(const std::string& json, google::protobuf::Message& message, const std::string& origin,
                      const std::string& problem, UnknownJsonKeys unknown) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = unknown == UnknownJsonKeys::kIgnore;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &message, options);
  if (!status.ok()) {
    // The parser's message goes on with the JSON around the error and a caret, on lines of
    // their own: the first line says what is wrong, and an error is one line.
    const std::string said(status.message());
    throw InputError(origin + ": " + problem + ": " + said.substr(0, said.find('\n')));
  }
  boost::property_tree::ptree tree;
  std::istringstream in(json);
  try {
    boost::property_tree::read_json(in, tree);
  } catch (const boost::property_tree::json_parser_error&) {
    return;  // valid for protobuf (which alone decides); nothing more to check
  }
  check_unique_keys(tree, "", origin);
}

void parse_text_proto(const std::string& text, google::protobuf::Message& message,
                      const std::string& origin) {
  google::protobuf::TextFormat::Parser parser;
  FirstSyntaxError error;
  parser.RecordErrorsTo(&error);
  if (!parser.ParseFromString(text, &message)) {
    throw InputError(origin + ": " +
                     (error.message().empty() ? std::string("not protobuf text format") : error.message()));
  }
}

}  // namespace commsim
