#pragma once
// Measured against predicted: every row of a published measurement run again on a topology
// and library profile, the simulated time beside the measured one, and the error:
//   error = (predicted - measured) / measured     (negative: the prediction is optimistic)
// summarised by the median and 90th percentile of |error| over all rows, per size regime
// (small <= 64 KiB < mid < 64 MiB <= large), as NCCL switches protocol near those sizes, and
// per operation, as one log or table may hold several collectives.

#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "study/measurement.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct ValidationOptions {
  LibraryProfile library;                  // the profile the prediction runs under
  std::optional<Protocol> protocol;        // forced; empty: the fastest, as NCCL picks
  std::optional<AlgorithmKind> algorithm;  // collectives; empty: what NCCL would pick
  /// Rings at once (collective/simulate.h); empty: each topology's own, its GPUs a node
  /// under a library (collective/algorithms.h, default_channels), as rows at several scales need.
  std::optional<std::size_t> channels = 1;
};

struct ValidationRow {
  Measurement measured;
  std::string algorithm;             // what ran: "ring", "nvls", ..., "p2p" for send/receive
  std::optional<Protocol> protocol;  // empty under the ideal library
  std::optional<std::uint32_t> channels;  // what it ran on (a send's, for P2P); empty under ideal
  double predicted_us = 0;
  double error = 0;                  // (predicted - measured) / measured
};

struct ErrorSummary {
  std::size_t rows = 0;
  double median_abs_error = 0;  // of |error|; 0 with no rows
  double p90_abs_error = 0;     // linear interpolation between order statistics
};

/// The errors of one operation's rows ("allreduce", "sendrecv", ...).
struct OperationErrors {
  MeasuredOperation operation;
  ErrorSummary errors;
};

struct ValidationResult {
  std::vector<ValidationRow> rows;  // in the order of the measurements
  /// Rows left out: collectives of no elements, which the library discards
  /// (LibraryProfile::discards), so that nccl-tests times its own loop on them.
  std::size_t discarded_rows = 0;
  ErrorSummary all, small, mid, large;
  std::vector<OperationErrors> by_operation;  // in the order of each operation's first row
};

/// The size regimes of the summary.
inline constexpr Bytes kSmallRegimeMaxBytes = Bytes{64} << 10;  // <= 64 KiB: small
inline constexpr Bytes kLargeRegimeMinBytes = Bytes{64} << 20;  // >= 64 MiB: large

/// Throws InputError naming the row's source (FILE:LINE) if the topology cannot hold it:
/// a row of more or fewer ranks than the topology's NPUs, a P2P row whose ranks are not
/// NPUs, or an algorithm that does not apply.
ValidationResult validate_measurements(const Topology& topology, const std::vector<Measurement>& rows,
                                       const ValidationOptions& options);

/// Measured rows and the topology they ran on. A cluster measured at several scales (10
/// nodes of 2, 4 and 8 GPUs) is a group a scale, each with the cluster's spec built at it.
struct MeasuredRows {
  Topology topology;
  std::vector<Measurement> rows;
  /// Each row's place among the rows of every group as they were read; empty: the groups'
  /// order, one after another.
  std::vector<std::size_t> places = {};
};

/// The same over several groups, each row on its group's topology: the rows in the order of
/// their places (files that interleave scales list as read), the summaries over them all.
ValidationResult validate_measurements(const std::vector<MeasuredRows>& groups, const ValidationOptions& options);

/// Median and p90 of |error| over `errors`.
ErrorSummary summarise_errors(std::vector<double> errors);

}  // namespace commsim
