// Measured and predicted times as lines, time = alpha + size x bus factor / busbw, through
// each run of one algorithm and protocol.

#include "study/alpha_beta.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

TEST(AlphaBeta, ALineIsFoundExactly) {
  // AllReduce on 8 ranks (bus factor 2 x 7 / 8 = 1.75) at 25 us + S x 1.75 / 100 GB/s:
  // 100 GB/s is 1e5 B/us, so t = 25 + 1.75 S / 1e5 us, from 1 KiB to 16 GiB.
  std::vector<SizedTime> points;
  for (Bytes s = Bytes{1} << 10; s <= Bytes{16} << 30; s *= 8) {
    points.push_back({s, 25 + 1.75 * static_cast<double>(s) / 1e5});
  }
  const std::optional<AlphaBeta> fit = fit_alpha_beta(points, 1.75);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->alpha_us, 25, 1e-9);
  EXPECT_NEAR(fit->busbw_GBps, 100, 1e-9);
}

TEST(AlphaBeta, RowsWeighByTheirRelativeError) {
  // Two rows of size 0 at 10 and 20 us, one of 1e5 B at 40 us. The slope serves the third
  // row alone, so alpha minimises (alpha/10 - 1)^2 + (alpha/20 - 1)^2:
  //   alpha/100 + alpha/400 = 1/10 + 1/20  ->  alpha = 12 us (15, their mean, in absolute error);
  //   k = (40 - 12) / 1e5 us/B  ->  busbw = 1e5 / 28 B/us = 3.5714 GB/s (bus factor 1).
  const std::optional<AlphaBeta> fit = fit_alpha_beta({{0, 10}, {0, 20}, {100000, 40}}, 1);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->alpha_us, 12, 1e-9);
  EXPECT_NEAR(fit->busbw_GBps, 100.0 / 28, 1e-9);
}

TEST(AlphaBeta, NoLineWithoutTwoSizesOrAGrowingTime) {
  EXPECT_FALSE(fit_alpha_beta({}, 1).has_value());
  EXPECT_FALSE(fit_alpha_beta({{1024, 10}, {1024, 12}}, 1).has_value());        // one size
  EXPECT_FALSE(fit_alpha_beta({{1024, 10}, {1 << 20, 5}}, 1).has_value());      // time falls with size
  EXPECT_FALSE(fit_alpha_beta({{1024, 10}, {1 << 20, 20}}, 0).has_value());     // no bus factor (one rank)
  // A time of 0 (a call of nothing, as the ideal library predicts it) is left out, not fitted.
  EXPECT_FALSE(fit_alpha_beta({{0, 0}, {1024, 10}}, 1).has_value());
  const std::optional<AlphaBeta> fit = fit_alpha_beta({{0, 0}, {1000, 10}, {2000, 20}}, 1);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->alpha_us, 0, 1e-9);
  EXPECT_NEAR(fit->busbw_GBps, 0.1, 1e-12);  // 100 B/us
}

ValidationRow row(MeasuredOperation operation, std::string algorithm, std::optional<Protocol> protocol, Bytes size,
                  double measured_us, double predicted_us) {
  ValidationRow r;
  r.measured.operation = operation;
  r.measured.ranks = 2;
  r.measured.size_bytes = size;
  r.measured.out_of_place.time_us = measured_us;
  r.algorithm = std::move(algorithm);
  r.protocol = protocol;
  r.predicted_us = predicted_us;
  return r;
}

TEST(AlphaBeta, ARunIsConsecutiveRowsOfOneAlgorithmAndProtocol) {
  // AllGather on 2 ranks (bus factor 1/2): two ring/LL128 rows, then three ring/Simple rows,
  // then one send/receive row. Measured t = 10 us + S / 1e4 B/us (busbw 1/2 x 10 = 5 GB/s),
  // predicted t = 4 us + S / 2e4 B/us (10 GB/s) under LL128, 50 us + S / 2e4 under Simple.
  const MeasuredOperation all_gather = MeasuredOperation::of(CollectiveKind::kAllGather);
  auto measured = [](double s) { return 10 + s / 1e4; };
  ValidationResult result;
  for (Bytes s : {Bytes{1} << 20, Bytes{2} << 20}) {
    result.rows.push_back(row(all_gather, "ring", Protocol::kLL128, s, measured(s), 4 + s / 2e4));
  }
  for (Bytes s : {Bytes{4} << 20, Bytes{8} << 20, Bytes{16} << 20}) {
    result.rows.push_back(row(all_gather, "ring", Protocol::kSimple, s, measured(s), 50 + s / 2e4));
  }
  result.rows.push_back(row(MeasuredOperation::point_to_point(), "p2p", Protocol::kSimple, 1 << 20, 30, 25));

  const std::vector<AlphaBetaRun> runs = alpha_beta_runs(result);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].protocol, Protocol::kLL128);
  EXPECT_EQ(runs[0].rows, 2u);
  EXPECT_EQ(runs[0].min_size_bytes, Bytes{1} << 20);
  EXPECT_EQ(runs[0].max_size_bytes, Bytes{2} << 20);
  EXPECT_NEAR(runs[0].measured->alpha_us, 10, 1e-9);
  EXPECT_NEAR(runs[0].measured->busbw_GBps, 5, 1e-9);
  EXPECT_NEAR(runs[0].predicted->alpha_us, 4, 1e-9);
  EXPECT_NEAR(runs[0].predicted->busbw_GBps, 10, 1e-9);

  EXPECT_EQ(runs[1].protocol, Protocol::kSimple);
  EXPECT_EQ(runs[1].rows, 3u);
  EXPECT_EQ(runs[1].max_size_bytes, Bytes{16} << 20);
  EXPECT_NEAR(runs[1].measured->alpha_us, 10, 1e-9);
  EXPECT_NEAR(runs[1].predicted->alpha_us, 50, 1e-9);
  EXPECT_NEAR(runs[1].predicted->busbw_GBps, 10, 1e-9);

  EXPECT_TRUE(runs[2].operation.is_p2p());
  EXPECT_EQ(runs[2].rows, 1u);
  EXPECT_FALSE(runs[2].measured.has_value());  // one size: no line
}

}  // namespace
}  // namespace commsim
