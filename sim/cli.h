#pragma once
// The commsim command line: dispatches to a subcommand and turns bad input into
// "commsim: error: ..." on `err` with exit status 2.

#include <ostream>
#include <string>
#include <vector>

namespace commsim::cli {

/// `args` excludes the program name. Returns the exit status: 2 also when what the command
/// wrote to `out` could not be written.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace commsim::cli
