#pragma once
// A cluster's interconnect: a Boost.Graph graph of NPUs (GPUs) and switches (graph.h), the
// parameters of its links, and routing between NPUs (routing.h):
//  - a built topology (builders.h) computes a route from the two NPUs' coordinates, in
//    O(route length) and without tables: ring, mesh and torus dimension by dimension
//    (dimension 0 first, the shorter way round a torus ring, the positive way on a tie);
//    the other kinds the fastest path (below), which their structure makes plain;
//  - an explicit graph routes by Dijkstra's fastest path, weighted by the time a 1 MiB
//    message spends on a link (latency + 1 MiB / bandwidth), so a route prefers fast,
//    short links; ties go to the first path found (deterministic for a given graph). Its
//    trees are kept per source within a memory bound.
// Not thread-safe: an explicit graph's trees are filled in on first use.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/units.h"
#include "topology/graph.h"
#include "topology/library.h"
#include "topology/link.h"
#include "topology/routing.h"

namespace commsim {

/// How a topology was built; explicit graphs from spec files have no kind.
enum class TopologyKind { kRing, kSwitch, kFullyConnected, kTree, kHierarchical, kMesh, kTorus };

/// The kind and the sizes of its natural levels, innermost first, whose product is the
/// number of NPUs: hierarchical {GPUs per node, nodes}; mesh and torus their dims; ring {N}.
/// Rank r has level digits (r mod s0, (r / s0) mod s1, ...). Empty for other kinds.
struct Shape {
  std::optional<TopologyKind> kind;
  std::vector<std::uint32_t> levels;
  /// The diameter in hops, by the builder's formula; empty: found by search.
  std::optional<std::size_t> diameter_hops;
};

class Topology {
 public:
  /// Prefer TopologyBuilder, which validates. The graph is shared, never copied: Boost's
  /// adjacency_list has no move constructor, and a copy of a large graph costs seconds.
  /// `router`: a built kind's routes (routing.h); none for an explicit graph.
  Topology(std::string name, std::string description, std::shared_ptr<const Graph> graph, std::vector<Link> links,
           std::size_t npu_count, std::optional<Grid> grid, Shape shape, std::shared_ptr<const Router> router);

  const std::string& name() const { return name_; }
  /// What kind and shape it is, e.g. "torus 4x4x4".
  const std::string& description() const { return description_; }
  std::size_t npu_count() const { return npu_count_; }
  std::size_t switch_count() const { return boost::num_vertices(*graph_) - npu_count_; }
  std::size_t vertex_count() const { return boost::num_vertices(*graph_); }
  std::size_t link_count() const { return links_.size(); }
  const Graph& graph() const { return *graph_; }
  const Link& link(LinkId id) const { return links_.at(id); }
  const std::vector<Link>& links() const { return links_; }
  const VertexProps& vertex(VertexId v) const { return (*graph_)[v]; }
  const std::optional<Grid>& grid() const { return grid_; }
  const Shape& shape() const { return shape_; }
  /// Sum of the bandwidths of an NPU's links: the most it can send at once, B/s.
  BandwidthBps injection_bandwidth(Rank npu) const;

