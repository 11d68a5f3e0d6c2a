#include "workload/chakra_attributes.h"

#include <limits>

#include "base/error.h"

namespace commsim::chakra {
namespace {

using ChakraProtoMsg::AttributeProto;

// "string_val": the name of the oneof member the attribute holds, for messages.
std::string value_type_name(const AttributeProto& attr) {
  if (attr.value_case() == AttributeProto::VALUE_NOT_SET) return "no value";
  const auto* field = AttributeProto::descriptor()->FindFieldByNumber(attr.value_case());
  return field ? field->name() : "value field " + std::to_string(attr.value_case());
}

[[noreturn]] void wrong_type(const AttributeProto& attr, const std::string& where,
                             std::string_view expected) {
  throw InputError(where + ": attribute " + attr.name() + " holds " + value_type_name(attr) +
                   ", expected " + std::string(expected));
}

std::int64_t checked_unsigned(std::uint64_t value, const AttributeProto& attr,
                              const std::string& where) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw InputError(where + ": attribute " + attr.name() + " = " + std::to_string(value) +
                     " is too large");
  }
  return static_cast<std::int64_t>(value);
}

}  // namespace

const AttributeProto* find_attribute(const ChakraProtoMsg::Node& node, std::string_view name) {
  for (const AttributeProto& attr : node.attr()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

std::optional<std::int64_t> integer_attribute(const ChakraProtoMsg::Node& node,
                                              std::string_view name, const std::string& where) {
  const AttributeProto* attr = find_attribute(node, name);
  if (!attr) return std::nullopt;
  switch (attr->value_case()) {
    case AttributeProto::kInt32Val: return attr->int32_val();
    case AttributeProto::kInt64Val: return attr->int64_val();
    case AttributeProto::kUint32Val: return attr->uint32_val();
    case AttributeProto::kUint64Val: return checked_unsigned(attr->uint64_val(), *attr, where);
    case AttributeProto::kSint32Val: return attr->sint32_val();
    case AttributeProto::kSint64Val: return attr->sint64_val();
    case AttributeProto::kFixed32Val: return attr->fixed32_val();
    case AttributeProto::kFixed64Val: return checked_unsigned(attr->fixed64_val(), *attr, where);
    case AttributeProto::kSfixed32Val: return attr->sfixed32_val();
    case AttributeProto::kSfixed64Val: return attr->sfixed64_val();
    default: wrong_type(*attr, where, "an integer");
  }
}

std::optional<std::string> string_attribute(const ChakraProtoMsg::Node& node, std::string_view name,
                                            const std::string& where) {
  const AttributeProto* attr = find_attribute(node, name);
  if (!attr) return std::nullopt;
  if (attr->value_case() == AttributeProto::kStringVal) return attr->string_val();
  try {
    return std::to_string(*integer_attribute(node, name, where));
  } catch (const InputError&) {
    wrong_type(*attr, where, "a string");
  }
}

std::optional<std::vector<bool>> bool_list_attribute(const ChakraProtoMsg::Node& node,
                                                     std::string_view name,
                                                     const std::string& where) {
  const AttributeProto* attr = find_attribute(node, name);
  if (!attr) return std::nullopt;
  if (attr->value_case() == AttributeProto::kBoolVal) return std::vector<bool>{attr->bool_val()};
  if (attr->value_case() != AttributeProto::kBoolList) wrong_type(*attr, where, "a bool list");
  return std::vector<bool>(attr->bool_list().values().begin(), attr->bool_list().values().end());
}

}  // namespace commsim::chakra
