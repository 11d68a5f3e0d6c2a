// No layer includes a layer above it (DESIGN.md section 2, "Layers"). Every file under src/
// is scanned for #include "X/..." and X checked against what its folder may include, the
// layers below it as DESIGN.md draws them:
//
//   study       everything in src/ (sim/ above it is the command line)
//   workload    collective, pipeline, model and all below (a trace's collectives and
//               pipeline steps run as those layers run them; a library's protocol is
//               picked by the closed form, DESIGN.md section 3 "Communication library")
//   collective, pipeline   network, engine, topology, base
//   model       topology, base: never engine or network, so that the cross-check of
//               simulator and closed form is between two independent things
//   report      base: it reads plain result structs
//   network     engine, topology, base
//   engine, topology       base
//   base        nothing
// and every layer may include proto/ (the generated schemas). An include without a folder
// ("cli.h") reaches into sim/ or outside src/: refused too.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace commsim {
namespace {

namespace fs = std::filesystem;

// What each layer may include besides itself, every layer below it spelled out.
const std::map<std::string, std::set<std::string>>& allowed_includes() {
  static const std::map<std::string, std::set<std::string>> table{
      {"base", {}},
      {"engine", {"base"}},
      {"topology", {"base"}},
      {"network", {"engine", "topology", "base"}},
      {"model", {"topology", "base"}},
      {"collective", {"network", "engine", "topology", "base"}},
      {"pipeline", {"network", "engine", "topology", "base"}},
      {"report", {"base"}},
      {"workload", {"collective", "pipeline", "model", "network", "engine", "topology", "base"}},
      {"study", {"workload", "collective", "pipeline", "model", "report", "network", "engine", "topology", "base"}},
  };
  return table;
}

// Includes every layer may use: the generated protobuf schemas.
const std::set<std::string> kEverywhere{"proto"};

/// "src/model/x.cpp:12: model includes network/network.h, a layer above it" for each include
/// of a file under `src` that goes up a layer, or names no layer.
std::vector<std::string> layer_violations(const fs::path& src) {
  const std::regex include(R"(^\s*#\s*include\s*"([^"]*)\")");
  std::vector<std::string> violations;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), src);
    const std::string layer = relative.begin()->string();
    const auto allowed = allowed_includes().find(layer);
    if (allowed == allowed_includes().end()) {
      if (relative.has_parent_path()) violations.push_back(relative.string() + ": folder of no known layer");
      continue;  // src/CMakeLists.txt
    }
    std::ifstream in(entry.path());
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string target = m[1];
      const std::string target_layer = target.substr(0, target.find('/'));
      const std::string where = (fs::path("src") / relative).string() + ":" + std::to_string(number) + ": ";
      if (target.find('/') == std::string::npos) {
        violations.push_back(where + "includes " + target + ", in no layer of src/");
      } else if (target_layer != layer && !allowed->second.count(target_layer) && !kEverywhere.count(target_layer)) {
        violations.push_back(where + layer + " includes " + target + ", a layer above it");
      }
    }
  }
  return violations;
}

TEST(Layers, EveryFolderOfSrcIsALayer) {
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(COMMSIM_SOURCE_DIR) / "src")) {
    if (entry.is_directory()) {
      EXPECT_TRUE(allowed_includes().count(entry.path().filename().string())) << entry.path();
    }
  }
}

TEST(Layers, NoIncludeGoesUpALayer) {
  const std::vector<std::string> violations = layer_violations(fs::path(COMMSIM_SOURCE_DIR) / "src");
  std::string list;
  for (const std::string& v : violations) list += v + "\n";
  EXPECT_TRUE(violations.empty()) << list;
}

TEST(Layers, TheCheckSeesAnUpwardInclude) {
  // A model file that includes the network, a collective one that includes the study, one
  // that reaches into sim/: three violations; includes of its own layer, below, <...> and
  // proto are fine.
  const fs::path src = fs::path(COMMSIM_TEST_TMP_DIR) / "layers-src";
  fs::remove_all(src);
  fs::create_directories(src / "model");
  fs::create_directories(src / "collective");
  std::ofstream(src / "model" / "bad.cpp") << "#include <vector>\n#include \"model/cost_plan.h\"\n"
                                              "#include \"topology/topology.h\"\n#include \"network/network.h\"\n";
  std::ofstream(src / "collective" / "bad.h") << "#pragma once\n#include \"proto/topology.pb.h\"\n"
                                                 "  #  include \"study/validation.h\"\n#include \"cli.h\"\n";
  const std::vector<std::string> violations = layer_violations(src);
  ASSERT_EQ(violations.size(), 3u);
  std::set<std::string> found(violations.begin(), violations.end());
  EXPECT_TRUE(found.count("src/model/bad.cpp:4: model includes network/network.h, a layer above it"));
  EXPECT_TRUE(found.count("src/collective/bad.h:3: collective includes study/validation.h, a layer above it"));
  EXPECT_TRUE(found.count("src/collective/bad.h:4: includes cli.h, in no layer of src/"));
}

}  // namespace
}  // namespace commsim
