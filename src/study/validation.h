#pragma once
// Measured against predicted: every row of a published measurement run again on a topology
// and library profile, the simulated time beside the measured one, and the error:
//   error = (predicted - measured) / measured     (negative: the prediction is optimistic)
// summarised by the median and 90th percentile of |error| over all rows, per size regime
// (small <= 64 KiB < mid < 64 MiB <= large), as NCCL switches protocol near those sizes,
// per operation, as one log or table may hold several collectives, and per table: one
// operation at one scale (ranks), as nccl-tests prints a run, and as a bound is checked.

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
  /// Threads predicting rows at once (base/ordered_parallel.h): the result is the same for
  /// any count; 1 predicts them in order on the caller's thread.
  unsigned jobs = 1;
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

/// The errors of one table: one operation's rows at one scale.
struct TableErrors {
  MeasuredOperation operation;
  std::size_t ranks = 0;  // the rows' ranks (the topology's NPUs where a row does not say)
  ErrorSummary errors;
};

struct ValidationResult {
  std::vector<ValidationRow> rows;  // in the order of the measurements
  /// Rows left out: collectives of no elements, which the library discards
  /// (LibraryProfile::discards), so that nccl-tests times its own loop on them.
  std::size_t discarded_rows = 0;
  ErrorSummary all, small, mid, large;
  std::vector<OperationErrors> by_operation;  // in the order of each operation's first row
  std::vector<TableErrors> by_table;          // in the order of each table's first row
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

/// The most error a table may have: its median and 90th percentile of |error| (fractions),
/// each at most these, e.g. 0.10 and 0.25.
struct ErrorLimits {
  double median_abs_error = 0;
  double p90_abs_error = 0;
};

/// The tables of `result` (by_table) whose median or p90 of |error| is over `limits`, in order.
std::vector<TableErrors> tables_over(const ValidationResult& result, const ErrorLimits& limits);

}  // namespace commsim
