#include "run_progress.h"

#include <unistd.h>

#include <iostream>

namespace commsim::cli {

constexpr double kShowAfterSeconds = 2;
constexpr double kLineIntervalSeconds = 5;

void add_quiet_option(po::options_description& options) {
  options.add_options()("quiet", "no progress on stderr (shown when a run takes more than 2 s)");
}

Progress run_progress(const po::variables_map& vm, std::size_t total, const std::string& unit) {
  return Progress(std::cerr, total, unit, progress_style(vm.count("quiet") > 0, isatty(2) != 0),
                  Progress::steady_seconds, kLineIntervalSeconds, kShowAfterSeconds);
}

}  // namespace commsim::cli
