#pragma once
// The output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf, ..., sendrecv_perf)
// exactly as the tool prints it, one log holding one run or several (a script that runs the
// tests in turn). A run of nccl-tests 2.17 reads:
//
//   # nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902
//   # Collective test starting: all_reduce_perf
//   # nThread 1 nGpus 1 minBytes 33554432 maxBytes 68719476736 step: 2(factor) ...
//   # Using devices
//   #  Rank  0 Group  0 Pid 4180122 on cnode3-002 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3
//   ...
//   #       size         count      type   redop    root     time   algbw   busbw  #wrong ...
//       33554432       4194304    double     sum      -1   182.87  183.49  321.10       0 ...
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 437.957
//   # Collective test concluded: all_reduce_perf
//
// What each row is comes from the run's header:
//   - the operation from "# Collective test starting: NAME_perf", or in older logs without
//     that line from a command line naming the program ("./build/all_reduce_perf -b 8 ...");
//   - the ranks from the "#  Rank N ... on HOST device D" lines, one per rank both for one
//     process driving several GPUs (-g 8) and for MPI runs; the nodes are the distinct hosts;
//   - the NCCL version from an "NCCL version 2.x.y" line (NCCL_DEBUG=VERSION or INFO), else
//     from the header's nccl-library code.
// Lines NCCL itself prints (NCCL_DEBUG=INFO: "host:pid:tid [0] NCCL INFO ...") are skipped,
// and a launcher's tag before each line ("[1,0]<stdout>:", "[0] ", "0: ") is read past.
// An in-place group that is all N/A is a row without an in-place time; N/A in #wrong means
// the data was not checked.
//
// A run of a program whose operation commsim does not model (gather_perf, scatter_perf,
// hypercube_perf, ...) is left out, and named with its rows in MeasurementSet::left_out.
//
// Errors (InputError "PATH:LINE: ..."): a size or other field that is not a number, a row
// with too few or too many fields, a row before any line naming its test, and a log without
// a single row of an operation commsim models.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "study/measurement.h"

namespace commsim {

MeasurementSet read_nccl_tests_log(const std::string& path);
/// The same from text in memory; `origin` names it in messages and in each row's source.
MeasurementSet parse_nccl_tests_log(std::string_view text, const std::string& origin);

/// "2.29.2" from nccl.h's NCCL_VERSION_CODE as nccl-tests prints it (nccl-library=22902):
/// X*10000 + Y*100 + Z from 2.9 on, X*1000 + Y*100 + Z before.
std::string nccl_version_from_code(unsigned code);

/// "all_reduce" for a word naming an nccl-tests program: "all_reduce_perf",
/// "./build/all_reduce_perf", "all_reduce_perf_mpi" (built with NAME_SUFFIX=_mpi); empty for
/// any other word.
std::optional<std::string_view> nccl_tests_program_test(std::string_view word);

/// `row`'s ranks (one per entry), nodes (distinct hosts) and GPUs per node (when every host
/// has as many) from the host each rank ran on.
void set_ranks_by_host(const std::map<std::size_t, std::string>& host_by_rank, Measurement& row);

}  // namespace commsim
