#include "workload/trace_quantities.h"

#include <array>
#include <charconv>
#include <limits>
#include <optional>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

// Largest first, so that the formatter picks the largest exact unit.
constexpr std::array<std::pair<std::string_view, TimePs>, 5> kDurationUnits{{
    {"s", kPsPerSecond},
    {"ms", kPsPerMs},
    {"us", kPsPerUs},
    {"ns", kPsPerNs},
    {"ps", 1},
}};

struct WholeNumber {
  std::uint64_t value;
  std::string_view unit;
};

// "150us" -> {150, "us"}; nothing when the text does not start with digits or the number
// does not fit in 64 bits.
std::optional<WholeNumber> split_whole_number(std::string_view text) {
  std::uint64_t value = 0;
  const auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return WholeNumber{value, text.substr(static_cast<std::size_t>(stop - text.data()))};
}

}  // namespace

TimePs parse_trace_duration(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(std::string(what) + " is missing");
  if (const auto whole = split_whole_number(text)) {
    for (const auto& [unit, ps] : kDurationUnits) {
      if (whole->unit != unit) continue;
      if (whole->value > static_cast<std::uint64_t>(kMaxTimePs / ps)) {
        throw InputError(std::string(what) + ": time '" + std::string(text) +
                         "' is beyond the simulator's range of 100 days");
      }
      return static_cast<TimePs>(whole->value) * ps;
    }
  }
  return parse_time(text, what);
}

Bytes parse_trace_size(std::string_view text, std::string_view what) {
  if (text.empty()) throw InputError(std::string(what) + " is missing");
  if (const auto whole = split_whole_number(text); whole && whole->unit.empty()) {
    return checked_size(whole->value, what);
  }
  return parse_size(text, what);
}

std::string format_trace_duration(TimePs duration_ps) {
  if (duration_ps == 0) return "0";
  for (const auto& [unit, ps] : kDurationUnits) {
    if (duration_ps % ps == 0) return std::to_string(duration_ps / ps) + std::string(unit);
  }
  return std::to_string(duration_ps) + "ps";  // not reached: every value is whole ps
}

std::string format_trace_size(Bytes bytes) { return std::to_string(bytes); }

}  // namespace commsim