  /// The channels from `src` to `dst` (empty when src == dst): on a grid dimension by
  /// dimension; elsewhere the fastest path (least latency + 1 MiB / bandwidth), except for a
  /// pair without peer access, whose data is staged in host memory: the fastest path from
  /// src to a host-memory vertex and on to dst, through the host that makes it fastest.
  Route route(Rank src, Rank dst) const;
  /// The same into `route`, whose memory is reused: no allocation once it is large enough.
  void route_into(Rank src, Rank dst, Route& route) const;
  /// Dijkstra's fastest path from `src` to `dst`, as an explicit graph routes; on a built
  /// topology other than a grid the same as route() (tests compare the two).
  Route fastest_route(Rank src, Rank dst) const;
  /// Whether its routes come from a builder's router (routing.h), not Dijkstra's search.
  bool has_router() const { return router_ != nullptr; }
  /// The numbers kept to route (link ids, offsets, Dijkstra's predecessor links and
  /// distances), 4 to 8 bytes each: O(levels) for a built kind, whatever pairs were routed;
  /// for an explicit graph at most FastestPathTrees' bound plus one tree.
  std::size_t route_table_entries() const;
  /// The class of a route: the slowest class among its links (NVLink for an empty route).
  LinkClass route_class(RouteView route) const;
  /// The communication library the system runs by default (a spec file's `library`);
  /// ideal for a topology built from parameters.
  const LibraryProfile& library() const { return library_; }
  void set_library(LibraryProfile library) { library_ = std::move(library); }
  /// What system it stands for, in words (a spec file's `description`, "8x H100 SXM5, NVLink4
  /// via NVSwitch"); empty for a topology built from parameters.
  const std::string& system() const { return system_; }
  void set_system(std::string system) { system_ = std::move(system); }
  /// Multiplies the bandwidth of every link by the factor of its class (LinkClass order:
  /// NVLink, PCIe, network), as a calibration finds a library sustains; routes stay as built.
  void scale_bandwidths(const std::array<double, 3>& factor_by_class);
  /// Sets the both-ways efficiency of every half-duplex link (LinkParams), in (0, 1].
  void set_both_ways_efficiency(double efficiency);
  /// The both-ways efficiency of the first half-duplex link; none without one.
  std::optional<double> both_ways_efficiency() const;

  /// Whether NPU a can read and write NPU b's memory directly (CUDA peer access, over NVLink
  /// or PCIe). Without it a library stages data through host memory (NCCL's SHM transport).
  /// True unless the pair was given to set_no_peer_access(); an NPU has access to itself.
  /// The route of a pair without it crosses host memory (route()).
  bool peer_access(Rank a, Rank b) const;
  /// The pairs without peer access, each (smaller rank, larger rank), in order.
  const std::vector<std::pair<Rank, Rank>>& no_peer_access() const { return no_peer_access_; }
  /// Replaces the pairs without peer access; each pair is taken in either order. Throws
  /// InputError if there are pairs and no host-memory vertex to route them through.
  void set_no_peer_access(std::vector<std::pair<Rank, Rank>> pairs);
  /// The vertex a channel leaves from and the one it enters.
  VertexId channel_source(ChannelId channel) const;
  VertexId channel_target(ChannelId channel) const;
  /// The channel of the link from `from` to its neighbour `to` (the first such link).
  ChannelId channel_between(VertexId from, VertexId to) const;

  /// The order of ranks round ring `channel` of `channels` (NCCL's rings, one per channel).
  /// On a hierarchical topology each ring takes the nodes in order; inside an even node its
  /// GPUs from GPU c = channel mod G up (c, c+1, .., c-1 mod G), inside an odd node back down
  /// (c-1, .., c): so ring c leaves and enters every node through GPUs c-1 and c and their
  /// NICs, G rings use every NIC of a node once, and each hop between nodes joins two GPUs of
  /// one index (one rail; NCCL alternates its rings "to avoid crossing rails",
  /// src/graph/connect.cc), but the last node's back to node 0 when the nodes are odd in
  /// number. Elsewhere, and with one channel, ranks in order.
  std::vector<Rank> ring_order(std::size_t channel, std::size_t channels) const;

  /// Longest shortest path between two NPUs, in hops (links): the builder's formula where
  /// there is one (O(1)), else searched_diameter_hops().
  std::size_t diameter_hops() const;
  /// The same by a breadth-first search from every NPU: O(N (V + E)).
  std::size_t searched_diameter_hops() const;

 private:
  void append_host_memory_route(Rank src, Rank dst, Route& route) const;
  /// Dijkstra's fastest path from NPU `src` to `target`, appended to `route`.
  void append_fastest_path(Rank src, VertexId target, Route& route) const;

  std::string name_;
  std::string description_;
  std::string system_;
  std::shared_ptr<const Graph> graph_;  // immutable once built
  std::vector<Link> links_;
  std::size_t npu_count_;
  std::optional<Grid> grid_;
  Shape shape_;
  LibraryProfile library_;
  std::vector<std::pair<Rank, Rank>> no_peer_access_;  // sorted, first < second
  std::shared_ptr<const Router> router_;     // none: an explicit graph
  mutable FastestPathTrees fastest_paths_;  // an explicit graph's, filled in on use
};

}  // namespace commsim
