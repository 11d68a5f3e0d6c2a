#include "base/units.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace commsim
