#pragma once
// Splitting a line of text into words, for the readers of text formats (nccl-tests logs,
// GPU names).

#include <string_view>
#include <vector>

namespace commsim {

/// The words of `line`, split at runs of spaces and tabs.
std::vector<std::string_view> whitespace_fields(std::string_view line);

}  // namespace commsim
