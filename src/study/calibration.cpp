#include "study/calibration.h"

#include <algorithm>

#include "base/error.h"
#include "study/bounded_least_squares.h"

namespace commsim {
namespace {

constexpr double kPullToStart = 1e-5;

ValidationOptions with_library(ValidationOptions options, const LibraryProfile& library) {
  options.library = library;
  return options;
}

class Fit {
 public:
  Fit(const Topology& topology, const std::vector<Measurement>& rows, const CalibrationOptions& options,
      LibraryFit start)
      : topology_(topology), rows_(rows), options_(options), start_(std::move(start)),
        terms_(calibration_terms(topology, start_)) {}

  const std::vector<CalibrationTerm>& terms() const { return terms_; }

  LibraryFit at(const Eigen::VectorXd& x) const {
    LibraryFit fit = start_;
    for (std::size_t k = 0; k < terms_.size(); ++k) terms_[k].set(fit, x[static_cast<Eigen::Index>(k)]);
    return fit;
  }

  ValidationResult validate(const LibraryFit& fit) const {
    return validate_measurements(calibrated_topology(topology_, fit), rows_, with_library(options_.validation, fit.library));
  }

  Eigen::VectorXd residuals(const Eigen::VectorXd& x) const {
    const ValidationResult result = validate(at(x));
    const auto n = static_cast<Eigen::Index>(result.rows.size());
    Eigen::VectorXd r(n + x.size());
    for (Eigen::Index i = 0; i < n; ++i) r[i] = result.rows[static_cast<std::size_t>(i)].error;
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      const CalibrationTerm& t = terms_[static_cast<std::size_t>(k)];
      r[n + k] = kPullToStart * (x[k] - t.get(start_)) / t.scale;
    }
    return r;
  }

  Eigen::VectorXd vector(double CalibrationTerm::*field) const {
    Eigen::VectorXd v(static_cast<Eigen::Index>(terms_.size()));
    for (std::size_t k = 0; k < terms_.size(); ++k) v[static_cast<Eigen::Index>(k)] = terms_[k].*field;
    return v;
  }

  Eigen::VectorXd start() const {
    Eigen::VectorXd v(static_cast<Eigen::Index>(terms_.size()));
    for (std::size_t k = 0; k < terms_.size(); ++k) {
      // A start outside the bounds (a spec's latency above 1 ms) is fitted from the bound.
      v[static_cast<Eigen::Index>(k)] = std::clamp(terms_[k].get(start_), terms_[k].lo, terms_[k].hi);
    }
    return v;
  }

 private:
  const Topology& topology_;
  const std::vector<Measurement>& rows_;
  const CalibrationOptions& options_;
  LibraryFit start_;
  std::vector<CalibrationTerm> terms_;
};

}  // namespace

Topology calibrated_topology(const Topology& topology, const LibraryFit& fit) {
  Topology calibrated = topology;
  calibrated.scale_bandwidths(fit.bandwidth_scale);
  if (fit.both_ways_efficiency) calibrated.set_both_ways_efficiency(*fit.both_ways_efficiency);
  calibrated.set_library(fit.library);
  return calibrated;
}

CalibrationResult calibrate(const Topology& topology, const std::vector<Measurement>& rows,
                            const std::vector<Measurement>& holdout, const CalibrationOptions& options) {
  if (rows.empty()) throw InputError("no measured rows to calibrate on");
  // The fitted profile runs at its fitted costs and chooses by its start's (NCCL's) estimate.
  LibraryFit from{options.validation.library, {1, 1, 1}, topology.both_ways_efficiency()};
  from.library.estimate_as(options.validation.library);
  const Fit fit(topology, rows, options, std::move(from));
  CalibrationResult result;
  result.before = fit.validate(fit.at(fit.start()));
  BoundedLeastSquaresOptions solver;
  solver.max_iterations = options.max_iterations;
  const Eigen::VectorXd lo = fit.vector(&CalibrationTerm::lo);
  const Eigen::VectorXd hi = fit.vector(&CalibrationTerm::hi);
  const BoundedLeastSquaresResult solved =
      bounded_least_squares([&](const Eigen::VectorXd& x) { return fit.residuals(x); }, fit.start(), lo, hi,
                            fit.vector(&CalibrationTerm::scale), solver);
  result.fit = fit.at(solved.x);
  result.fit.library.name = options.validation.library.name + "-calibrated";
  result.after = fit.validate(result.fit);
  const Eigen::VectorXd start = fit.start();
  for (std::size_t k = 0; k < fit.terms().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const CalibrationTerm& t = fit.terms()[k];
    result.terms.push_back({t.name, t.unit, start[i], solved.x[i], solved.x[i] <= lo[i] || solved.x[i] >= hi[i]});
  }
  if (!holdout.empty()) {
    result.holdout_before = validate_measurements(topology, holdout, options.validation);
    result.holdout_after = validate_measurements(calibrated_topology(topology, result.fit), holdout,
                                                 with_library(options.validation, result.fit.library));
  }
  result.iterations = solved.iterations;
  result.evaluations = solved.evaluations;
  return result;
}

}  // namespace commsim
