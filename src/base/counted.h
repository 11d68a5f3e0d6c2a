#pragma once
// A count with its noun, singular for one: "1 GPU", "8 GPUs", "0 rows".

#include <cstdint>
#include <string>
#include <string_view>

namespace commsim {

inline std::string counted(std::uint64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

}  // namespace commsim
