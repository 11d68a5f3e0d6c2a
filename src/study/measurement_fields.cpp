#include "study/measurement_fields.h"

#include <charconv>
#include <limits>

#include "base/error.h"

namespace commsim {
namespace {

std::string quoted(std::string_view text) {
  std::string q(1, '\'');
  q.append(text).push_back('\'');
  return q;
}

double parse_nonnegative(std::string_view text, const std::string& what) {
  const double value = parse_real(text, what);
  if (value < 0) throw InputError(what + ": " + quoted(text) + " is negative");
  return value;
}

}  // namespace

Bytes parse_size_field(std::string_view text, const std::string& where) {
  return parse_count(text, where + ": size (bytes)", 0, kMaxBytes);
}

std::uint64_t parse_count_field(std::string_view text, const std::string& where) {
  return parse_count(text, where + ": count (elements)", 0,
                     std::numeric_limits<std::uint64_t>::max());
}

int parse_root_field(std::string_view text, const std::string& where) {
  int root = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), root);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || root < -1) {
    throw InputError(where + ": root: expected -1 (no root) or a rank, got " + quoted(text));
  }
  return root;
}

std::size_t parse_rank_count_field(std::string_view text, std::string_view field,
                                   const std::string& where) {
  return parse_count(text, where + ": " + std::string(field), 0,
                     std::numeric_limits<std::uint32_t>::max());
}

double parse_time_field(std::string_view text, std::string_view placement, const std::string& where) {
  const std::string what = where + ": " + std::string(placement) + " time (us)";
  const double time_us = parse_real(text, what);
  if (!(time_us > 0)) throw InputError(what + ": " + quoted(text) + " is not positive");
  return time_us;
}

double parse_bandwidth_field(std::string_view text, std::string_view placement, std::string_view name,
                             const std::string& where) {
  return parse_nonnegative(text, where + ": " + std::string(placement) + " " + std::string(name) + " (GB/s)");
}

MeasuredTime checked_measured_time(double time_us, double algbw_GBps, double busbw_GBps, std::string_view placement,
                                   const std::string& where) {
  const std::string what = where + ": " + std::string(placement) + " ";
  if (!(time_us > 0)) throw InputError(what + "time (us): " + format_number(time_us) + " is not positive");
  for (const auto& [name, value] : {std::pair{"algbw", algbw_GBps}, std::pair{"busbw", busbw_GBps}}) {
    if (!(value >= 0)) throw InputError(what + name + " (GB/s): " + format_number(value) + " is negative");
  }
  return {time_us, algbw_GBps, busbw_GBps, std::nullopt};
}

MeasuredTime parse_measured_time(std::string_view time_us, std::string_view algbw_GBps, std::string_view busbw_GBps,
                                 std::string_view placement, const std::string& where) {
  MeasuredTime measured;
  measured.time_us = parse_time_field(time_us, placement, where);
  measured.algbw_GBps = parse_bandwidth_field(algbw_GBps, placement, "algbw", where);
  measured.busbw_GBps = parse_bandwidth_field(busbw_GBps, placement, "busbw", where);
  return measured;
}

}  // namespace commsim
