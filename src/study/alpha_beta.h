#pragma once
// Measured against predicted as two numbers a run: the latency and bus bandwidth of the line
//   time = alpha + size x F / busbw                       (Hockney's alpha-beta model)
// through a run of rows that one algorithm and protocol predicted, F the collective's bus
// factor (base/collectives.h busbw_factor; 1 for send/receive), so busbw reads as nccl-tests'
// column at sizes where alpha no longer counts. Fitted by linear least squares on the relative
// error, sum_i ((alpha + s_i x k) / t_i - 1)^2 with k = F / busbw, as validation weighs rows:
// a 30% miss at 32 MiB weighs what it weighs at 16 GiB. Beside each other, the measured and
// the predicted fits say whether a prediction misses a latency (alpha) or a bandwidth (busbw).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/units.h"
#include "study/validation.h"

namespace commsim {

struct AlphaBeta {
  double alpha_us = 0;    // the intercept; negative where the rows bend the other way
  double busbw_GBps = 0;  // F / slope, GB/s (1e9 B/s)
};

struct SizedTime {
  Bytes size_bytes = 0;
  double time_us = 0;
};

/// The relative least-squares line through the points of a positive time (Eigen's
/// column-pivoting QR, columns scaled to unit norm); empty with fewer than two distinct sizes
/// among them or a slope <= 0 (no bandwidth: time does not grow with size).
std::optional<AlphaBeta> fit_alpha_beta(const std::vector<SizedTime>& points, double bus_factor);

/// Consecutive rows of one operation on one set of ranks that one algorithm and protocol
/// predicted (the channel count may change within), fitted measured and predicted alike.
struct AlphaBetaRun {
  MeasuredOperation operation;
  std::size_t ranks = 0;
  std::string algorithm;
  std::optional<Protocol> protocol;
  Bytes min_size_bytes = 0;
  Bytes max_size_bytes = 0;
  std::size_t rows = 0;
  std::optional<AlphaBeta> measured;   // of the out-of-place times
  std::optional<AlphaBeta> predicted;
};

/// The runs of the result's rows, in their order.
std::vector<AlphaBetaRun> alpha_beta_runs(const ValidationResult& result);

}  // namespace commsim
