#pragma once
// What commsim replay reports of each collective it ran (workload/replayed_collective.h):
// a table in the text report, identical collectives tallied as one row, and the rows of
// --collectives-csv and --collectives-json, one per collective in the order they started.

#include <ostream>
#include <string>
#include <vector>

#include "workload/replay.h"

namespace commsim::cli {

/// The table: one row per distinct (collective, group, size, algorithm, protocol) with its
/// count and mean, min, max and total time, the most total time first, at most 40 rows.
void print_collective_table(std::ostream& out, const Workload& workload, const ReplayResult& result);

/// "index,rank,node,name,collective,group,ranks,size_bytes,algorithm,protocol,start_us,time_us,algbw_GBps,busbw_GBps".
std::string collective_rows_header();
/// The row of the index-th collective of the replay.
std::vector<std::string> collective_cells(const Workload& workload, std::size_t index, const ReplayedCollective& c);
/// The same row as JSON Lines, names from the header.
std::string collective_json_line(const std::vector<std::string>& cells);

}  // namespace commsim::cli
