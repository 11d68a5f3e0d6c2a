#pragma once
// Names in a line of text: "allreduce, allgather, sendrecv".

#include <string>
#include <string_view>

namespace commsim {

/// The items of `items` (anything a std::string_view can be made of) with `separator` between
/// them. Any range, views too (a filter_view is iterated as given, not as const).
template <typename Items>
std::string joined(Items&& items, std::string_view separator = ", ") {
  std::string text;
  for (auto&& item : items) {
    if (!text.empty()) text += separator;
    text += std::string_view(item);
  }
  return text;
}

}  // namespace commsim
