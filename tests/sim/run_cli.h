#pragma once
// Runs the commsim command line in-process and captures what it prints.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../expect_contains.h"
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

/// Runs commsim and expects exit status 2 and one line "commsim: error: ..." containing
/// `fragment`.
inline void expect_error(const std::vector<std::string>& args, const std::string& fragment) {
  std::string command;
  for (const auto& a : args) command += a + " ";
  SCOPED_TRACE(command);
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("commsim: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

/// Runs commsim and expects exit status 2 and a report of several lines: "commsim: error: "
/// `headline`, then only lines indented by two spaces, one of which contains `fragment`.
inline void expect_report(const std::vector<std::string>& args, const std::string& headline,
                          const std::string& fragment) {
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("commsim: error: " + headline + "\n", 0), 0u) << r.err;
  std::istringstream lines(r.err);
  std::string line;
  std::getline(lines, line);
  bool found = false;
  while (std::getline(lines, line)) {
    EXPECT_EQ(line.rfind("  ", 0), 0u) << "indented: " << r.err;
    found = found || line.find(fragment) != std::string::npos;
  }
  EXPECT_TRUE(found) << r.err;
}

inline std::string source_path(const std::string& relative) {
  return std::string(COMMSIM_SOURCE_DIR) + "/" + relative;
}

/// The 8-GPU H100 node as its datasheet describes it (450 GB/s, no library): the default
/// topology until it became the node as NCCL sees it; tests whose numbers were derived on
/// it run on this spec (tests/data/).
inline std::string datasheet_h100() { return source_path("tests/data/h100-nvswitch-node-datasheet.textproto"); }

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

/// Compares `text` with tests/golden/`golden`; with COMMSIM_UPDATE_GOLDEN set, rewrites the
/// golden file instead (after an intended change) and skips.
inline void expect_golden_text(const std::string& text, const std::string& golden) {
  const std::string path = source_path("tests/golden/" + golden);
  if (std::getenv("COMMSIM_UPDATE_GOLDEN")) {
    write_file(path, text);
    GTEST_SKIP() << "rewrote " << path;
  }
  EXPECT_EQ(text, read_file(path)) << "golden: " << path;
}

/// Runs commsim, expects exit status 0, and compares what it printed with the golden file.
inline void expect_golden(const std::vector<std::string>& args, const std::string& golden) {
  const CliResult r = run_commsim(args);
  ASSERT_EQ(r.status, 0) << r.err;
  expect_golden_text(r.out, golden);
}

}  // namespace commsim::testing
