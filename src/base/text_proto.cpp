#include "base/text_proto.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <set>
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

}  // namespace

void parse_json_proto(const std::string& json, google::protobuf::Message& message,
                      const std::string& origin, const std::string& problem) {
  const auto status = google::protobuf::util::JsonStringToMessage(json, &message);
  if (!status.ok()) {
    throw InputError(origin + ": " + problem + ": " + std::string(status.message()));
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
