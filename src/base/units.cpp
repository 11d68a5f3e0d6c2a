#include "base/units.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

struct Quantity {
  double value;
  std::string_view unit;
};

std::string quoted(std::string_view text) {
  std::string q(1, '\'');
  q.append(text).push_back('\'');
  return q;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "12.5GB/s" into 12.5 and "GB/s". The number is parsed with std::from_chars, so
// the result does not depend on the locale.
Quantity split_quantity(std::string_view text, std::string_view what,
                        std::string_view expected) {
  text = trim(text);
  double value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (!text.empty() && text.front() == '+') ++begin;
  auto [stop, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || !std::isfinite(value)) {
    throw InputError(std::string(what) + ": cannot parse " + quoted(text) + " (expected " +
                     std::string(expected) + ")");
  }
  return {value, trim(std::string_view(stop, static_cast<std::size_t>(end - stop)))};
}

template <std::size_t N>
std::optional<double> lookup(const std::array<std::pair<std::string_view, double>, N>& table,
                             std::string_view unit) {
  for (const auto& [name, factor] : table) {
    if (name == unit) return factor;
  }
  return std::nullopt;
}

constexpr double kKi = 1024.0;
constexpr std::array<std::pair<std::string_view, double>, 16> kSizeUnits{{
    {"", 1.0},
    {"B", 1.0},
    {"K", kKi},
    {"M", kKi * kKi},
    {"G", kKi * kKi * kKi},
    {"T", kKi * kKi * kKi * kKi},
    {"KiB", kKi},
    {"MiB", kKi * kKi},
    {"GiB", kKi * kKi * kKi},
    {"TiB", kKi * kKi * kKi * kKi},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"k", kKi},
    {"kB", 1e3},
}};

constexpr std::array<std::pair<std::string_view, double>, 16> kBandwidthUnits{{
    {"B/s", 1.0},
    {"KB/s", 1e3},
    {"MB/s", 1e6},
    {"GB/s", 1e9},
    {"TB/s", 1e12},
    {"KiB/s", kKi},
    {"MiB/s", kKi * kKi},
    {"GiB/s", kKi * kKi * kKi},
    {"TiB/s", kKi * kKi * kKi * kKi},
    {"bps", 1.0 / 8},
    {"Kbps", 1e3 / 8},
    {"Mbps", 1e6 / 8},
    {"Gbps", 1e9 / 8},
    {"Tbps", 1e12 / 8},
    {"Gb/s", 1e9 / 8},
    {"Tb/s", 1e12 / 8},
}};

constexpr std::array<std::pair<std::string_view, double>, 6> kTimeUnitsPs{{
    {"ps", 1.0},
    {"ns", 1e3},
    {"us", 1e6},
    {"ms", 1e9},
    {"s", 1e12},
    {"sec", 1e12},
}};

constexpr std::string_view kSizeHelp =
    "a size such as 4096, 1K, 64M, 1G (powers of 2) or 1KB, 1MB, 1GB (powers of 10)";
constexpr std::string_view kBandwidthHelp =
    "a bandwidth such as 50GB/s (1e9 B/s), 50GiB/s (2^30 B/s) or 400Gbps";
constexpr std::string_view kTimeHelp = "a time such as 500ns, 2us, 1.5ms or 0";

}  // namespace

namespace {

[[noreturn]] void time_out_of_range(std::string_view what, const std::string& value) {
  throw InputError(std::string(what) + ": " + value +
                   " is beyond the simulator's range of 100 days (8.64e18 ps)");
}

}  // namespace

TimePs ps_from_seconds(double seconds, std::string_view what) {
  const double ps = std::round(seconds * 1e12);
  if (!(ps >= 0))
    throw InputError(std::string(what) + ": time " + format_number(seconds) + " s is negative or not a number");
  if (ps > static_cast<double>(kMaxTimePs)) time_out_of_range(what, format_number(seconds) + " s");
  return static_cast<TimePs>(ps);
}

void transfer_time_failed(double bytes, BandwidthBps rate) {
  COMMSIM_CHECK(rate > 0 && bytes >= 0, "transfer of " + format_number(bytes) + " B at rate " + format_number(rate));
  time_out_of_range("transfer time", format_number(bytes) + " B at " + format_bandwidth(rate));
}

void add_times_failed(TimePs a, TimePs b, std::string_view what) {
  COMMSIM_CHECK(a >= 0 && b >= 0, "adding negative times");
  time_out_of_range(what, std::to_string(a) + " ps + " + std::to_string(b) + " ps");
}

TimePs multiply_time(TimePs t, std::uint64_t count, std::string_view what) {
  COMMSIM_CHECK(t >= 0, "multiplying a negative time");
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(t), count, &product) ||
      product > static_cast<std::uint64_t>(kMaxTimePs)) {
    time_out_of_range(what, std::to_string(count) + " x " + std::to_string(t) + " ps");
  }
  return static_cast<TimePs>(product);
}

Bytes checked_size(std::uint64_t value, std::string_view what) {
  if (value > kMaxBytes) {
    throw InputError(std::string(what) + ": " + std::to_string(value) +
                     " B is beyond the simulator's range of 2^62 B");
  }
  return value;
}

Bytes multiply_sizes(Bytes a, Bytes b, std::string_view what) {
  Bytes product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > kMaxBytes) {
    throw InputError(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) +
                     " B is beyond the simulator's range of 2^62 B");
  }
  return product;
}

