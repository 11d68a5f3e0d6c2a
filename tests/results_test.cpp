// results/: every gnuplot script beside a plot draws that plot, byte for byte, and every plot
// is an SVG document, so a committed figure always renders and matches its script.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/plot.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

const fs::path kResults = fs::path(COMMSIM_SOURCE_DIR) / "results";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> files_ending(const std::string& extension) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kResults)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Results, EveryPlotIsAnSvgDocument) {
  const std::vector<fs::path> plots = files_ending(".svg");
  EXPECT_GE(plots.size(), 20u);
  for (const fs::path& svg : plots) {
    const std::string text = read(svg);
    EXPECT_EQ(text.rfind("<?xml", 0), 0u) << svg;
    EXPECT_NE(text.find("</svg>"), std::string::npos) << svg;
  }
}

TEST(Results, EveryScriptDrawsThePlotBesideIt) {
  require_gnuplot();  // .ci/setup installs it
  const fs::path drawn = fs::path(COMMSIM_TEST_TMP_DIR) / "results-drawn.svg";
  const std::vector<fs::path> scripts = files_ending(".gp");
  EXPECT_GE(scripts.size(), 10u);
  for (const fs::path& script : scripts) {
    fs::path svg = script;
    svg.replace_extension(".svg");
    ASSERT_TRUE(fs::exists(svg)) << script << " has no plot beside it";
    // From the repository root, where results/README.md runs them.
    const std::string command = "cd " + std::string(COMMSIM_SOURCE_DIR) + " && gnuplot " + script.string() + " > " +
                                drawn.string() + " 2> /dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    EXPECT_TRUE(read(drawn) == read(svg)) << script << " does not draw " << svg;
  }
}

}  // namespace
}  // namespace commsim
