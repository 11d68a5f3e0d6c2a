#pragma once
// The one table of GPU generations that topologies are built from when the hardware is named
// rather than measured (`commsim topo --import-nvidia-smi --gpu NAME`): NVLink links and
// their bandwidth, the PCIe generation, and the host's link between CPU sockets. Figures
// are those NCCL sustains (its src/graph/topo.h and topo.cc), with the datasheet's beside
// them, as in the presets of topologies/ (DESIGN.md section 3, "Communication library").

#include <cstdint>
#include <string>
#include <string_view>

#include "base/units.h"

namespace commsim {

struct GpuGeneration {
  std::string_view name;         // as --gpu takes it: "h100"
  std::string_view description;  // "NVIDIA H100 SXM5 (Hopper, NVLink4)"
  /// NVLink links per GPU; 0: the GPU has no NVLink.
  std::uint32_t nvlinks = 0;
  /// One NVLink link, per direction: as NCCL sustains it, and the datasheet's figure.
  BandwidthBps nvlink_Bps = 0;
  BandwidthBps nvlink_datasheet_Bps = 0;
  std::string_view nvlink_source;  // where both figures come from
  /// The GPU's PCIe generation; every PCIe link of an imported node is x16 of it.
  std::uint32_t pcie_gen = 0;
  /// Its NVSwitch reduces in the fabric (NVLink SHARP, third generation on).
  bool nvswitch_reduces = false;
  /// The link between two CPU sockets of the generation's reference host, per direction,
  /// as NCCL rates it; `host` names the CPU and NCCL's constant.
  BandwidthBps socket_link_Bps = 0;
  std::string_view host;
  /// The built-in NCCL profile of its compute capability (topology/library.h), as NCCL
  /// indexes its caps: Volta for 7.x, Ampere for 8.x, Hopper for 9.0, Blackwell for 10.0.
  std::string_view nccl_library;
};

/// The generation named `name`. Throws InputError "<what>: unknown GPU 'NAME' (known: ...)".
const GpuGeneration& gpu_generation(std::string_view name, std::string_view what);
/// "v100, a100, ...": every name, for help and errors.
std::string gpu_generation_names();

/// One PCIe x16 link of generation `gen`, per direction, as NCCL rates it: width x
/// per-lane rate / 80 GB/s with 60, 120, 240 (x100 Mb/s) per lane for Gen3, 4, 5
/// (NVIDIA/nccl src/graph/topo.cc, kvDictPciGen and ncclTopoAddPci): 12, 24, 48 GB/s,
/// three quarters of the datasheet's. Throws InputError for another generation.
BandwidthBps pcie_x16_Bps(std::uint32_t gen);
/// The datasheet's x16 figure: GT/s x 16 lanes x 128/130 / 8 (PCI-SIG; Gen3 8 GT/s,
/// Gen4 16, Gen5 32): 15.75, 31.5, 63 GB/s.
BandwidthBps pcie_x16_datasheet_Bps(std::uint32_t gen);

}  // namespace commsim
