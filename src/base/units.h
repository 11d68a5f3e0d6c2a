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

constexpr TimePs ps_from_ns(std::int64_t ns) { return ns * kPsPerNs; }
constexpr TimePs ps_from_us(std::int64_t us) { return us * kPsPerUs; }
/// Rounds to the nearest picosecond.
TimePs ps_from_seconds(double seconds);
constexpr double seconds_from_ps(TimePs t) { return static_cast<double>(t) / 1e12; }
constexpr double us_from_ps(TimePs t) { return static_cast<double>(t) / 1e6; }

/// Time for `bytes` to flow at `rate`, rounded to the nearest picosecond (the clock's
/// resolution): bytes / rate * 1e12 ps.
TimePs transfer_time_ps(double bytes, BandwidthBps rate);

constexpr double gb_per_s(BandwidthBps rate) { return rate / kBytesPerGB; }

// Parsers. `what` names the source of the text (an option or a file field) and starts
// the message of the InputError thrown on bad text.

/// "4096", "1K", "64M", "1G" (binary), "1KB", "1MB", "1GB" (decimal), "2KiB"; decimals
/// are allowed when they give a whole number of bytes ("1.5K").
Bytes parse_size(std::string_view text, std::string_view what);
/// "50GB/s", "50GiB/s", "400Gbps", "400Gb/s", "12.5MB/s"; must be positive and finite.
BandwidthBps parse_bandwidth(std::string_view text, std::string_view what);
/// "500ns", "2us", "0.5ms", "1s", "0"; must be finite and not negative.
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

}  // namespace commsim
