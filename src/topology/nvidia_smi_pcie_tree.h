#pragma once
// The PCIe hierarchy that the relations of `nvidia-smi topo -m` imply, built from the
// "closest" relations outwards (single linkage, nearest level first):
//   - devices joined by PIX share a PCIe switch;
//   - devices joined by PXB or closer, and not all under one switch, share a tree of PCIe
//     bridges (one bridge vertex above their switches);
//   - devices joined by PHB or closer share a host bridge;
//   - devices joined by NODE or closer share a CPU socket; so do groups whose GPUs have the
//     same NUMA Affinity (in older outputs without it, the same CPU Affinity), unless the
//     matrix says SYS between them: the affinity is what places GPUs whose only relations
//     are NVLink;
//   - SYS pairs are in different sockets, joined by the link between sockets.
// Each level joins what is joined "or closer", so every group lies inside one group of the
// next level: the result is a tree of switches, bridges, host bridges and sockets. A device
// hangs from the nearest of them that it shares with another device, and any host bridge
// from its socket. NVLink pairs say nothing about PCIe and join nothing.
//
// The tree gives every pair a relation (the nearest level whose group holds both), and
// the build checks it is the matrix's for every pair the matrix states: relations such as
// A-B PIX, B-C PIX, A-C PXB fit no tree and are an InputError.

#include <cstddef>
#include <limits>
#include <vector>

#include "topology/nvidia_smi_topo.h"

namespace commsim {

enum class PcieNodeKind { kSocket, kHostBridge, kBridge, kSwitch };

struct PcieNode {
  PcieNodeKind kind = PcieNodeKind::kSocket;
  std::size_t parent = 0;  // index into PcieTree::nodes; unused for a socket
  std::size_t first_device = 0;  // the first device below it, in column order
};

struct PcieTree {
  /// Sockets first, then host bridges, bridges and switches, each in the order of their
  /// first device.
  std::vector<PcieNode> nodes;
  std::vector<std::size_t> device_parent;  // per device: the node it hangs from
  std::vector<std::size_t> device_socket;  // per device: its socket's node
  /// Per device, its group at PIX, PXB, PHB level (group numbers, not node indices).
  std::vector<std::size_t> pix, pxb, phb;

  std::size_t count(PcieNodeKind kind) const;
  /// The relation the tree gives two different devices.
  PcieRelation relation(std::size_t a, std::size_t b) const;
};

/// Throws InputError (FILE:LINE of a row) when the matrix's relations fit no tree.
PcieTree build_pcie_tree(const SmiTopoMatrix& m);

}  // namespace commsim
