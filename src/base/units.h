#pragma once
// Units of the model (DESIGN.md section 3, "Time and units").
//
// Time is an integer count of picoseconds so that simultaneous events are exactly
// simultaneous; sizes are bytes; bandwidth is bytes per second. User-facing text follows
// the field's conventions:
//   sizes      1K 1M 1G 1T = 2^10.. (binary), 1KB 1MB 1GB 1TB = 10^3.. (decimal), 1KiB..
//   bandwidth  GB/s = 1e9 B/s (as nccl-tests prints), GiB/s = 2^30 B/s, Gbps = 1e9 bit/s
//   time       ps ns us ms s
// Output times are in microseconds and bandwidths in GB/s (1e9 B/s), as nccl-tests prints.
//
// The range of the model. Every quantity a user gives is checked against it when it is read,
// and every product or sum of quantities that the simulator forms is checked where it is
// formed, so that no int64 can overflow and no rate can be infinite or denormal:
//   times       0 .. 100 days (8.64e18 ps, below the int64 limit of 9.22e18 ps), and so
//               is every simulated instant: a run that would pass it stops with an error
//   sizes       0 .. 2^62 B (4 EiB)
//   bandwidths  1 B/s .. 1e18 B/s (1 EB/s), finite

#include <cstdint>
#include <string>
#include <string_view>

namespace commsim {

/// Simulated time, picoseconds.
using TimePs = std::int64_t;
/// Sizes of messages and buffers, bytes.
using Bytes = std::uint64_t;
/// Bandwidth, bytes per second.
using BandwidthBps = double;

inline constexpr TimePs kPsPerNs = 1'000;
inline constexpr TimePs kPsPerUs = 1'000'000;
inline constexpr TimePs kPsPerMs = 1'000'000'000;
inline constexpr TimePs kPsPerSecond = 1'000'000'000'000;
inline constexpr double kBytesPerGB = 1e9;

/// The largest time, and the latest simulated instant: 100 days.
inline constexpr TimePs kMaxTimePs = 100 * 24 * 3600 * kPsPerSecond;
/// The largest size of a message, buffer or trace node: 2^62 B.
inline constexpr Bytes kMaxBytes = Bytes{1} << 62;
/// The range of a bandwidth, bytes per second.
inline constexpr BandwidthBps kMinBandwidthBps = 1.0;
inline constexpr BandwidthBps kMaxBandwidthBps = 1e18;
/// Whether `rate` is in that range (false for NaN).
constexpr bool bandwidth_in_range(BandwidthBps rate) { return rate >= kMinBandwidthBps && rate <= kMaxBandwidthBps; }

constexpr TimePs ps_from_ns(std::int64_t ns) { return ns * kPsPerNs; }
constexpr TimePs ps_from_us(std::int64_t us) { return us * kPsPerUs; }
/// Rounds to the nearest picosecond. Throws InputError when the time is negative, not
/// finite or beyond kMaxTimePs; `what` says what the time is.
TimePs ps_from_seconds(double seconds, std::string_view what = "time");
constexpr double seconds_from_ps(TimePs t) { return static_cast<double>(t) / 1e12; }
constexpr double us_from_ps(TimePs t) { return static_cast<double>(t) / 1e6; }

/// std::round(x) (halves away from zero) for x >= 0, without a library call: below 2^52 the
/// integer part and x minus it are exact in a double; from 2^52 on, x is an integer.
inline double round_nonnegative(double x) {
  if (!(x < 0x1p52)) return x;
  const auto whole = static_cast<double>(static_cast<std::int64_t>(x));
  return x - whole >= 0.5 ? whole + 1 : whole;
}

/// Throws what transfer_time_ps throws for `bytes` at `rate`.
[[noreturn]] void transfer_time_failed(double bytes, BandwidthBps rate);
/// Time for `bytes` to flow at `rate`, rounded to the nearest picosecond (the clock's
/// resolution): bytes / rate * 1e12 ps. Throws InputError beyond kMaxTimePs. Inline: every
/// rate change of a flow asks it.
inline TimePs transfer_time_ps(double bytes, BandwidthBps rate) {
  const double ps = round_nonnegative(bytes / rate * 1e12);
  if (!(rate > 0 && bytes >= 0 && ps <= static_cast<double>(kMaxTimePs))) [[unlikely]] {
    transfer_time_failed(bytes, rate);
  }
  return static_cast<TimePs>(ps);
}

// Checked arithmetic on the model's quantities: each throws InputError naming `what` and
// the values when the result leaves the range above.

/// Throws what add_times throws for a + b.
[[noreturn]] void add_times_failed(TimePs a, TimePs b, std::string_view what);
/// a + b, both in [0, kMaxTimePs]. Inline: every message adds its route's latencies.
inline TimePs add_times(TimePs a, TimePs b, std::string_view what) {
  // Both are below 2^63, so their sum fits in a uint64.
  const std::uint64_t sum = static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b);
  if (a < 0 || b < 0 || sum > static_cast<std::uint64_t>(kMaxTimePs)) [[unlikely]] add_times_failed(a, b, what);
  return static_cast<TimePs>(sum);
}
/// t * count.
TimePs multiply_time(TimePs t, std::uint64_t count, std::string_view what);
/// a * b, at most kMaxBytes.
Bytes multiply_sizes(Bytes a, Bytes b, std::string_view what);
/// `value` bytes, at most kMaxBytes.
Bytes checked_size(std::uint64_t value, std::string_view what);
/// `rate` in [kMinBandwidthBps, kMaxBandwidthBps].
BandwidthBps checked_bandwidth(BandwidthBps rate, std::string_view what);

