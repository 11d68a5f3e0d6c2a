#pragma once
// Builders for each topology kind, from one parameter struct shared by the command line
// and the spec files. Every parameter is validated; bad ones throw InputError naming it.
//
//   ring            npus NPUs, NPU i linked to i+1 and N-1 to 0
//   switch          npus NPUs on one non-blocking switch
//   fully-connected a direct link between every pair of npus NPUs
//   tree            npus NPUs as leaves of an arity-ary tree of switches; the uplink of a
//                   switch at level l carries (NPUs below it) * B / oversubscription[l]
//   hierarchical    nodes x gpus_per_node: the GPUs of a node share an NVSwitch-like
//                   switch (link); every GPU has its own NIC link (nic) to the network:
//                   one switch, or with leaf_size > 0 a leaf switch per leaf_size nodes
//                   joined by one aggregate uplink each (GPUs below * B2 / oversubscription)
//                   to a spine that stands for the whole spine layer with ideal ECMP; with
//                   rails, rail-optimised: a leaf per GPU index (rail) of each leaf_size
//                   nodes (of all nodes without leaf_size), so GPU g of every node of a group
//                   meets on leaf g and other pairs across nodes meet through the spine
//   mesh, torus     dims "4x4" or "4x4x4" (1 to 3 dimensions); torus with wrap-around
// With nvls, the switch of a switch topology, or each node's switch of a hierarchical one,
// reduces and multicasts in the fabric (NVLink SHARP; topology/in_switch.h).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/link.h"
#include "topology/topology.h"

namespace commsim {

std::string_view topology_kind_name(TopologyKind kind);
/// Throws InputError listing the known kinds.
TopologyKind parse_topology_kind(std::string_view name, std::string_view what);
/// "4x4x4" -> {4, 4, 4}; 1 to 3 dimensions, each at least 1.
std::vector<std::uint32_t> parse_dims(std::string_view text, std::string_view what);
std::string format_dims(const std::vector<std::uint32_t>& dims);

/// NVLink4 as on an H100 SXM: 18 links x 25 GB/s = 450 GB/s per direction (NVIDIA H100
/// datasheet, "NVLink: 900 GB/s" bidirectional); 250 ns per GPU-switch hop, so 0.5 us
/// GPU to GPU through NVSwitch, hardware only (software cost goes in the overhead o).
LinkParams default_npu_link();
/// 400 Gb/s NDR InfiniBand (ConnectX-7), one per GPU; 1 us per hop, ~2 us NIC to NIC
/// through one switch.
LinkParams default_nic_link();

struct TopologyConfig {
  TopologyKind kind = TopologyKind::kSwitch;
  std::string name;                        // empty: derived from kind and shape
  std::uint32_t npus = 8;                  // ring, switch, fully-connected, tree
  std::vector<std::uint32_t> dims;         // mesh, torus
  std::uint32_t arity = 2;                 // tree
  std::vector<double> oversubscription;    // tree levels from the leaves up, or
                                           // hierarchical leaf uplinks; empty means 1
  std::uint32_t nodes = 2;                 // hierarchical
  std::uint32_t gpus_per_node = 8;         // hierarchical
  std::uint32_t leaf_size = 0;             // hierarchical: nodes per leaf switch, 0 = one switch
  LinkParams link = default_npu_link();    // NPU links; intra-node links in hierarchical
  LinkParams nic = default_nic_link();     // hierarchical: each GPU's network link
  bool nvls = false;                       // switch, hierarchical: the NPUs' switch (a
                                           // node's NVSwitch) reduces (NVLink SHARP)
  bool rails = false;                      // hierarchical: a leaf per GPU index (rail)
  LibraryProfile library;                  // the library the system runs (default ideal)
};

/// A parameter of a built topology, as the command line and spec files name it, and the
/// kinds it applies to (empty: every kind). Both check against this one table, so a
/// parameter a kind does not use is an error in either, never silently ignored.
struct BuilderParameter {
  std::string_view option;      // "gpus-per-node" (--gpus-per-node)
  std::string_view spec_field;  // "gpus_per_node" (BuilderSpec in proto/topology.proto)
  std::vector<TopologyKind> kinds;

  bool applies_to(TopologyKind kind) const;
  /// "tree, hierarchical", or "every kind".
  std::string kind_names() const;
};
const std::vector<BuilderParameter>& builder_parameters();

/// Throws InputError on a parameter that does not fit the kind.
Topology build_topology(const TopologyConfig& config);

}  // namespace commsim
