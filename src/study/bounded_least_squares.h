#pragma once
// Bounded non-linear least squares: minimise |r(x)|^2 over lo <= x <= hi by Levenberg-
// Marquardt with a forward-difference Jacobian, each step solved with Eigen's LDLT:
//   (J'J + lambda diag(J'J)) dx = -J'r          (Marquardt 1963, scaled damping)
// over the free variables only: a variable at a bound whose gradient pushes it outward is
// held there for that step (a projected method), and every step is clipped to the box.
// A step is taken when it lowers the cost (lambda / 10), else lambda x 10 and try again.
// Residual functions may be piecewise (a library switching protocol with its terms): the
// method then finds a local minimum near the start, as any local method does.

#include <cstddef>
#include <functional>

#include <Eigen/Dense>

namespace commsim {

struct BoundedLeastSquaresOptions {
  std::size_t max_iterations = 60;
  double relative_step = 1e-4;       // forward difference: h = relative_step * max(|x|, scale)
  double cost_tolerance = 1e-10;     // stop when an accepted step lowers the cost by less (relative)
  std::function<void()> on_iteration;  // after each iteration (at most max_iterations), if set
};

struct BoundedLeastSquaresResult {
  Eigen::VectorXd x;
  double cost = 0;  // |r(x)|^2
  std::size_t iterations = 0;
  std::size_t evaluations = 0;
};

using ResidualFunction = std::function<Eigen::VectorXd(const Eigen::VectorXd&)>;

/// The forward-difference Jacobian of `residuals` at x, whose residuals are r: column k is
/// (residuals(x + h e_k) - r) / h, h = relative_step x max(|x_k|, scale_k), stepping inward
/// (h < 0) where x + h would pass the upper bound `hi`. Evaluates `residuals` x.size() times.
Eigen::MatrixXd forward_difference_jacobian(const ResidualFunction& residuals, const Eigen::VectorXd& x,
                                            const Eigen::VectorXd& r, const Eigen::VectorXd& hi,
                                            const Eigen::VectorXd& scale, double relative_step);

/// `scale` gives each variable's typical magnitude, for difference steps (> 0). `start`
/// must lie in [lo, hi].
BoundedLeastSquaresResult bounded_least_squares(const ResidualFunction& residuals, const Eigen::VectorXd& start,
                                                const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                                                const Eigen::VectorXd& scale,
                                                const BoundedLeastSquaresOptions& options = {});

}  // namespace commsim
