#include "study/calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "model/one_node_ramp.h"
#include "study/bounded_least_squares.h"

namespace commsim {
namespace {

constexpr double kRobustScale = 0.1;

// A relative error e as a residual of the soft-L1 loss rho(e) = 2 c^2 (sqrt(1 + (e/c)^2) - 1),
// c = 10%: sign(e) sqrt(rho(e)) = e sqrt(2 / (1 + sqrt(1 + (e/c)^2))) (no cancellation for
// small e), which is e while |e| << c and grows as sqrt(2 c |e|) beyond, so a row far off (one
// that NCCL runs with another protocol than the estimate says) costs in proportion to its
// error instead of its square and does not drag the others with it.
double robust_residual(double e) {
  const double z = e / kRobustScale;
  return e * std::sqrt(2 / (1 + std::sqrt(1 + z * z)));
}

ValidationOptions with_library(ValidationOptions options, const LibraryProfile& library) {
  options.library = library;
  return options;
}

/// The largest row of each collective of `groups`, in the order the collectives first come,
/// with the topology it ran on.
struct LargestRow {
  const Topology* topology;
  Measurement row;
};
std::vector<LargestRow> largest_of_each_collective(const std::vector<MeasuredRows>& groups) {
  std::vector<LargestRow> largest;
  for (const MeasuredRows& group : groups) {
    for (const Measurement& m : group.rows) {
      if (!m.operation.collective) continue;
      const auto same = std::find_if(largest.begin(), largest.end(),
                                     [&](const LargestRow& l) { return l.row.operation == m.operation; });
      if (same == largest.end()) {
        largest.push_back({&group.topology, m});
      } else if (m.size_bytes > same->row.size_bytes) {
        *same = {&group.topology, m};
      }
    }
  }
  return largest;
}

/// Whether each of `rows` is predicted another time when the half-duplex links lose more
/// both ways at once: the collectives that move both ways over them.
std::vector<bool> moves_both_ways(const std::vector<LargestRow>& rows, const ValidationOptions& options) {
  std::vector<bool> both(rows.size(), false);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Topology& topology = *rows[i].topology;
    if (!topology.both_ways_efficiency()) continue;
    Topology lossier = topology;
    lossier.set_both_ways_efficiency(*topology.both_ways_efficiency() / 2);
    const ValidationResult as_is = validate_measurements(topology, {rows[i].row}, options);
    if (as_is.rows.empty()) continue;  // a call of no elements, which moves nothing
    const double lossy = validate_measurements(lossier, {rows[i].row}, options).rows.front().predicted_us;
    both[i] = lossy > as_is.rows.front().predicted_us * (1 + 1e-6);
  }
  return both;
}

/// The collectives of `rows`, split into the references and those that get a bandwidth
/// factor. The first collective measured is a reference: the bandwidth scale is its share
/// of the link. Where the both-ways efficiency of half-duplex links is fitted too, so is the
/// first collective that differs from it in moving both ways over them (a one-way Broadcast
/// beside a both-ways AllReduce), which alone tells the efficiency from the scale; a factor
/// on either would trade against them. With one collective, no factors and no references.
struct FactoredCollectives {
  std::vector<CollectiveKind> references;
  std::vector<FactoredCollective> factored;
};

/// Whether `library` has a factor of `kind` for calls inside one node.
bool has_one_node_factor(const LibraryProfile& library, CollectiveKind kind) {
  const auto& one_node = library.collective_bandwidth_one_node;
  return std::any_of(one_node.begin(), one_node.end(), [&](const auto& entry) { return entry.first == kind; });
}

/// The factors of `kind` its rows run under: inside one NVLink node the library's factor for
/// calls there (LibraryProfile::inside_one_node) where it has one, or where the topology is a
/// cluster's (hierarchical: a cluster spec measured at one node, whose fitted factor must not
/// slow its calls across nodes); else its factor across nodes, which also holds inside a node
/// where there is none (a node's own spec).
std::vector<FactoredCollective> factors_run(CollectiveKind kind, const std::vector<MeasuredRows>& groups,
                                            const LibraryProfile& library) {
  bool inside = false, across = false;
  for (const MeasuredRows& group : groups) {
    const bool measured = std::any_of(group.rows.begin(), group.rows.end(),
                                      [&](const Measurement& m) { return m.operation.collective == kind; });
    const bool one_node_factor =
        has_one_node_factor(library, kind) || group.topology.shape().kind == TopologyKind::kHierarchical;
    if (measured) (one_node_factor && inside_one_nvlink_node(group.topology) ? inside : across) = true;
  }
  std::vector<FactoredCollective> factors;
  if (across) factors.push_back({kind, false});
  if (inside) factors.push_back({kind, true});
  return factors;
}

FactoredCollectives factored_collectives(const std::vector<MeasuredRows>& groups, const ValidationOptions& options) {
  const std::vector<LargestRow> largest = largest_of_each_collective(groups);
  FactoredCollectives split;
  if (largest.size() < 2) return split;
  const std::vector<bool> both = moves_both_ways(largest, options);
  split.references.push_back(*largest[0].row.operation.collective);
  for (std::size_t i = 1; i < largest.size(); ++i) {
    const CollectiveKind kind = *largest[i].row.operation.collective;
    if (split.references.size() == 1 && both[i] != both[0]) {
      split.references.push_back(kind);
    } else {
      for (const FactoredCollective& c : factors_run(kind, groups, options.library)) split.factored.push_back(c);
    }
  }
  return split;
}

/// `library` with each bandwidth factor of `factored`: its own where it has one; else across
/// nodes 1, inside one node the factor across nodes, which such calls ran at until now.
LibraryProfile with_factors(LibraryProfile library, const std::vector<FactoredCollective>& factored) {
  for (const auto& [kind, one_node] : factored) {
    if (one_node && !has_one_node_factor(library, kind)) {
      library.collective_bandwidth_one_node.emplace_back(kind, library.bandwidth_factor(kind));
    } else if (!one_node && library.bandwidth_factor(kind) == 1) {
      std::erase_if(library.collective_bandwidth, [kind](const auto& entry) { return entry.first == kind; });
      library.collective_bandwidth.emplace_back(kind, 1.0);
    }
  }
  return library;
}

// Whether a host thread drove several GPUs in any row, as its file says (nccl-tests -g G) or
// else as the library's system runs it.
bool thread_driven(const std::vector<MeasuredRows>& groups, const LibraryProfile& library) {
  return std::any_of(groups.begin(), groups.end(), [&](const MeasuredRows& group) {
    return std::any_of(group.rows.begin(), group.rows.end(),
                       [&](const Measurement& m) { return library.gpus_per_thread_or(m.gpus_per_thread) > 0; });
  });
}

std::vector<const Topology*> topologies_of(const std::vector<MeasuredRows>& groups) {
  std::vector<const Topology*> topologies;
  for (const MeasuredRows& group : groups) topologies.push_back(&group.topology);
  return topologies;
}

// `groups` as the fit says they run (calibrated_topology).
std::vector<MeasuredRows> calibrated_groups(const std::vector<MeasuredRows>& groups, const LibraryFit& fit) {
  std::vector<MeasuredRows> calibrated;
  for (const MeasuredRows& group : groups) {
    calibrated.push_back({calibrated_topology(group.topology, fit), group.rows, group.places});
  }
  return calibrated;
}

class Fit {
 public:
  Fit(const std::vector<MeasuredRows>& groups, const CalibrationOptions& options, LibraryFit start,
      const std::vector<FactoredCollective>& factored)
      : groups_(groups),
        options_(options),
        start_(std::move(start)),
        terms_(calibration_terms(topologies_of(groups), start_, factored, thread_driven(groups, start_.library))) {}

