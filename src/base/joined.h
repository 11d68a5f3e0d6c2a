#pragma once
// Names in a line of text: "allreduce, allgather, sendrecv".

#include <string>
#include <string_view>

namespace commsim {

/// The items of `items` (anything a std::string can be made of) with `separator` between them.
template <typename Items>
std::string joined(const Items& items, std::string_view separator = ", ") {
  std::string text;
  for (const auto& item : items) {
    if (!text.empty()) text += separator;
    text += std::string_view(item);
  }
  return text;
}

}  // namespace commsim
