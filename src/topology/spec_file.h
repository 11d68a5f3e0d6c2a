#pragma once
// Loads a topology spec file (proto/topology.proto): protobuf text format, or JSON when
// the file name ends in ".json". Errors name the file, and for syntax errors the line.

#include <cstdint>
#include <optional>
#include <string>

#include "topology/builders.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

namespace spec {
class LibrarySpec;
}

/// A spec scaled on the command line (--nodes, --gpus-per-node): a hierarchical builder spec
/// with other counts of nodes or GPUs per node, or a switch builder spec (one node) with
/// another count of GPUs, as a run on some of a node's GPUs uses them.
struct SpecScale {
  std::optional<std::uint32_t> nodes;
  std::optional<std::uint32_t> gpus_per_node;
};

Topology load_topology_file(const std::string& path, const SpecScale& scale = {});
/// Parses spec text; `origin` names it in error messages (a file path). Throws InputError
/// if `scale` asks to scale a spec that is not a hierarchical or switch builder, or a
/// switch builder to more than one node.
Topology parse_topology_spec(const std::string& text, const std::string& origin, bool json,
                             const SpecScale& scale = {});

/// A builder spec file as the configuration it builds, scaled as `scale` says, with its
/// library block (else ideal): what a sweep builds each of its points from. Throws InputError
/// for a graph spec, and where parse_topology_spec does.
TopologyConfig load_builder_config(const std::string& path, const SpecScale& scale = {});

/// A `library { ... }` block: a built-in profile by name, or every protocol in full.
/// `where` names it in errors ("FILE: library").
LibraryProfile library_from_spec(const spec::LibrarySpec& spec, const std::string& where);
/// A LibrarySpec alone in a file (protobuf text format), for --library-file.
LibraryProfile load_library_file(const std::string& path);

/// The topology used when none is given: topologies/h100-nvswitch-node.textproto, built into
/// the program (an 8-GPU H100 NVSwitch node as NCCL sees it: 18 NVLink4 links x 20.6 GB/s =
/// 370.8 GB/s per GPU, 250 ns per hop, the nccl library with AllToAll at 0.96 of the other
/// collectives; the file gives the sources).
TopologyConfig default_topology_config();
/// Enough of those nodes for `npus` NPUs: the node itself up to 8, else a hierarchical
/// topology of ceil(npus / 8) such nodes, each GPU with its own 400 Gb/s NIC (1 us) to one
/// network switch, "h100-cluster-Nx8".
TopologyConfig default_cluster_config(std::size_t npus);

}  // namespace commsim
