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

/// The shipped preset of the system a GPU's name says it ran on: its NVSwitch node, or across
/// nodes its InfiniBand cluster. `device` is the name CUDA gives the GPU, as nccl-tests prints
/// it on its "# Rank" lines ("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB"). None for a GPU
/// without such a preset, a PCIe or NVL card ("NVIDIA H100 PCIe", "NVIDIA H200 NVL") or a
/// name not known, whose system a spec must describe.
std::optional<std::string_view> preset_of_device(std::string_view device, bool across_nodes);

/// The text of the topology spec at `path`; where no file is there and `path` names a preset,
/// the preset's. Throws InputError "PATH: cannot open topology file (no such file, nor a
/// built-in preset: a100-ib-cluster, ...)" when neither is, and for an empty path.
std::string read_topology_spec_text(const std::string& path);

}  // namespace commsim
