#pragma once
// Calibration: the library terms (study/calibration_terms.h) that make a topology's
// predictions match measured rows, by robust least squares on the relative error
//   minimise  sum_i rho((predicted_i - measured_i) / measured_i)
//             + sum_k (w (x_k - start_k) / scale_k)^2,   w = 1e-3,  lo_k <= x_k <= hi_k
// rho(e) = 2 c^2 (sqrt(1 + (e/c)^2) - 1), c = 10% (the soft-L1 loss: e^2 for small errors,
// linear for large ones, so the few rows no term can follow do not pull the rest off)
// (study/bounded_least_squares.h). Every prediction is a full validation run (validation.h:
// the algorithm and protocol chosen at each size by the profile being fitted, as NCCL
// chooses by its own estimate). The pull w toward the start (the library's published
// constants) is a prior: a change of one scale (1 us of a library latency, 30 us of the
// launch, 1 of a ratio) weighs as a relative error of w on one row, so 1 us as 0.1%. It
// splits what the data cannot tell apart (two latencies that always add) by least change,
// scale by scale: an intercept every row shows goes to the system's launch cost rather than
// the library's own call latencies. And it holds near the start what the rows barely show,
// instead of letting a few rows drive terms to their bounds (a latency to 0, another to
// hundreds of us): such fits match their table and carry badly to the system's other
// operations. 1e-4 still settles the split but leaves those terms free; 1e-2 starts to
// move terms the data determine. CalibrationOptions::prior_weight sets it.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "study/calibration_terms.h"
#include "study/measurement.h"
#include "study/validation.h"

namespace commsim {

struct CalibrationOptions {
  ValidationOptions validation;  // its library is where the fit starts
  std::size_t max_iterations = 60;
  double prior_weight = 1e-3;  // w above: the pull of each term toward its start, >= 0
  std::function<void()> on_iteration;  // after each of the fit's iterations, if set (progress)
};

struct FittedTerm {
  std::string name;
  std::string unit;
  double start = 0;
  double fitted = 0;
  bool at_bound = false;  // the fit pressed it against a bound
  /// How closely the rows determine it, in its unit: one standard deviation of the fitted
  /// value (term_spread). Infinite where neither a row nor the prior holds it.
  double sd = 0;
  bool shown = false;  // some row's prediction moves with it at the fit (term_spread)
};

/// Two terms the rows tell apart poorly: the correlation of their fitted values
/// (term_spread), |correlation| >= kTradingCorrelation. -1: the rows show only their sum (a
/// launch and a call latency that always add) or product (a bandwidth scale and an
/// efficiency); +1: their difference or ratio.
struct TradingTerms {
  std::string first, second;
  double correlation = 0;
};
inline constexpr double kTradingCorrelation = 0.95;

/// How well rows determine the terms fitted to them, from the fit's covariance at its minimum
/// (the Gauss-Newton estimate; Press et al., Numerical Recipes, 3rd ed., sec. 15.5):
///   C = s^2 (J'J)^-1,   sd_k = sqrt(C_kk),   correlation_kl = C_kl / (sd_k sd_l)
/// J the Jacobian of every residual (the `rows` rows' first, then the prior's) by term, s^2
/// the rows' mean squared residual. The prior keeps J'J invertible: a term no row shows has
/// sd = s x scale / w. A term whose column is zero (no row and no prior) has an infinite sd
/// and no correlation. `shown`: whether a row's residual moves with the term.
struct TermSpread {
  Eigen::VectorXd sd;
  Eigen::MatrixXd correlation;
  std::vector<bool> shown;
};
TermSpread term_spread(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& residuals, Eigen::Index rows);

struct CalibrationResult {
  LibraryFit fit;  // the fitted profile (named "<start>-calibrated") and bandwidth scales
  std::vector<FittedTerm> terms;
  /// The pairs of terms the rows tell apart poorly, the strongest correlation first.
  std::vector<TradingTerms> trading;
  /// The collectives measured without a bandwidth factor, that the others' are beside: the
  /// first, and with the both-ways efficiency fitted the first that differs in moving both
  /// ways (calibration_terms.h). Empty with fewer than two collectives measured.
  std::vector<CollectiveKind> reference_collectives;
  ValidationResult before, after;                  // the rows fitted to
  ValidationResult holdout_before, holdout_after;  // rows kept out of the fit
  std::size_t iterations = 0;
  std::size_t evaluations = 0;  // validation runs, the spread's included
  double prior_weight = 0;      // the options' pull toward the start it was fitted with
};

/// Throws InputError as validate_measurements does for a row the topology cannot hold, and
/// if there are no rows to fit.
CalibrationResult calibrate(const Topology& topology, const std::vector<Measurement>& rows,
                            const std::vector<Measurement>& holdout, const CalibrationOptions& options);
/// The same over rows measured at several scales of one system (validation.h, MeasuredRows):
/// one fit, each row on its group's topology; the terms those topologies can show together.
CalibrationResult calibrate(const std::vector<MeasuredRows>& groups, const std::vector<MeasuredRows>& holdout,
                            const CalibrationOptions& options);

/// `topology` as the fit says it runs: bandwidths scaled by class, the fitted library.
Topology calibrated_topology(const Topology& topology, const LibraryFit& fit);

}  // namespace commsim
