#include "study/bounded_least_squares.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/error.h"

namespace commsim {
namespace {

class Solver {
 public:
  Solver(const ResidualFunction& residuals, const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
         const Eigen::VectorXd& scale, const BoundedLeastSquaresOptions& options)
      : residuals_(residuals), lo_(lo), hi_(hi), scale_(scale), options_(options) {}

  BoundedLeastSquaresResult run(const Eigen::VectorXd& start) {
    BoundedLeastSquaresResult result;
    result.x = start;
    Eigen::VectorXd r = evaluate(start);
    result.cost = r.squaredNorm();
    double lambda = 1e-3;
    bool converged = false;
    while (!converged && result.iterations < options_.max_iterations) {
      ++result.iterations;
      const Eigen::MatrixXd jacobian = jacobian_at(result.x, r);
      const Eigen::VectorXd gradient = jacobian.transpose() * r;
      const std::vector<Eigen::Index> free = free_variables(result.x, gradient);
      converged = true;  // unless a step lowers the cost by more than the tolerance
      for (; !free.empty() && lambda < kMaxLambda; lambda *= 10) {
        const Eigen::VectorXd x = clipped(result.x + step(jacobian, gradient, free, lambda));
        Eigen::VectorXd trial = evaluate(x);
        const double cost = trial.squaredNorm();
        if (cost >= result.cost) continue;
        converged = result.cost - cost < options_.cost_tolerance * result.cost;
        result.x = x;
        result.cost = cost;
        r = std::move(trial);
        lambda = std::max(lambda / 10, 1e-12);
        break;
      }
      if (options_.on_iteration) options_.on_iteration();
    }
    result.evaluations = evaluations_;
    return result;
  }

  static constexpr double kMaxLambda = 1e12;  // damping this strong moves nothing: a minimum

 private:
  Eigen::VectorXd evaluate(const Eigen::VectorXd& x) {
    ++evaluations_;
    return residuals_(x);
  }

  Eigen::MatrixXd jacobian_at(const Eigen::VectorXd& x, const Eigen::VectorXd& r) {
    evaluations_ += static_cast<std::size_t>(x.size());
    return forward_difference_jacobian(residuals_, x, r, hi_, scale_, options_.relative_step);
  }

  // A variable at a bound stays there when the descent direction -gradient points out.
  std::vector<Eigen::Index> free_variables(const Eigen::VectorXd& x, const Eigen::VectorXd& gradient) const {
    std::vector<Eigen::Index> free;
    for (Eigen::Index k = 0; k < x.size(); ++k) {
      const bool held = (x[k] <= lo_[k] && gradient[k] > 0) || (x[k] >= hi_[k] && gradient[k] < 0);
      if (!held) free.push_back(k);
    }
    return free;
  }

  static Eigen::VectorXd step(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& gradient,
                              const std::vector<Eigen::Index>& free, double lambda) {
    const auto n = static_cast<Eigen::Index>(free.size());
    Eigen::MatrixXd a(n, n);
    Eigen::VectorXd g(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      g[i] = gradient[free[i]];
      for (Eigen::Index k = 0; k < n; ++k) a(i, k) = jacobian.col(free[i]).dot(jacobian.col(free[k]));
    }
    for (Eigen::Index i = 0; i < n; ++i) a(i, i) += lambda * a(i, i) + 1e-12;
    const Eigen::VectorXd free_step = a.ldlt().solve(-g);
    Eigen::VectorXd full = Eigen::VectorXd::Zero(gradient.size());
    for (Eigen::Index i = 0; i < n; ++i) full[free[i]] = free_step[i];
    return full;
  }

  Eigen::VectorXd clipped(Eigen::VectorXd x) const { return x.cwiseMax(lo_).cwiseMin(hi_); }

  const ResidualFunction& residuals_;
  const Eigen::VectorXd& lo_;
  const Eigen::VectorXd& hi_;
  const Eigen::VectorXd& scale_;
  const BoundedLeastSquaresOptions& options_;
  std::size_t evaluations_ = 0;
};

}  // namespace

Eigen::MatrixXd forward_difference_jacobian(const ResidualFunction& residuals, const Eigen::VectorXd& x,
                                            const Eigen::VectorXd& r, const Eigen::VectorXd& hi,
                                            const Eigen::VectorXd& scale, double relative_step) {
  Eigen::MatrixXd j(r.size(), x.size());
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    double h = relative_step * std::max(std::abs(x[k]), scale[k]);
    if (x[k] + h > hi[k]) h = -h;
    Eigen::VectorXd moved = x;
    moved[k] += h;
    j.col(k) = (residuals(moved) - r) / h;
  }
  return j;
}

BoundedLeastSquaresResult bounded_least_squares(const ResidualFunction& residuals, const Eigen::VectorXd& start,
                                                const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                                                const Eigen::VectorXd& scale,
                                                const BoundedLeastSquaresOptions& options) {
  COMMSIM_CHECK(start.size() == lo.size() && start.size() == hi.size() && start.size() == scale.size(),
                "bounds and scales for every variable");
  COMMSIM_CHECK((start.array() >= lo.array()).all() && (start.array() <= hi.array()).all(), "start inside the bounds");
  return Solver(residuals, lo, hi, scale, options).run(start);
}

}  // namespace commsim
