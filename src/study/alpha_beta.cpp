#include "study/alpha_beta.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace commsim {
namespace {

bool has_two_sizes(const std::vector<SizedTime>& points) {
  return std::any_of(points.begin(), points.end(),
                     [&](const SizedTime& p) { return p.size_bytes != points.front().size_bytes; });
}

bool same_run(const ValidationRow& a, const ValidationRow& b) {
  return a.measured.operation == b.measured.operation && a.measured.ranks == b.measured.ranks &&
         a.algorithm == b.algorithm && a.protocol == b.protocol;
}

AlphaBetaRun run_of(const std::vector<ValidationRow>& rows) {
  const Measurement& first = rows.front().measured;
  AlphaBetaRun run{first.operation, first.ranks, rows.front().algorithm, rows.front().protocol,
                   first.size_bytes, first.size_bytes, rows.size(), {}, {}};
  std::vector<SizedTime> measured, predicted;
  for (const ValidationRow& r : rows) {
    run.min_size_bytes = std::min(run.min_size_bytes, r.measured.size_bytes);
    run.max_size_bytes = std::max(run.max_size_bytes, r.measured.size_bytes);
    measured.push_back({r.measured.size_bytes, r.measured.out_of_place.time_us});
    predicted.push_back({r.measured.size_bytes, r.predicted_us});
  }
  run.measured = fit_alpha_beta(measured, bus_factor(first));
  run.predicted = fit_alpha_beta(predicted, bus_factor(first));
  return run;
}

}  // namespace

std::optional<AlphaBeta> fit_alpha_beta(const std::vector<SizedTime>& all_points, double bus_factor) {
  std::vector<SizedTime> points;  // a time of 0 (a call of nothing) weighs without bound: left out
  std::copy_if(all_points.begin(), all_points.end(), std::back_inserter(points),
               [](const SizedTime& p) { return p.time_us > 0 && std::isfinite(p.time_us); });
  if (points.empty() || !has_two_sizes(points) || !(bus_factor > 0)) return std::nullopt;
  // Row i: [1 / t_i, s_i / t_i] . [alpha, k] = 1, k in us per byte.
  Eigen::MatrixXd a(points.size(), 2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    a(i, 0) = 1.0 / points[i].time_us;
    a(i, 1) = static_cast<double>(points[i].size_bytes) / points[i].time_us;
  }
  // Sizes span ten decades: unit columns keep the solve well conditioned.
  const Eigen::Vector2d norms = a.colwise().norm().transpose();
  const Eigen::MatrixXd scaled = a * norms.cwiseInverse().asDiagonal();
  const Eigen::Vector2d x =
      scaled.colPivHouseholderQr().solve(Eigen::VectorXd::Ones(points.size())).cwiseQuotient(norms);
  if (!(x(1) > 0)) return std::nullopt;
  // busbw = F / k bytes per us = F / k / 1e3 GB/s.
  return AlphaBeta{x(0), bus_factor / x(1) / 1e3};
}

std::vector<AlphaBetaRun> alpha_beta_runs(const ValidationResult& result) {
  std::vector<AlphaBetaRun> runs;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= result.rows.size(); ++i) {
    if (i < result.rows.size() && same_run(result.rows[begin], result.rows[i])) continue;
    runs.push_back(run_of({result.rows.begin() + static_cast<std::ptrdiff_t>(begin),
                           result.rows.begin() + static_cast<std::ptrdiff_t>(i)}));
    begin = i;
  }
  return runs;
}

}  // namespace commsim
