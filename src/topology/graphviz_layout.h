#pragma once
// How a topology is laid out in Graphviz (topology/graphviz.h writes it): which engine, which
// vertices share a cluster box, which column each vertex takes, where grid vertices are
// pinned. Found from the graph itself, so a spec file's explicit graph is drawn like a
// built topology of the same shape.
//
//  - Rings and graphs without switches (fully connected, direct NVLink meshes): neato with
//    the NPUs pinned round a circle in rank order.
//  - Meshes and tori: neato with every NPU pinned at its grid coordinate (a 3-D grid's planes
//    in oblique projection), so rows stay rows.
//  - Everything else: dot, left to right, mirrored round the core of the fabric (the
//    switches farthest from any NPU: a tree's root, the network switch or spine of a cluster,
//    a PCIe root complex): half the NPUs on each side, so 64 GPUs make two columns of 32 and
//    not one row of 64.
//
// Clusters:
//  - A node: when the topology has network links (InfiniBand, Ethernet), each connected
//    piece of the graph without them that holds an NPU and another vertex: the GPUs that
//    share a node and its NVSwitch or PCIe tree. Named by the members' common name prefix
//    ("node3" for node3/gpu0, node3/nvswitch), else "node K".
//  - A switch level: outside the nodes, the switches at the same distance (in links) from the
//    nearest NPU and on the same side, when the fabric has two levels or more (a tree, leaf
//    and spine); a level holding one switch gets no box.

#include <optional>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace commsim {

enum class DotEngine { kDot, kNeato };
std::string_view dot_engine_name(DotEngine engine);

struct DotCluster {
  std::string label;
  std::vector<VertexId> members;  // ascending
};

/// A pinned position, inches; y grows upwards as in Graphviz.
struct DotPosition {
  double x = 0;
  double y = 0;
};

struct DotLayout {
  DotEngine engine = DotEngine::kDot;
  /// Node clusters (ordered by their first vertex), then switch-level clusters (left side
  /// outwards-in, then right side).
  std::vector<DotCluster> node_clusters;
  std::vector<DotCluster> level_clusters;
  /// dot: each vertex's column, negative left of the core (0), positive right of it; a link
  /// is written from its end in the lower column so that dot ranks it that way.
  std::vector<int> column;
  /// neato: each vertex's pinned position; empty for the other engines.
  std::vector<DotPosition> position;
};

DotLayout plan_dot_layout(const Topology& topology);

}  // namespace commsim
