#pragma once
// The JSON report nccl-tests writes with -J FILE (proto/nccl_tests_report.proto has its
// layout): one run of one program, its rows as the text table has them. What each row is
// comes from the report as from a log's header: the operation from the program in "args"
// (all_reduce_perf), the ranks and nodes from the devices' hostnames, the GPUs a thread drives
// from the config's ngpus, the NCCL release from nccl_version.
//
// Errors (InputError "PATH: ..."): JSON that does not parse, a report without args naming an
// nccl-tests program, a program of an operation commsim does not model (gather_perf: the
// report is its one run, so nothing is left to compare, as with a log of nothing else), a
// row without its out-of-place time or with "cpu_time" (-C 1: the host's launch of an
// iteration, not the collective), a root that is not a number, and a report without a row.

#include <string>
#include <string_view>

#include "study/measurement.h"

namespace commsim {

/// The rows of the report `json`; `origin` names it in messages and in each row's source
/// ("PATH: results[3]").
MeasurementSet parse_nccl_tests_json(std::string_view json, const std::string& origin);

/// Whether `text` is an nccl-tests JSON report rather than a log or a table: a JSON object
/// (its first character other than white space is '{').
bool looks_like_nccl_tests_json(std::string_view text);

}  // namespace commsim
