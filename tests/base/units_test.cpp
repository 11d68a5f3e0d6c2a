#include "base/units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "base/error.h"

namespace commsim {
namespace {

TEST(Units, SizesFollowBinaryAndDecimalConventions) {
  EXPECT_EQ(parse_size("4096", "s"), 4096u);
  EXPECT_EQ(parse_size("1K", "s"), 1024u);
  EXPECT_EQ(parse_size("64M", "s"), 64u << 20);
  EXPECT_EQ(parse_size("1G", "s"), 1u << 30);
  EXPECT_EQ(parse_size("2GiB", "s"), 2ull << 30);
  EXPECT_EQ(parse_size("1KB", "s"), 1000u);
  EXPECT_EQ(parse_size("1MB", "s"), 1000000u);
  EXPECT_EQ(parse_size("1GB", "s"), 1000000000u);
  EXPECT_EQ(parse_size("1.5K", "s"), 1536u);
  EXPECT_EQ(parse_size("0", "s"), 0u);
}

TEST(Units, BadSizesNameTheOptionAndValue) {
  try {
    parse_size("12Q", "--size");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--size"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("12Q"), std::string::npos);
  }
  EXPECT_THROW(parse_size("abc", "s"), InputError);
  EXPECT_THROW(parse_size("-1K", "s"), InputError);
  EXPECT_THROW(parse_size("0.3", "s"), InputError);  // not a whole number of bytes
  EXPECT_THROW(parse_size("", "s"), InputError);
}

TEST(Units, BandwidthUnits) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("50GB/s", "b"), 50e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("50GiB/s", "b"), 50.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(parse_bandwidth("400Gbps", "b"), 50e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("12.5 GB/s", "b"), 12.5e9);
  EXPECT_THROW(parse_bandwidth("0GB/s", "b"), InputError);
  EXPECT_THROW(parse_bandwidth("-5GB/s", "b"), InputError);
  EXPECT_THROW(parse_bandwidth("50", "b"), InputError);  // a unit is required
  EXPECT_THROW(parse_bandwidth("50GB", "b"), InputError);
  EXPECT_THROW(parse_bandwidth("inf GB/s", "b"), InputError);
}

TEST(Units, TimeUnitsInPicoseconds) {
  EXPECT_EQ(parse_time("500ns", "t"), 500'000);
  EXPECT_EQ(parse_time("2us", "t"), 2'000'000);
  EXPECT_EQ(parse_time("1.5ms", "t"), 1'500'000'000);
  EXPECT_EQ(parse_time("1s", "t"), kPsPerSecond);
  EXPECT_EQ(parse_time("0ns", "t"), 0);
  EXPECT_EQ(parse_time("0", "t"), 0);
  EXPECT_THROW(parse_time("5", "t"), InputError);  // a unit is required
  EXPECT_THROW(parse_time("-1us", "t"), InputError);
  EXPECT_THROW(parse_time("1 fortnight", "t"), InputError);
}

TEST(Units, TransferTimeRoundsToThePicosecond) {
  // 1 GiB at 50 GB/s: 2^30 / 5e10 s = 21,474,836,480 ps exactly.
  EXPECT_EQ(transfer_time_ps(1 << 30, 50e9), 21'474'836'480);
  // 1 B at 450 GB/s: 2.22 ps, rounded to 2.
  EXPECT_EQ(transfer_time_ps(1, 450e9), 2);
  // Halves round away from zero, as std::round (not to even): 2.5 ps -> 3, 0.5 ps -> 1.
  EXPECT_EQ(transfer_time_ps(2.5, 1e12), 3);
  EXPECT_EQ(transfer_time_ps(0.5, 1e12), 1);
  EXPECT_EQ(transfer_time_ps(0.5 - 1e-12, 1e12), 0);
  // From 2^52 ps on every double is a whole number of picoseconds.
  EXPECT_EQ(transfer_time_ps(0x1p52 + 2, 1e12), (std::int64_t{1} << 52) + 2);
  EXPECT_EQ(ps_from_seconds(1.5e-6), 1'500'000);
  EXPECT_DOUBLE_EQ(us_from_ps(2'500'000), 2.5);
}

TEST(Units, Counts) {
  EXPECT_EQ(parse_count("8", "--npus", 1, 100), 8u);
  EXPECT_THROW(parse_count("0", "--npus", 1, 100), InputError);
  EXPECT_THROW(parse_count("-3", "--npus", 1, 100), InputError);
  EXPECT_THROW(parse_count("8x", "--npus", 1, 100), InputError);
}

TEST(Units, Formatting) {
  EXPECT_EQ(format_size(1 << 20), "1M");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_bandwidth(450e9), "450 GB/s");
  EXPECT_EQ(format_bandwidth(31.5e9), "31.5 GB/s");
  EXPECT_EQ(format_time(500'000), "500 ns");
  EXPECT_EQ(format_time(1'500'000), "1.5 us");
  EXPECT_EQ(format_time(0), "0 ps");
}

// The documented range (base/units.h): times to 100 days, sizes to 2^62 B, bandwidths from
// 1 B/s to 1e18 B/s. Everything at the edge is accepted, everything past it refused with a
// message that names the option and the value, never an overflow.
std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(UnitsRange, TimesEndAtOneHundredDays) {
  EXPECT_EQ(kMaxTimePs, 8'640'000'000'000'000'000);  // 100 x 86,400 s x 1e12 ps/s
  EXPECT_EQ(parse_time("8640000s", "--latency"), kMaxTimePs);
  EXPECT_EQ(parse_time("100000000000us", "--latency"), 100'000'000'000'000'000);
  EXPECT_NE(error_of([] { parse_time("8640001s", "--latency"); })
                .find("--latency: time '8640001s' is beyond the simulator's range of 100 days"),
            std::string::npos);
  EXPECT_NE(error_of([] { ps_from_seconds(1e300, "x"); }).find("x: 1e+300 s is beyond"), std::string::npos);
  EXPECT_NE(error_of([] { ps_from_seconds(std::nan(""), "x"); }).find("x: time nan s"), std::string::npos);
}

TEST(UnitsRange, CheckedSumsAndProductsOfTimes) {
  EXPECT_EQ(add_times(kMaxTimePs - 5, 5, "t"), kMaxTimePs);
  // Two times of 8e18 ps each fit in int64, their sum does not: refused, not wrapped.
  EXPECT_NE(error_of([] { add_times(8'000'000'000'000'000'000, 8'000'000'000'000'000'000, "route latency"); })
                .find("route latency: 8000000000000000000 ps + 8000000000000000000 ps is beyond"),
            std::string::npos);
  EXPECT_EQ(multiply_time(kPsPerSecond, 8'640'000, "t"), kMaxTimePs);
  EXPECT_THROW(multiply_time(kPsPerSecond, 8'640'001, "t"), InputError);
  EXPECT_THROW(multiply_time(INT64_MAX, UINT64_MAX, "t"), InputError);  // wraps in 64 bits
}

TEST(UnitsRange, SizesEndAtTwoToTheSixtyTwo) {
  EXPECT_EQ(parse_size("4194304T", "--size"), kMaxBytes);  // 2^22 x 2^40
  EXPECT_NE(error_of([] { parse_size("4194305T", "--size"); })
                .find("--size: '4194305T' is beyond the simulator's range of 2^62 B"),
            std::string::npos);
  EXPECT_EQ(multiply_sizes(Bytes{1} << 31, Bytes{1} << 31, "s"), Bytes{1} << 62);
  // 2^32 x 2^32 is 2^64, which wraps to 0 in 64 bits: the wrong answer this once gave.
  EXPECT_NE(error_of([] { multiply_sizes(Bytes{1} << 32, Bytes{1} << 32, "activation"); })
                .find("activation: 4294967296 x 4294967296 B is beyond"),
            std::string::npos);
  EXPECT_EQ(checked_size(kMaxBytes, "s"), kMaxBytes);
  EXPECT_THROW(checked_size(kMaxBytes + 1, "s"), InputError);
}

TEST(UnitsRange, BandwidthsAreFiniteAndInRange) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("1B/s", "b"), 1.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1000000TB/s", "b"), 1e18);
  // 1e300 TB/s is 1e312 B/s: infinite in double.
  EXPECT_NE(error_of([] { parse_bandwidth("1e300TB/s", "--bandwidth"); })
                .find("--bandwidth '1e300TB/s': bandwidth inf B/s is outside the simulator's range"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_bandwidth("1e-300B/s", "--bandwidth"); }).find("1e-300 B/s is outside"),
            std::string::npos);
  EXPECT_THROW(checked_bandwidth(0.5, "b"), InputError);
  EXPECT_THROW(checked_bandwidth(std::nan(""), "b"), InputError);
}

TEST(UnitsRange, TransferTimesBeyondTheClockAreRefused) {
  // 2^62 B at 1 B/s is 4.6e18 s.
  EXPECT_NE(error_of([] { transfer_time_ps(0x1p62, 1.0); }).find("transfer time: "), std::string::npos);
  // The longest transfer in range: 8.64e6 B at 1 B/s is exactly 100 days.
  EXPECT_EQ(transfer_time_ps(8'640'000, 1.0), kMaxTimePs);
}

}  // namespace
}  // namespace commsim
