#pragma once
// Tables of nccl-tests rows as CSV (the layout of ../shared/validation/*.csv): '#' lines
// giving the source, system and test, then a header row, then one row per size:
//
//   collective,nranks,nodes,gpus_per_node,size_bytes,count,type,redop,root,
//   oop_time_us,oop_algbw_GBps,oop_busbw_GBps,ip_time_us,ip_algbw_GBps,ip_busbw_GBps
//
// Columns are found by their header name; others (a note) are ignored. Only collective,
// size_bytes and a time are required: oop_time_us, or where it is missing or empty
// time_us_derived (a time derived from a published bandwidth). Any other column may be
// missing, as may its value: nranks,
// nodes, gpus_per_node unknown (0), count, type or redop unknown, root -1, algbw size / time,
// busbw unknown (validation derives it at the ranks it runs: complete_for), the ip_ columns
// no in-place time.
// The collective is nccl-tests' name (all_reduce, ..., sendrecv; measurement.h). Rows of
// nccl-tests' gather, scatter and hypercube, which commsim does not model, are left out and
// counted in MeasurementSet::left_out (a table of nothing else is an error); any other
// unknown name is an error. The NCCL version comes from a "nccl=2.29.2" in a '#' line.
//
// Other CSV layouts of that folder are refused with a message saying what they are: the
// p2pBandwidthLatencyTest matrices (p2p_matrix.h), nccl-tests' bus-bandwidth factors, and
// P2P profile logs (p2p_profile_log.h).

#include <string>
#include <string_view>

#include "study/measurement.h"

namespace commsim {

MeasurementSet read_measurement_csv(const std::string& path);
/// The same from text in memory; `origin` names it in messages and in each row's source.
MeasurementSet parse_measurement_csv(std::string_view text, const std::string& origin);

}  // namespace commsim
