#pragma once
// The topology specs shipped in topologies/, built into the program (preset_specs.h.in), so
// that a spec can be named without its file ("--topology-file h100-ib-cluster") and the
// program runs its default topology wherever it is installed.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

/// The text of the preset `name` ("h100-ib-cluster", or "h100-ib-cluster.textproto"); none
/// for any other name.
std::optional<std::string_view> built_in_preset(std::string_view name);
/// Every preset's name, in order.
std::vector<std::string_view> built_in_preset_names();

/// The text of the topology spec at `path`; where no file is there and `path` names a preset,
/// the preset's. Throws InputError "PATH: cannot open topology file (no such file, nor a
/// built-in preset: a100-ib-cluster, ...)" when neither is.
std::string read_topology_spec_text(const std::string& path);

}  // namespace commsim
