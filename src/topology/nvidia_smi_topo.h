#pragma once
// Reads the matrix `nvidia-smi topo -m` prints: how each pair of GPUs and NICs is connected.
//
//         GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID
//   GPU0     X      NV18    PIX     0-47,96-143     0               N/A
//   GPU1    NV18     X      NODE    0-47,96-143     0               N/A
//   NIC0    PIX     NODE     X
//
//   Legend: ...
//   NIC Legend:
//     NIC0: mlx5_0
//
// Cells are separated by tabs or spaces (nvidia-smi prints tabs; a pasted copy has the
// spaces a terminal expanded them to); ANSI escapes (an underlined header), carriage
// returns and literal "\t" left by a copy through a program's string are ignored, and so
// are lines before the header (a shell prompt). Older drivers name NICs by their device
// (mlx5_0) rather than NIC0 and print SOC for SYS. Every error is an InputError
// "FILE:LINE: what, which value".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace commsim {

/// How the PCIe path between two devices runs, nearest first (NVML's nvmlGpuTopologyLevel_t
/// and nvidia-smi's legend): PIX through at most one PCIe bridge (a switch); PXB through
/// several bridges but no host bridge; PHB through a PCIe host bridge (the CPU); NODE
/// between host bridges of one NUMA node; SYS across the SMP interconnect between NUMA
/// nodes (QPI/UPI, xGMI).
enum class PcieRelation { kPix, kPxb, kPhb, kNode, kSys };
const char* pcie_relation_name(PcieRelation relation);

/// One cell off the diagonal: a bonded set of NVLinks (NV#), or, without NVLink, the PCIe
/// relation. The matrix gives no PCIe relation for an NVLink pair.
struct SmiCell {
  std::uint32_t nvlinks = 0;
  PcieRelation pcie = PcieRelation::kSys;  // when nvlinks == 0
  bool operator==(const SmiCell& other) const = default;
};

struct SmiDevice {
  std::string column;  // as the header names it: "GPU0", "NIC3", "mlx5_0"
  /// A NIC's name from the NIC legend ("mlx5_3"), else the column's.
  std::string name;
  bool gpu = false;  // a column GPU<k>; every other column is a NIC
  std::string cpu_affinity;               // GPU rows: "0-47,96-143", "N/A"
  std::optional<std::uint32_t> numa_node; // GPU rows with a NUMA Affinity of one node
  std::size_t line = 0;                   // of the device's row, from 1
};

struct SmiTopoMatrix {
  std::string origin;                     // the file, for errors
  std::vector<SmiDevice> devices;         // in column order: rank order for the GPUs
  std::vector<std::vector<SmiCell>> cells;  // [row][column]; the diagonal is unused

  const SmiCell& cell(std::size_t a, std::size_t b) const { return cells[a][b]; }
  std::size_t gpu_count() const;
  /// "FILE:LINE" of device d's row.
  std::string where(std::size_t d) const;
};

/// Throws InputError on: no header row, a header column it does not know, a row with the
/// wrong number of cells or out of the header's order, an unknown cell, a matrix that is not
/// square or not symmetric, NVLink to a NIC, no GPU.
SmiTopoMatrix parse_nvidia_smi_topo(const std::string& text, const std::string& origin);

}  // namespace commsim
