#include "topology/presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../expect_contains.h"
#include "base/error.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

const std::filesystem::path kTopologies = std::filesystem::path(COMMSIM_SOURCE_DIR) / "topologies";

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string error_of(const std::string& path) {
  try {
    read_topology_spec_text(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Every spec in topologies/ is built in under its name, byte for byte, and nothing else is.
TEST(Presets, EveryShippedSpecIsBuiltInAsItsFileReads) {
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kTopologies)) {
    if (entry.path().extension() != ".textproto") continue;
    const std::string name = entry.path().stem().string();
    files.insert(name);
    const auto preset = built_in_preset(name);
    ASSERT_TRUE(preset.has_value()) << name;
    EXPECT_EQ(std::string(*preset), file_text(entry.path())) << name;
    EXPECT_EQ(built_in_preset(name + ".textproto"), preset) << name;
  }
  const std::vector<std::string_view> listed = built_in_preset_names();
  const std::set<std::string> names(listed.begin(), listed.end());
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));
  EXPECT_EQ(names, files);
  EXPECT_TRUE(files.contains("h100-ib-cluster"));
  EXPECT_FALSE(built_in_preset("h100-ib-clustr").has_value());
  EXPECT_FALSE(built_in_preset("").has_value());
}

// A name reads the preset where no file is; a file of that name, where there is one, wins.
TEST(Presets, AFileOfTheNameWinsOverThePreset) {
  EXPECT_EQ(read_topology_spec_text("h100-ib-cluster"), file_text(kTopologies / "h100-ib-cluster.textproto"));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "commsim-presets-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "h100-ib-cluster") << "name: \"mine\"\n";
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  const std::string mine = read_topology_spec_text("h100-ib-cluster");
  std::filesystem::current_path(before);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(mine, "name: \"mine\"\n");
}

TEST(Presets, ANameThatIsNeitherFileNorPresetListsThePresets) {
  EXPECT_CONTAINS(error_of("h100-ib-clustr"),
                  "h100-ib-clustr: cannot open topology file (no such file, nor a built-in preset: a100-ib-cluster, "
                  "a100-nvswitch-node, b200-ib-cluster, ");
  EXPECT_CONTAINS(error_of("/nonexistent/h100-ib-cluster.textproto"), "cannot open topology file");
  EXPECT_CONTAINS(error_of(""), "a topology file's name is empty: give a spec file or a built-in preset: a100-");
  // A directory is no spec, whatever its name.
  EXPECT_CONTAINS(error_of(COMMSIM_SOURCE_DIR), ": cannot open topology file");
}

// CUDA's names of SXM GPUs give their node's preset, or across nodes their cluster's; cards
// (PCIe, NVL), Grace superchips and other GPUs give none.
TEST(Presets, TheSystemOfAMeasuredGpu) {
  const auto preset = [](std::string_view device, bool across_nodes) {
    return std::string(preset_of_device(device, across_nodes).value_or("none"));
  };
  EXPECT_EQ(preset("NVIDIA H100 80GB HBM3", false), "h100-nvswitch-node");
  EXPECT_EQ(preset("NVIDIA H100 80GB HBM3", true), "h100-ib-cluster");
  EXPECT_EQ(preset("NVIDIA A100-SXM4-80GB", false), "a100-nvswitch-node");
  EXPECT_EQ(preset("NVIDIA A100-SXM4-40GB", true), "a100-ib-cluster");
  EXPECT_EQ(preset("NVIDIA H200", false), "h200-nvswitch-node");
  EXPECT_EQ(preset("NVIDIA H200", true), "h100-ib-cluster");  // the same GPU, NVLink and NICs
  EXPECT_EQ(preset("NVIDIA B200", true), "b200-ib-cluster");
  for (const std::string_view other :
       {"NVIDIA H100 PCIe", "NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe",
        "NVIDIA GH200 480GB", "NVIDIA GB200", "NVIDIA H800", "NVIDIA GeForce RTX 2080 Ti", ""}) {
    EXPECT_EQ(preset(other, false), "none") << other;
  }
  // Every preset named is shipped.
  for (const bool across : {false, true}) {
    for (const std::string_view gpu : {"H100", "H200", "A100-SXM4", "B200"}) {
      if (const auto name = preset_of_device(gpu, across)) {
        EXPECT_TRUE(built_in_preset(*name).has_value()) << *name;
      }
    }
  }
}

// The default topology is the H100 node's preset.
TEST(Presets, TheDefaultTopologyIsTheNodePreset) {
  const TopologyConfig node = load_builder_config("h100-nvswitch-node");
  const TopologyConfig fallback = default_topology_config();
  EXPECT_EQ(fallback.name, node.name);
  EXPECT_EQ(fallback.npus, node.npus);
  EXPECT_EQ(fallback.library.name, node.library.name);
}

}  // namespace
}  // namespace commsim
