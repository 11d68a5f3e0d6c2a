#pragma once
// Runs the commsim command line in-process and captures what it prints.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace commsim::testing {

struct CliResult {
  int status;
  std::string out;
  std::string err;
};

inline CliResult run_commsim(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int status = cli::run(args, out, err);
  return {status, out.str(), err.str()};
}

inline std::string source_path(const std::string& relative) {
  return std::string(COMMSIM_SOURCE_DIR) + "/" + relative;
}

inline std::string tmp_path(const std::string& name) {
  return std::string(COMMSIM_TEST_TMP_DIR) + "/" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace commsim::testing
