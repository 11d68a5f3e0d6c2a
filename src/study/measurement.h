#pragma once
// Published measurements of GPU communication, as the readers of study/ return them: one row
// per timed size, in nccl-tests' terms (doc/PERFORMANCE.md of NVIDIA/nccl-tests):
//   size   bytes, as nccl-tests prints it (base/collectives.h says per collective what it is)
//   time   microseconds per call, the mean over the timed iterations
//   algbw  size / time, GB/s (1e9 B/s)
//   busbw  algbw * the collective's bus factor (base/collectives.h busbw_factor), GB/s
// The readers (nccl_tests_log.h, measurement_csv.h, p2p_profile_log.h) and the dispatcher
// read_measurements (read_measurements.h) all give a MeasurementSet.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"

namespace commsim {

/// What a measurement timed: a collective, or a point-to-point transfer (nccl-tests'
/// sendrecv_perf, where every rank sends to the next at once, or one profiled send/receive).
struct MeasuredOperation {
  std::optional<CollectiveKind> collective;  // empty: point-to-point

  static MeasuredOperation of(CollectiveKind kind) { return {kind}; }
  static MeasuredOperation point_to_point() { return {}; }
  bool is_p2p() const { return !collective.has_value(); }
  bool operator==(const MeasuredOperation&) const = default;
};

/// commsim's name of the operation: "allreduce", "alltoall", ..., "sendrecv" for P2P.
std::string measured_operation_name(const MeasuredOperation& operation);
/// commsim's names of every operation a measurement may time, in its order of collectives,
/// "sendrecv" last.
std::vector<std::string_view> measured_operation_names();
/// The operation an nccl-tests name stands for: all_reduce, all_gather, reduce_scatter,
/// alltoall, broadcast, reduce, sendrecv. nccl-tests writes commsim's collective names with
/// '_' between the words; names are read in any spelling (base/name_match.h), so commsim's own
/// ("allreduce") are accepted too.
std::optional<MeasuredOperation> measured_operation_from_name(std::string_view name);
/// As measured_operation_from_name; an unknown name is an InputError
/// "<where>: unknown collective 'gather' (known: ...)".
MeasuredOperation parse_measured_operation(std::string_view name, std::string_view where);

/// One timed run of a size: nccl-tests' time, algbw, busbw and #wrong columns of one buffer
/// placement (out of place, or in place).
struct MeasuredTime {
  double time_us = 0;     // one call, microseconds: nccl-tests' mean, a P2P profile's median
  double algbw_GBps = 0;  // size / time, GB/s (1e9 B/s)
  /// algbw * bus factor, GB/s; empty where the source gives none (validation derives it at
  /// the ranks it runs: complete_for).
  std::optional<double> busbw_GBps;
  /// nccl-tests' #wrong: elements that failed the data check; empty when it printed N/A
  /// (no check), when the source has no such column, or when it printed the older "error"
  /// column (a largest deviation, not a count).
  std::optional<std::uint64_t> wrong_elements;
};

/// One row: one operation at one size on one set of ranks.
struct Measurement {
  MeasuredOperation operation;
  std::size_t ranks = 0;          // ranks taking part; 0 when the source does not say
  std::size_t nodes = 0;          // hosts they ran on; 0 when unknown
  std::size_t gpus_per_node = 0;  // ranks per host when every host has as many; else 0
  std::size_t gpus_per_thread = 0;  // GPUs one host thread drives (nccl-tests -g); 0 when unknown
  Bytes size_bytes = 0;           // nccl-tests' size column
  std::optional<std::uint64_t> count_elements;  // nccl-tests' count column, when given
  std::string type;           // element type as printed: "float", "double"; empty when unknown
  std::string redop;          // reduction as printed: "sum", "none"; empty when unknown
  int root = -1;              // the root rank of Broadcast and Reduce; -1 for none, as nccl-tests
  MeasuredTime out_of_place;  // separate send and receive buffers
  std::optional<MeasuredTime> in_place;  // one buffer; empty when not measured
  // A P2P profile's row: who sent to whom, and over how many timed transfers the time is
  // the median.
  std::optional<std::size_t> src_rank;
  std::optional<std::size_t> dst_rank;
  std::optional<std::size_t> repetitions;
  std::string source;  // "PATH:LINE" of the row it was read from
};

/// nccl-tests' "# Avg bus bandwidth" footer of one run: the mean busbw over every row and
/// both placements of that run.
struct ReportedAverage {
  MeasuredOperation operation;
  double avg_busbw_GBps = 0;
  std::string source;  // "PATH:LINE" of the footer
};

/// The bus factor of `m`'s operation at its ranks (busbw_factor; 1 for point-to-point).
double bus_factor(const Measurement& m);
/// `m` on `npus` ranks where it does not say how many (a profiled pair keeps its two), with
/// the busbw its source did not give derived from algbw at those ranks.
Measurement complete_for(Measurement m, std::size_t npus);

/// A run of an nccl-tests program whose operation commsim does not model (gather_perf,
/// scatter_perf, hypercube_perf, ...): left out of the rows, and said so.
struct LeftOutRun {
  std::string test;      // "gather", as the program names it
  std::size_t rows = 0;  // the data rows it printed
  std::string source;    // "PATH:LINE" of the line naming the program
};

/// "gather (20 rows, t.log:12), scatter (20 rows, t.log:40)": the runs left out, for messages.
std::string left_out_text(const std::vector<LeftOutRun>& runs);
/// "<origin>: no rows of an operation commsim predicts: its runs are of gather (20 rows,
/// t.log:12) (operations: allreduce, ...)": the error for a file whose every run is left out.
std::string nothing_but_left_out_message(const std::string& origin, const std::vector<LeftOutRun>& runs);

/// Whether `name` is one of nccl-tests' tests that commsim does not model: gather, scatter,
/// hypercube (NVIDIA/nccl-tests src/gather.cu, scatter.cu, hypercube.cu; the other seven are
/// measured_operation_names()). A table's rows of them are left out, as a log's runs are;
/// any other unknown name is still an error (a misspelt collective must not vanish).
bool is_nccl_test_without_model(std::string_view name);

/// The rows of one file, with what its header says about the run.
struct MeasurementSet {
  std::string origin;  // the file (or the name given for text) the rows came from
  std::vector<Measurement> rows;
  std::string nccl_version;        // "2.29.2"; empty when the source does not say
  std::string nccl_tests_version;  // "2.17.8", from an nccl-tests log's first line
  std::string device_name;         // "NVIDIA H100 80GB HBM3", from a log's device lines
  std::vector<ReportedAverage> reported_averages;  // nccl-tests logs: one per run
  std::vector<std::string> comments;  // a CSV's '#' lines without the '#': source, system
  std::vector<LeftOutRun> left_out;   // runs (a table's rows) of operations without a model
  /// What the run did that its times hold beyond calls issued back to back, as commsim times
  /// them (nccl-tests -z blocking calls, -G CUDA graphs, -m aggregated calls), each said
  /// once with where it first shows: "calls launched from CUDA graphs (-G 1) ... (t.log:3)".
  std::vector<std::string> timing_notes;
};

/// Adds "`note` (`source`)" to `set.timing_notes` unless `note` is there already.
void add_timing_note(MeasurementSet& set, const std::string& note, const std::string& source);
/// The note of nccl-tests' blocking calls (-z; its header line "Blocking Enabled: ...",
/// `how` the text after the colon).
std::string blocking_calls_note(std::string_view how);
/// The note of nccl-tests' CUDA graph launches (-G N, N > 0).
std::string graph_launches_note(std::uint64_t launches);
/// The note of nccl-tests' aggregated calls (-m N, N > 1: N calls in one ncclGroupStart/End).
std::string aggregated_calls_note(std::uint64_t calls);

}  // namespace commsim