constexpr double gb_per_s(BandwidthBps rate) { return rate / kBytesPerGB; }
/// `bytes` moved in `seconds`, GB/s (nccl-tests' algbw); 0 for no time.
constexpr double rate_GBps_in_seconds(Bytes bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / kBytesPerGB : 0.0;
}
/// The same in `t`.
constexpr double rate_GBps(Bytes bytes, TimePs t) { return rate_GBps_in_seconds(bytes, seconds_from_ps(t)); }

// Parsers. `what` names the source of the text (an option or a file field) and starts
// the message of the InputError thrown on bad text.

/// "4096", "1K", "64M", "1G" (binary), "1KB", "1MB", "1GB" (decimal), "2KiB"; decimals
/// are allowed when they give a whole number of bytes ("1.5K"); at most kMaxBytes.
Bytes parse_size(std::string_view text, std::string_view what);
/// "50GB/s", "50GiB/s", "400Gbps", "400Gb/s", "12.5MB/s"; in [1 B/s, 1e18 B/s].
BandwidthBps parse_bandwidth(std::string_view text, std::string_view what);
/// "500ns", "2us", "0.5ms", "1s", "0"; in [0, 100 days].
TimePs parse_time(std::string_view text, std::string_view what);
/// As parse_time, in seconds and not rounded to the picosecond: "0.25ps" is 2.5e-13.
double parse_seconds(std::string_view text, std::string_view what);
/// A whole number in [min, max]: "8".
std::uint64_t parse_count(std::string_view text, std::string_view what, std::uint64_t min,
                          std::uint64_t max);
/// A finite real number: "0.25".
double parse_real(std::string_view text, std::string_view what);

// Formatters for human-readable output (fixed, locale-independent).

/// "1K", "64M", "1G" for exact binary multiples, else bytes: "1000".
std::string format_size(Bytes bytes);
/// "450 GB/s", "46.6 GB/s", "12.5 MB/s".
std::string format_bandwidth(BandwidthBps rate);
/// "500 ns", "1.5 us", "2 ms".
std::string format_time(TimePs t);
/// A number in at most 6 significant digits, as short as it goes: "10", "0.25", "1.5e+10".
std::string format_number(double value);

}  // namespace commsim
