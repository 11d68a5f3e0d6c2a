#pragma once
// Reading a Chakra node's attributes (AttributeProto, ../shared/CHAKRA.md). Attributes are
// looked up by name, the first of that name wins; the value's type varies between producers
// (comm_src is an int32 in one, an int64 or uint64 in another), so integer attributes accept
// every integer type of the value oneof.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/chakra_et.pb.h"

namespace commsim::chakra {

const ChakraProtoMsg::AttributeProto* find_attribute(const ChakraProtoMsg::Node& node,
                                                     std::string_view name);

/// The value of attribute `name` when it holds any integer type, nothing when the node has
/// no such attribute. Throws InputError starting with `where` when it holds another type or a
/// value beyond int64.
std::optional<std::int64_t> integer_attribute(const ChakraProtoMsg::Node& node,
                                              std::string_view name, const std::string& where);

/// A string attribute (an integer one is written in decimal: some producers number their
/// process groups). Nothing when absent; InputError for other types.
std::optional<std::string> string_attribute(const ChakraProtoMsg::Node& node, std::string_view name,
                                            const std::string& where);

/// A bool-list attribute (a single bool is a list of one). Nothing when absent.
std::optional<std::vector<bool>> bool_list_attribute(const ChakraProtoMsg::Node& node,
                                                     std::string_view name,
                                                     const std::string& where);

}  // namespace commsim::chakra