  const std::vector<CalibrationTerm>& terms() const { return terms_; }

  LibraryFit at(const Eigen::VectorXd& x) const {
    LibraryFit fit = start_;
    for (std::size_t k = 0; k < terms_.size(); ++k) terms_[k].set(fit, x[static_cast<Eigen::Index>(k)]);
    return fit;
  }

  ValidationResult validate(const LibraryFit& fit) const {
    return validate_measurements(calibrated_groups(groups_, fit), with_library(options_.validation, fit.library));
  }

  Eigen::VectorXd residuals(const Eigen::VectorXd& x) const { return residuals(validate(at(x)), x); }

  /// The residuals at x of `result`, the rows as validate(at(x)) predicts them.
  Eigen::VectorXd residuals(const ValidationResult& result, const Eigen::VectorXd& x) const {
    const auto n = static_cast<Eigen::Index>(result.rows.size());
    Eigen::VectorXd r(n + x.size());
    for (Eigen::Index i = 0; i < n; ++i) r[i] = robust_residual(result.rows[static_cast<std::size_t>(i)].error);
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      const CalibrationTerm& t = terms_[static_cast<std::size_t>(k)];
      r[n + k] = options_.prior_weight * (x[k] - t.get(start_)) / t.scale;
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
  const std::vector<MeasuredRows>& groups_;
  const CalibrationOptions& options_;
  LibraryFit start_;
  std::vector<CalibrationTerm> terms_;
};

/// The pairs of terms whose fitted values correlate by kTradingCorrelation or more, strongest
/// first (ties in the terms' order).
std::vector<TradingTerms> trading_terms(const std::vector<CalibrationTerm>& terms, const Eigen::MatrixXd& correlation) {
  std::vector<TradingTerms> pairs;
  for (Eigen::Index k = 0; k < correlation.rows(); ++k) {
    for (Eigen::Index l = k + 1; l < correlation.cols(); ++l) {
      const double c = correlation(k, l);
      if (std::abs(c) < kTradingCorrelation) continue;
      pairs.push_back({terms[static_cast<std::size_t>(k)].name, terms[static_cast<std::size_t>(l)].name, c});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const TradingTerms& a, const TradingTerms& b) {
    return std::abs(a.correlation) > std::abs(b.correlation);
  });
  return pairs;
}

}  // namespace

TermSpread term_spread(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& residuals, Eigen::Index rows) {
  COMMSIM_CHECK(rows > 0 && rows <= residuals.size() && jacobian.rows() == residuals.size(),
                "a spread needs the rows' residuals and their Jacobian");
  const double s2 = residuals.head(rows).squaredNorm() / static_cast<double>(rows);
  const Eigen::MatrixXd normal = jacobian.transpose() * jacobian;
  const Eigen::MatrixXd inverse = normal.completeOrthogonalDecomposition().pseudoInverse();
  const Eigen::Index n = normal.rows();
  TermSpread spread{Eigen::VectorXd(n), Eigen::MatrixXd::Zero(n, n), {}};
  for (Eigen::Index k = 0; k < n; ++k) {
    spread.shown.push_back(jacobian.col(k).head(rows).squaredNorm() > 0);
    spread.sd[k] =
        normal(k, k) > 0 ? std::sqrt(s2 * std::max(inverse(k, k), 0.0)) : std::numeric_limits<double>::infinity();
  }
  for (Eigen::Index k = 0; k < n; ++k) {
    for (Eigen::Index l = 0; l < n; ++l) {
      const double scale = std::sqrt(std::max(inverse(k, k), 0.0) * std::max(inverse(l, l), 0.0));
      const bool shown = normal(k, k) > 0 && normal(l, l) > 0 && scale > 0;
      spread.correlation(k, l) = shown ? std::clamp(inverse(k, l) / scale, -1.0, 1.0) : 0.0;
    }
  }
  return spread;
}

Topology calibrated_topology(const Topology& topology, const LibraryFit& fit) {
  Topology calibrated = topology;
  calibrated.scale_bandwidths(fit.bandwidth_scale);
  if (fit.both_ways_efficiency) calibrated.set_both_ways_efficiency(*fit.both_ways_efficiency);
  calibrated.set_library(fit.library);
  return calibrated;
}

CalibrationResult calibrate(const Topology& topology, const std::vector<Measurement>& rows,
                            const std::vector<Measurement>& holdout, const CalibrationOptions& options) {
  std::vector<MeasuredRows> held_out;
  if (!holdout.empty()) held_out.push_back({topology, holdout});
  return calibrate({{topology, rows}}, held_out, options);
}

CalibrationResult calibrate(const std::vector<MeasuredRows>& groups, const std::vector<MeasuredRows>& holdout,
                            const CalibrationOptions& options) {
  const bool no_rows =
      std::all_of(groups.begin(), groups.end(), [](const MeasuredRows& group) { return group.rows.empty(); });
  if (no_rows) throw InputError("no measured rows to calibrate on");
  // The fitted profile runs at its fitted costs and chooses by its start's (NCCL's) estimate.
  // Each collective measured beside the first gets a bandwidth factor to fit. The topologies
  // are one spec at several scales: the first's both-ways efficiency is every one's.
  const FactoredCollectives split = factored_collectives(groups, options.validation);
  LibraryFit from{with_factors(options.validation.library, split.factored),
                  {1, 1, 1},
                  groups.front().topology.both_ways_efficiency()};
  from.library.estimate_as(options.validation.library);
  const Fit fit(groups, options, std::move(from), split.factored);
  CalibrationResult result;
  result.reference_collectives = split.references;
  result.before = fit.validate(fit.at(fit.start()));
  BoundedLeastSquaresOptions solver;
  solver.max_iterations = options.max_iterations;
  solver.on_iteration = options.on_iteration;
  const Eigen::VectorXd lo = fit.vector(&CalibrationTerm::lo);
  const Eigen::VectorXd hi = fit.vector(&CalibrationTerm::hi);
  const Eigen::VectorXd scale = fit.vector(&CalibrationTerm::scale);
  const ResidualFunction residuals = [&](const Eigen::VectorXd& x) { return fit.residuals(x); };
  const BoundedLeastSquaresResult solved = bounded_least_squares(residuals, fit.start(), lo, hi, scale, solver);
  result.fit = fit.at(solved.x);
  result.fit.library.name = options.validation.library.name + "-calibrated";
  result.after = fit.validate(result.fit);
  const Eigen::VectorXd at_fit = fit.residuals(result.after, solved.x);
  const TermSpread spread =
      term_spread(forward_difference_jacobian(residuals, solved.x, at_fit, hi, scale, solver.relative_step), at_fit,
                  at_fit.size() - solved.x.size());
  const Eigen::VectorXd start = fit.start();
  for (std::size_t k = 0; k < fit.terms().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const CalibrationTerm& t = fit.terms()[k];
    result.terms.push_back({t.name, t.unit, start[i], solved.x[i], solved.x[i] <= lo[i] || solved.x[i] >= hi[i],
                            spread.sd[i], spread.shown[k]});
  }
  result.trading = trading_terms(fit.terms(), spread.correlation);
  if (!holdout.empty()) {
    result.holdout_before = validate_measurements(holdout, options.validation);
    result.holdout_after = validate_measurements(calibrated_groups(holdout, result.fit),
                                                 with_library(options.validation, result.fit.library));
  }
  result.iterations = solved.iterations;
  result.evaluations = solved.evaluations + 1 + fit.terms().size();  // after, and the spread's
  result.prior_weight = options.prior_weight;
  return result;
}

}  // namespace commsim
