#include "topology/presets.h"

#include <filesystem>

#include "base/error.h"
#include "base/input_file.h"
#include "base/joined.h"
#include "topology/preset_specs.h"

namespace commsim {
namespace {

constexpr std::string_view kSpecExtension = ".textproto";

}  // namespace

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
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) {
    if (const auto preset = built_in_preset(path)) return std::string(*preset);
    throw InputError(path + ": cannot open topology file (no such file, nor a built-in preset: " +
                     joined(built_in_preset_names()) + ")");
  }
  return read_input_file(path, "topology file");
}

}  // namespace commsim
