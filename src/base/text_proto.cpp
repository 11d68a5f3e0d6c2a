#include "base/text_proto.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

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

}  // namespace

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