BandwidthBps checked_bandwidth(BandwidthBps rate, std::string_view what) {
  if (!bandwidth_in_range(rate)) {
    throw InputError(std::string(what) + ": bandwidth " + format_number(rate) +
                     " B/s is outside the simulator's range of 1 B/s to 1e18 B/s");
  }
  return rate;
}

Bytes parse_size(std::string_view text, std::string_view what) {
  const Quantity q = split_quantity(text, what, kSizeHelp);
  const auto factor = lookup(kSizeUnits, q.unit);
  if (!factor) {
    throw InputError(std::string(what) + ": unknown size unit in " + quoted(trim(text)) +
                     " (expected " + std::string(kSizeHelp) + ")");
  }
  const double bytes = q.value * *factor;
  if (bytes < 0 || bytes != std::floor(bytes)) {
    throw InputError(std::string(what) + ": " + quoted(trim(text)) +
                     " is not a whole, non-negative number of bytes");
  }
  if (bytes > static_cast<double>(kMaxBytes)) {
    throw InputError(std::string(what) + ": " + quoted(trim(text)) +
                     " is beyond the simulator's range of 2^62 B");
  }
  return static_cast<Bytes>(bytes);
}

BandwidthBps parse_bandwidth(std::string_view text, std::string_view what) {
  const Quantity q = split_quantity(text, what, kBandwidthHelp);
  const auto factor = lookup(kBandwidthUnits, q.unit);
  if (!factor) {
    throw InputError(std::string(what) + ": " +
                     (q.unit.empty() ? "bandwidth needs a unit: " : "unknown bandwidth unit in ") +
                     quoted(trim(text)) + " (expected " + std::string(kBandwidthHelp) + ")");
  }
  const double rate = q.value * *factor;
  if (!(rate > 0)) {
    throw InputError(std::string(what) + ": bandwidth must be positive, got " +
                     quoted(trim(text)));
  }
  return checked_bandwidth(rate, std::string(what) + " " + quoted(trim(text)));
}

double parse_seconds(std::string_view text, std::string_view what) {
  const Quantity q = split_quantity(text, what, kTimeHelp);
  std::optional<double> factor = lookup(kTimeUnitsPs, q.unit);
  if (q.unit.empty() && q.value == 0) factor = 1.0;
  if (!factor) {
    throw InputError(std::string(what) + ": " +
                     (q.unit.empty() ? "time needs a unit: " : "unknown time unit in ") +
                     quoted(trim(text)) + " (expected " + std::string(kTimeHelp) + ")");
  }
  const double ps = q.value * *factor;
  if (ps < 0) {
    throw InputError(std::string(what) + ": time must not be negative, got " +
                     quoted(trim(text)));
  }
  if (ps > static_cast<double>(kMaxTimePs)) {
    throw InputError(std::string(what) + ": time " + quoted(trim(text)) +
                     " is beyond the simulator's range of 100 days");
  }
  return ps / 1e12;
}

TimePs parse_time(std::string_view text, std::string_view what) {
  return ps_from_seconds(parse_seconds(text, what));
}

std::uint64_t parse_count(std::string_view text, std::string_view what, std::uint64_t min,
                          std::uint64_t max) {
  const std::string_view t = trim(text);
  std::uint64_t value = 0;
  auto [stop, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || stop != t.data() + t.size()) {
    throw InputError(std::string(what) + ": expected a whole number, got " + quoted(t));
  }
  if (value < min || value > max) {
    throw InputError(std::string(what) + ": " + quoted(t) + " is out of range [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return value;
}

double parse_real(std::string_view text, std::string_view what) {
  const Quantity q = split_quantity(text, what, "a number");
  if (!q.unit.empty()) {
    throw InputError(std::string(what) + ": expected a number, got " + quoted(trim(text)));
  }
  return q.value;
}

std::string format_size(Bytes bytes) {
  constexpr std::array<std::pair<const char*, Bytes>, 4> kUnits{{
      {"T", Bytes{1} << 40}, {"G", Bytes{1} << 30}, {"M", Bytes{1} << 20}, {"K", Bytes{1} << 10}}};
  for (const auto& [suffix, unit] : kUnits) {
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + suffix;
  }
  return std::to_string(bytes);
}

namespace {
// Up to `digits` significant decimals, trailing zeros dropped: 450, 46.6, 0.25.
std::string compact(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}
}  // namespace

std::string format_bandwidth(BandwidthBps rate) {
  if (rate >= 1e12) return compact(rate / 1e12) + " TB/s";
  if (rate >= 1e9) return compact(rate / 1e9) + " GB/s";
  if (rate >= 1e6) return compact(rate / 1e6) + " MB/s";
  if (rate >= 1e3) return compact(rate / 1e3) + " KB/s";
  return compact(rate) + " B/s";
}

std::string format_time(TimePs t) {
  const double ps = static_cast<double>(t);
  if (t >= kPsPerSecond) return compact(ps / 1e12) + " s";
  if (t >= kPsPerMs) return compact(ps / 1e9) + " ms";
  if (t >= kPsPerUs) return compact(ps / 1e6) + " us";
  if (t >= kPsPerNs) return compact(ps / 1e3) + " ns";
  return std::to_string(t) + " ps";
}

std::string format_number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace commsim
