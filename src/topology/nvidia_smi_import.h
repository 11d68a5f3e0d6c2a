#pragma once
// A topology spec (proto/topology.proto, an explicit graph) from the matrix
// `nvidia-smi topo -m` prints (`commsim topo --import-nvidia-smi FILE --gpu NAME`):
//
//  - one NPU vertex per GPU (gpu0, gpu1, ... in the matrix's order);
//  - NVLink: when every GPU pair shows the same NV#, there are more than 2 GPUs and
//    # x (GPUs - 1) exceeds the GPU's NVLink links (gpu_generations.h), no GPU could have
//    that many direct links: they meet in NVSwitches, modelled as one switch vertex with
//    each GPU linked at # x the per-link bandwidth (as topologies/h100-nvswitch-node does).
//    Otherwise each NV# pair gets a direct link of # links (DGX-1's hybrid cube mesh, NVLink
//    bridges);
//  - PCIe: the tree of nvidia_smi_pcie_tree.h (PCIe switches, bridges, host bridges, CPU
//    sockets) with PCIe x16 links of the GPU's generation, and a link between every two
//    sockets; NICs (mlx5_0, ...) are switch vertices on their PCIe switch;
//  - peer access as NCCL's default P2P level (PATH_PXB): NVLink, PIX and PXB pairs have it;
//    PHB, NODE and SYS pairs are listed in no_peer_access.
// Routes then reproduce the matrix: a PIX pair meets in one PCIe switch, a PHB pair in a
// host bridge, a SYS pair crosses the socket link.

#include <string>
#include <vector>

#include "proto/topology.pb.h"
#include "topology/gpu_generations.h"

namespace commsim {

struct NvidiaSmiImport {
  spec::TopologySpec spec;
  /// What was found and which rules and figures were used, one note each, with sources:
  /// the comment at the head of the spec file.
  std::vector<std::string> notes;
};

/// Parses `text` (nvidia_smi_topo.h) read from `origin` and builds the spec for GPUs of
/// generation `gpu`. Throws InputError on a bad matrix, or NVLink the GPU cannot have.
NvidiaSmiImport import_nvidia_smi_topo(const std::string& text, const std::string& origin,
                                       const GpuGeneration& gpu);

/// The spec file: the notes as a comment block, then the spec in protobuf text format.
std::string nvidia_smi_spec_file(const NvidiaSmiImport& imported);

}  // namespace commsim
