#include "topology/presets.h"

#include <algorithm>
#include <filesystem>

#include "base/error.h"
#include "base/input_file.h"
#include "base/joined.h"
#include "base/words.h"
#include "topology/preset_specs.h"

namespace commsim {
namespace {

constexpr std::string_view kSpecExtension = ".textproto";

// The presets of the SXM GPUs they describe, by a word of CUDA's name of the GPU (its start:
// "A100-SXM" is the word "A100-SXM4-80GB"). The H100 SXM5 is "NVIDIA H100 80GB HBM3", the H200
// SXM "NVIDIA H200", the B200 "NVIDIA B200"; "GH200" and "GB200" (Grace superchips) are other
// words. H200 nodes across a network take the H100 cluster's preset: the same Hopper GPU
// (compute capability 9.0, NCCL's constants) and NVLink4, and the DGX H200's compute fabric is
// the DGX H100's, 8 single-port ConnectX-7 NICs of 400 Gb/s (NVIDIA DGX H100/H200 datasheet).
struct DevicePresets {
  std::string_view word;
  std::string_view node, cluster;  // empty: none
};
constexpr DevicePresets kDevicePresets[] = {
    {"H100", "h100-nvswitch-node", "h100-ib-cluster"},
    {"H200", "h200-nvswitch-node", "h100-ib-cluster"},
    {"A100-SXM", "a100-nvswitch-node", "a100-ib-cluster"},
    {"B200", "b200-nvswitch-node", "b200-ib-cluster"},
};

// Words of a card without NVSwitch: "NVIDIA H100 PCIe", "NVIDIA A100-PCIE-40GB", "NVIDIA H100 NVL".
bool is_card_word(std::string_view word) {
  return word.starts_with("PCIe") || word.starts_with("PCIE") || word == "NVL" || word.find("-PCIE") != word.npos;
}

}  // namespace

std::optional<std::string_view> preset_of_device(std::string_view device, bool across_nodes) {
  const std::vector<std::string_view> words = whitespace_fields(device);
  if (std::any_of(words.begin(), words.end(), is_card_word)) return std::nullopt;
  for (const DevicePresets& presets : kDevicePresets) {
    const bool named =
        std::any_of(words.begin(), words.end(), [&](std::string_view word) { return word.starts_with(presets.word); });
    if (!named) continue;
    const std::string_view preset = across_nodes ? presets.cluster : presets.node;
    if (preset.empty()) return std::nullopt;
    return preset;
  }
  return std::nullopt;
}

std::optional<std::string_view> built_in_preset(std::string_view name) {
  if (name.ends_with(kSpecExtension)) name.remove_suffix(kSpecExtension.size());
  for (const PresetSpec& preset : kPresetSpecs) {
    if (preset.name == name) return preset.text;
  }
  return std::nullopt;
}

std::vector<std::string_view> built_in_preset_names() {
  std::vector<std::string_view> names;
  for (const PresetSpec& preset : kPresetSpecs) names.push_back(preset.name);
  return names;
}

std::string read_topology_spec_text(const std::string& path) {
  const std::string presets = "a built-in preset: " + joined(built_in_preset_names());
  if (path.empty()) throw InputError("a topology file's name is empty: give a spec file or " + presets);
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) {
    if (const auto preset = built_in_preset(path)) return std::string(*preset);
    throw InputError(path + ": cannot open topology file (no such file, nor " + presets + ")");
  }
  return read_input_file(path, "topology file");
}

}  // namespace commsim
