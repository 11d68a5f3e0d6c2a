#include "topology/gpu_generations.h"

#include <array>
#include <ranges>
#include <vector>

#include "base/error.h"
#include "base/joined.h"
#include "base/name_match.h"

namespace commsim {
namespace {

constexpr double kGB = kBytesPerGB;

// NVLink per link and direction. Sustained: NCCL's per-link figure, chosen by compute
// capability (NVIDIA/nccl src/graph/topo.h, ncclTopoNVLinkBw: SM70_NVLINK_BW 20.0 for 7.x,
// SM80 20.0, SM90 20.6, SM100 40.1 GB/s). Datasheet: NVIDIA's per-GPU NVLink figure, which
// counts both directions, over 2 x links: V100 300 GB/s / (2 x 6), A100 600 / (2 x 12),
// H100 and H200 900 / (2 x 18): 25 GB/s; B200 1.8 TB/s / (2 x 18) = 50 GB/s; the RTX 2080 Ti
// bridge 100 GB/s / (2 x 2) = 25 GB/s (NVIDIA Turing architecture whitepaper: two x8 links).
//
// Socket links, as NCCL rates the link between CPU sockets (src/graph/topo.h): BDW_QPI_BW
// 6.0, SKL_QPI_BW 10.0, SRP_QPI_BW 22.0, ERP_QPI_BW 40.0, AMD_BW 16.0 GB/s (release 2.26;
// 2.30 names it AMD_ZEN12_BW). The CPU is that of the generation's DGX; for GPUs sold without
// a reference system, a dual-socket host of their time. Only SYS pairs cross it.
// A generation under another name: the same chip or the same kind of PCIe card.
constexpr GpuGeneration named(GpuGeneration g, std::string_view name, std::string_view description) {
  g.name = name;
  g.description = description;
  return g;
}

constexpr GpuGeneration kHopper{"h100", "NVIDIA H100 SXM5 (Hopper, NVLink4)", 18, 20.6 * kGB, 25 * kGB,
                                "SM90_NVLINK_BW; datasheet 900 GB/s over 18 links both ways", 5, true, 22.0 * kGB,
                                "DGX H100 and H200: Intel Xeon Platinum 8480C (Sapphire Rapids), NCCL's SRP_QPI_BW", "nccl"};
constexpr GpuGeneration kAdaPcie{"", "", 0, 0, 0, "", 4, false, 22.0 * kGB,
                                 "a dual-socket Intel Xeon (Sapphire Rapids) host, NCCL's SRP_QPI_BW", "nccl-ampere"};

constexpr std::array<GpuGeneration, 9> kGenerations{{
    {"v100", "NVIDIA Tesla V100 SXM2 (Volta, NVLink2)", 6, 20.0 * kGB, 25 * kGB,
     "SM70_NVLINK_BW; datasheet 300 GB/s over 6 links both ways", 3, false, 6.0 * kGB,
     "DGX-1: Intel Xeon E5-2698 v4 (Broadwell), NCCL's BDW_QPI_BW", "nccl-volta"},
    {"a100", "NVIDIA A100 SXM4 (Ampere, NVLink3)", 12, 20.0 * kGB, 25 * kGB,
     "SM80_NVLINK_BW; datasheet 600 GB/s over 12 links both ways", 4, false, 16.0 * kGB,
     "DGX A100: AMD EPYC 7742 (Rome), NCCL's AMD_BW", "nccl-ampere"},
    kHopper,
    named(kHopper, "h200", "NVIDIA H200 SXM (Hopper, NVLink4)"),
    {"b200", "NVIDIA B200 (Blackwell, NVLink5)", 18, 40.1 * kGB, 50 * kGB,
     "SM100_NVLINK_BW; datasheet 1.8 TB/s over 18 links both ways", 5, true, 40.0 * kGB,
     "DGX B200: Intel Xeon Platinum 8570 (Emerald Rapids), NCCL's ERP_QPI_BW", "nccl-blackwell"},
    {"2080ti", "NVIDIA GeForce RTX 2080 Ti (Turing, NVLink bridge)", 2, 20.0 * kGB, 25 * kGB,
     "SM70_NVLINK_BW (compute capability 7.5); datasheet 100 GB/s over 2 links both ways", 3,
     false, 10.0 * kGB, "a dual-socket Intel Xeon Scalable (Skylake) host, NCCL's SKL_QPI_BW", "nccl-volta"},
    named(kAdaPcie, "4090", "NVIDIA GeForce RTX 4090 (Ada, no NVLink)"),
    named(kAdaPcie, "l40s", "NVIDIA L40S (Ada, no NVLink)"),
    named(kAdaPcie, "rtx6000ada", "NVIDIA RTX 6000 Ada Generation (no NVLink)"),
}};

// Per lane, x100 Mb/s, as NCCL's kvDictPciGen gives them for Gen3, 4, 5.
std::uint32_t nccl_lane_rate(std::uint32_t gen) {
  switch (gen) {
    case 3: return 60;
    case 4: return 120;
    case 5: return 240;
    default: throw InputError("PCIe Gen" + std::to_string(gen) + " is not in the table (Gen3 to Gen5)");
  }
}

}  // namespace

const GpuGeneration& gpu_generation(std::string_view name, std::string_view what) {
  std::vector<std::string_view> names;
  for (const GpuGeneration& g : kGenerations) {
    if (same_loose_name(g.name, name)) return g;
    names.push_back(g.name);
  }
  throw InputError(unknown_name_message(what, "GPU", name, names));
}

std::string gpu_generation_names() { return joined(std::views::transform(kGenerations, &GpuGeneration::name)); }

BandwidthBps pcie_x16_Bps(std::uint32_t gen) { return 16.0 * nccl_lane_rate(gen) / 80.0 * kGB; }

BandwidthBps pcie_x16_datasheet_Bps(std::uint32_t gen) {
  nccl_lane_rate(gen);  // checks the generation
  const double gigatransfers = 8.0 * (1 << (gen - 3));  // Gen3 8 GT/s, doubling per generation
  return gigatransfers * 16 * 128.0 / 130.0 / 8.0 * kGB;
}

}  // namespace commsim
