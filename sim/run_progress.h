#pragma once
// Progress of one long run on stderr, as every command shows it: nothing for a run that ends
// within 2 s, then a bar on a terminal or a line every 5 s elsewhere (report/progress.h);
// --quiet silences it.

#include <cstddef>
#include <string>

#include "command_line.h"
#include "report/progress.h"

namespace commsim::cli {

/// Adds --quiet.
void add_quiet_option(po::options_description& options);

/// The progress of a run of `total` `unit` ("points", "runs", "nodes").
Progress run_progress(const po::variables_map& vm, std::size_t total, const std::string& unit);

}  // namespace commsim::cli
