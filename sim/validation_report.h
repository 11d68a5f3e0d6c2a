#pragma once
// How validate and calibrate print measured-against-predicted: the nccl-tests-like table and
// the error summary line.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "command_line.h"
#include "report/plot.h"
#include "study/measurement.h"
#include "study/validation.h"
#include "topology/spec_file.h"

namespace commsim::cli {

/// "simple", or "-" for none (the ideal library).
std::string protocol_text(const std::optional<Protocol>& protocol);
/// "all 5.9% / 16.1% (10 rows); <= 64 KiB -; 64 KiB..64 MiB 20.7% / 20.7% (1 rows); ..."
std::string error_summary(const ValidationResult& result);
/// "allreduce 2.0% / 3.1% (28 rows); allgather 16.2% / 18.2% (26 rows); ...", in the order of
/// each operation's first row; empty for rows of one operation.
std::string operation_summary(const ValidationResult& result);
/// "allreduce at 80 ranks 14.6% / 46.5% (10 rows)": a table's median / p90 of |error|.
std::string table_errors_text(const TableErrors& table);
/// Whether the rows make more tables than operations: an operation at several scales.
bool has_several_scales(const ValidationResult& result);
/// A line per table (an operation at one scale, study/validation.h TableErrors), in the order
/// of each table's first row: its ranks, rows, and median / p90 of |error| in percent, under
/// the header "# |error| by operation and scale:"; with `after`, the same tables after a
/// calibration beside them. Nothing unless has_several_scales(before).
void print_table_errors(std::ostream& out, const ValidationResult& before, const ValidationResult* after = nullptr);
/// One row per measurement, then print_alpha_beta_runs, then with several operations
/// "# |error| median / p90 by operation: <operation_summary>", with an operation at several
/// scales print_table_errors, then "# |error| median / p90: <error_summary>".
void print_validation_table(std::ostream& out, const ValidationResult& result);
/// A row per run of one algorithm and protocol (study/alpha_beta.h): the measured and the
/// predicted alpha and busbw, to tell a latency's miss from a bandwidth's; nothing without rows.
void print_alpha_beta_runs(std::ostream& out, const ValidationResult& result);

/// Measured (points) and predicted (lines) time and bus bandwidth against size, one colour
/// per operation, log axes.
Figure validation_figure(const std::string& title, const ValidationResult& result);

/// Which rows are predicted and how: --operation NAME[,NAME...] to keep the rows of some
/// operations, --algorithm NAME for collective rows, the library options, and --jobs N.
po::options_description prediction_options();
/// The rows of `rows` whose operation --operation names (all of them without it), in order.
/// Throws InputError on an unknown name, or where none of `rows` is kept (`what` says whose:
/// "measured", "held-out").
std::vector<Measurement> selected_rows(const po::variables_map& vm, const std::vector<Measurement>& rows,
                                       const std::string& what);
/// Throws InputError on a bad value (topology_options.h, library_from_options).
ValidationOptions validation_options(const po::variables_map& vm, const Topology& topology);
/// InputError where --algorithm (`options.algorithm`) does not implement the collective of
/// some of `rows`, before any is predicted: it names them, their first row, and the
/// --operation that keeps the rows it can run. Send/receive rows take no algorithm.
void check_algorithm_runs_rows(const ValidationOptions& options, const std::vector<Measurement>& rows);

/// Every file's rows and what it says of its run (study/read_measurements.h), in order.
std::vector<MeasurementSet> read_measurement_sets(const std::vector<std::string>& paths);
/// Every row of every file, in order.
std::vector<Measurement> rows_of(const std::vector<MeasurementSet>& sets);
/// "# measured: FILE: NVIDIA H100 80GB HBM3, NCCL 2.29.2, nccl-tests 2.17.8\n", a line a file,
/// with what it says ("NCCL release not stated" where it names none), each followed by the
/// file's caveat lines (below).
std::string measured_with_lines(const std::vector<MeasurementSet>& sets);
/// "# left out: gather (20 rows, t.log:12): commsim has no model of that operation", a line
/// per file whose runs of operations without a model were left out, then "# note: ..." a line
/// per timing note (MeasurementSet::timing_notes: blocking calls, CUDA graphs); empty when
/// no file has either.
std::string caveat_lines(const std::vector<MeasurementSet>& sets);
/// The nodes and GPUs per node every row says it ran on (each empty where rows disagree or
/// do not say), for topology_from_options.
SpecScale measured_scale(const std::vector<Measurement>& rows);
/// The rows by the scale they ran at, each group with the topology the options describe
/// built at it (topology_from_options): one group when the rows name one scale or none (a
/// file of one run), else a group per scale they name (nodes x GPUs a node), in the order
/// each first comes, each with its rows' places among them (validate lists them as read): a
/// cluster spec measured at 10 x 2, 10 x 4 and 10 x 8 runs each row at its own. Options that
/// fix the scale (--nodes, --gpus-per-node) fix it for every group.
/// `measured_system` (measured_system_preset) is built where no topology option is given.
std::vector<MeasuredRows> measured_groups(const po::variables_map& vm, const std::vector<Measurement>& rows,
                                          const std::optional<std::string>& measured_system = std::nullopt);
/// Where no topology option is given, the shipped preset of the system every file names by
/// its GPUs (topology/presets.h, preset_of_device): the node's, or the cluster's when rows ran
/// on several nodes. None where an option gives the topology, a file names no GPU (a CSV
/// table), the files name different GPUs, or the GPU has no preset.
std::optional<std::string> measured_system_preset(const po::variables_map& vm, const std::vector<MeasurementSet>& sets);
/// "# topology: h100-ib-cluster, the preset of the NVIDIA H100 80GB HBM3 the measurements
/// name (--topology-file gives another)\n", or nothing without a preset.
std::string measured_system_line(const std::optional<std::string>& preset, const std::vector<MeasurementSet>& sets);
/// "h100-ib-cluster (hierarchical, 10 nodes x 8 GPUs, rail-optimised)", or with several
/// groups the topology's name and each group's description: "h100-ib-cluster (hierarchical,
/// 10 nodes x 2 GPUs, ...; hierarchical, 10 nodes x 4 GPUs, ...)".
std::string groups_text(const std::vector<MeasuredRows>& groups);

}  // namespace commsim::cli
