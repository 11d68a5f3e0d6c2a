#pragma once
// Routes between NPUs, without tables that grow with the number of pairs.
//
// A built topology (builders.h) has a Router that computes a route from the two NPUs'
// coordinates and the builder's numbering of links, in O(route length) time and with no
// memory per pair or per source. Each returns the route Dijkstra's fastest path would,
// except on grids, which route dimension by dimension:
//  - ring, mesh, torus: dimension 0 first; round a torus ring the shorter way, the positive
//    way on a tie;
//  - switch, fully connected, tree: the only simple path (a star, a direct link, a tree);
//  - hierarchical: between nodes the only fastest path (NIC, leaf, the spine when the
//    leaves differ, leaf, NIC); inside a node through the NVSwitch, unless a NIC link
//    weighs less than an NVSwitch link (route_weight), when the path through the leaf is
//    faster. On equal weights Dijkstra takes the NVSwitch: a GPU's NVSwitch link was added
//    before its NIC link, so the NVSwitch is reached first, and Boost's heap keeps the
//    first of equal keys on top, so it is expanded first. Rail-optimised (a leaf per GPU
//    index of each group of nodes): inside a node through the NVSwitch; between nodes of a
//    group on one rail through its leaf; across rails as NCCL's PXN sends go (the sender's
//    NVSwitch to its GPU of the receiver's rail, then that rail), or through the spine where
//    its two uplink hops weigh less than the two NVLink hops; between groups through the
//    spine. Each such route weighs what Dijkstra's fastest path does (which of two paths of
//    one weight it takes may differ: PXN in the receiver's node weighs the same).
// An explicit graph (spec file, nvidia-smi import, group of NPUs) has no Router: its routes
// are Dijkstra's fastest paths, whose trees FastestPathTrees keeps per source, bounded.

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "topology/graph.h"

namespace commsim {

class Router {
 public:
  virtual ~Router() = default;
  /// Appends the channels from `src` to `dst` (src != dst) to `route`.
  virtual void append_route(Rank src, Rank dst, Route& route) const = 0;
  /// Numbers (link ids, sizes) it keeps to route: O(levels), never O(pairs).
  virtual std::size_t table_entries() const = 0;
};

/// Ring, mesh or torus; links numbered as build_ring and build_grid add them: per dimension,
/// NPU r's link to its +1 neighbour (r first), in order of r, where it has one.
std::shared_ptr<const Router> grid_router(const Grid& grid);
/// One switch: NPU r's link to it is link r, NPU first.
std::shared_ptr<const Router> star_router();
/// Link (i, j), i < j, is the (j - i - 1)-th of row i (i first), rows in order of i.
std::shared_ptr<const Router> fully_connected_router(std::uint32_t npus);
/// `npus` leaves of an `arity`-ary tree: each level's members in order, member i linked up
/// to member i / arity of the next level (child first), one level's links after the last's.
std::shared_ptr<const Router> tree_router(std::uint32_t npus, std::uint32_t arity);

/// build_hierarchical's numbering: an NVSwitch link per GPU (GPU first) when a node has
/// more than one GPU, then a NIC link per GPU (GPU first) when there is more than one node,
/// then one uplink per leaf (leaf first) when there is more than one leaf. A GPU's leaf is
/// its node's group of nodes_per_leaf, and with rails, the group's leaf of its GPU index.
struct HierarchicalNumbering {
  std::uint32_t gpus_per_node = 1;
  std::uint32_t nodes = 1;
  std::uint32_t nodes_per_leaf = 1;
  /// Two GPUs of a node talk through its NVSwitch (else through their NICs and the leaf).
  bool intra_node_via_nvswitch = true;
  /// Rail-optimised: each group of nodes_per_leaf nodes has a leaf per GPU index, and there
  /// is a spine only when there are several groups.
  bool rails = false;
  /// With rails, whether two nodes of a group exchange across rails through the sender's GPU
  /// of the receiver's rail (NCCL's PXN: two NVLink hops) rather than through the spine (two
  /// uplink hops): in a full group, and in the last, which may be smaller.
  bool pxn_in_full_group = true;
  bool pxn_in_last_group = true;
};
std::shared_ptr<const Router> hierarchical_router(const HierarchicalNumbering& numbering);

/// Dijkstra's fastest-path trees of an explicit graph, weighted by EdgeProps::route_weight
/// (ties go to the path Boost's Dijkstra finds first). A source's tree is computed on first
/// use and kept while the kept trees hold at most `max_entries` predecessor links (4 bytes
/// each); beyond that it is kept only until another source's tree is needed.
class FastestPathTrees {
 public:
  static constexpr std::size_t kDefaultMaxEntries = std::size_t{1} << 25;  // 128 MiB
  explicit FastestPathTrees(std::size_t max_entries = kDefaultMaxEntries) : max_entries_(max_entries) {}

  /// Appends the channels of the fastest path from NPU `src` to vertex `target` to `route`;
  /// false if there is none.
  bool append_path(const Graph& graph, const std::vector<Link>& links, Rank src, VertexId target, Route& route);
  /// The host-memory vertices (VertexProps::host_memory), in order.
  const std::vector<VertexId>& host_memory_vertices(const Graph& graph);
  /// The weight of the fastest path from NPU `src` to each host-memory vertex, in that
  /// order (the largest double where there is none).
  std::vector<double> host_memory_distances(const Graph& graph, Rank src);
  /// Predecessor links and distances held now.
  std::size_t table_entries() const;

 private:
  struct Tree {
    std::vector<LinkId> predecessor;  // per vertex: the link Dijkstra reached it through
    std::vector<double> to_host;      // per host-memory vertex: the fastest path's weight
  };
  const Tree& tree(const Graph& graph, Rank src);
  void compute(const Graph& graph, Rank src, Tree& tree);

  std::size_t max_entries_;
  std::size_t kept_entries_ = 0;
  std::vector<std::uint32_t> slot_of_source_;  // per NPU: its index in kept_, or none
  std::deque<Tree> kept_;                      // a deque: references stay valid as it grows
  Rank last_source_ = std::numeric_limits<Rank>::max();  // whose tree `last_` is
  Tree last_;
  std::optional<std::vector<VertexId>> host_vertices_;
  std::vector<double> distance_;  // working memory of compute()
};

}  // namespace commsim
