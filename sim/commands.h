#pragma once
// The subcommands. Each takes its arguments (after the subcommand's name), writes its
// report to `out` (and warnings, where it has any, to `err`), returns the exit status, and
// throws InputError on bad input.

#include <ostream>
#include <string>
#include <vector>

namespace commsim::cli {

int run_topo(const std::vector<std::string>& args, std::ostream& out);
int run_p2p(const std::vector<std::string>& args, std::ostream& out);
int run_collective(const std::vector<std::string>& args, std::ostream& out);
int run_pipeline(const std::vector<std::string>& args, std::ostream& out);
int run_generate(const std::vector<std::string>& args, std::ostream& out);
int run_replay(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_validate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_calibrate(const std::vector<std::string>& args, std::ostream& out);
int run_sweep(const std::vector<std::string>& args, std::ostream& out);
int run_analyze(const std::vector<std::string>& args, std::ostream& out);

}  // namespace commsim::cli
