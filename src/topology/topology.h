#pragma once
// A cluster's interconnect as a Boost.Graph graph. Vertices are NPUs (GPUs) and switches;
// NPUs come first and are numbered 0..N-1, which are the ranks. Edges are physical links
// (see link.h). A link traversed in one direction is a directed channel; a route is the
// list of channels from one NPU to another.
//
// Routing:
//  - grid topologies (ring, mesh, torus) use dimension-order routing: dimension 0 first,
//    the shorter way round a torus ring, the positive way on a tie;
//  - every other topology uses Dijkstra shortest paths weighted by the time a 1 MiB
//    message spends on a link (latency + 1 MiB / bandwidth), so a route prefers fast,
//    short links; ties go to the first path found (deterministic for a given graph).
// Routes are computed on first use and cached. Not thread-safe.

#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/units.h"
#include "topology/library.h"
#include "topology/link.h"

namespace commsim {

/// An NPU's index, 0..npu_count()-1.
using Rank = std::uint32_t;
using LinkId = std::uint32_t;
/// Link `l` traversed from its first to its second end is channel 2l, backwards 2l+1.
using ChannelId = std::uint32_t;
using Route = std::vector<ChannelId>;

constexpr LinkId link_of(ChannelId channel) { return channel / 2; }

enum class VertexKind { kNpu, kSwitch };

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

struct VertexProps {
  VertexKind kind = VertexKind::kNpu;
  std::string name;
  /// A switch that reduces and multicasts in the fabric (NVSwitch with NVLink SHARP).
  bool reduces = false;
  /// A switch that is a CPU's root complex with its memory, through which NPUs without peer
  /// access exchange data (NCCL's SHM transport).
  bool host_memory = false;
};

struct EdgeProps {
  LinkId link = 0;
  double route_weight = 0;  // ps a 1 MiB message spends on the link
};

// Edges in a vector (EdgeListS = vecS), not a list: no allocation per link, which a
// fully-connected topology of thousands of NPUs adds by the million. Edges are never removed.
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps,
                                    EdgeProps, boost::no_property, boost::vecS>;
using VertexId = std::uint32_t;

struct Link {
  VertexId first;
  VertexId second;
  LinkParams params;
};

/// Sizes of the dimensions of a ring, mesh or torus; NPU r has coordinate
/// (r mod d0, (r / d0) mod d1, ...).
struct Grid {
  std::vector<std::uint32_t> dims;
  bool wrap = false;  // torus and ring
};

class Topology {
 public:
  /// Prefer TopologyBuilder, which validates. The graph is shared, never copied: Boost's
  /// adjacency_list has no move constructor, and a copy of a large graph costs seconds.
  Topology(std::string name, std::string description, std::shared_ptr<const Graph> graph, std::vector<Link> links,
           std::size_t npu_count, std::optional<Grid> grid, Shape shape);

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
  /// The reference stays valid for the topology's lifetime.
  const Route& route(Rank src, Rank dst) const;
  /// The class of a route: the slowest class among its links (NVLink for an empty route).
  LinkClass route_class(const Route& route) const;
  /// The communication library the system runs by default (a spec file's `library`);
  /// ideal for a topology built from parameters.
  const LibraryProfile& library() const { return library_; }
  void set_library(LibraryProfile library) { library_ = std::move(library); }
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
  /// On a hierarchical topology each ring takes the nodes in order and, inside node n, its
  /// GPUs starting at GPU (channel mod G): so ring c leaves every node through GPU
  /// (c - 1) mod G and its NIC, and G rings use every NIC of a node once (rail-aligned).
  /// Elsewhere, and with one channel, ranks in order.
  std::vector<Rank> ring_order(std::size_t channel, std::size_t channels) const;

  /// Longest shortest path between two NPUs, in hops (links): the builder's formula where
  /// there is one (O(1)), else searched_diameter_hops().
  std::size_t diameter_hops() const;
  /// The same by a breadth-first search from every NPU: O(N (V + E)).
  std::size_t searched_diameter_hops() const;

 private:
  Route grid_route(Rank src, Rank dst) const;
  Route shortest_path_route(Rank src, Rank dst) const;
  Route host_memory_route(Rank src, Rank dst) const;
  /// Dijkstra's tree from NPU `src` (computed once): the fastest path to `target`.
  Route fastest_path(Rank src, VertexId target) const;
  const std::vector<double>& fastest_distances(Rank src) const;

  std::string name_;
  std::string description_;
  std::shared_ptr<const Graph> graph_;  // immutable once built
  std::vector<Link> links_;
  std::size_t npu_count_;
  std::optional<Grid> grid_;
  Shape shape_;
  LibraryProfile library_;
  std::vector<std::pair<Rank, Rank>> no_peer_access_;  // sorted, first < second
  mutable std::unordered_map<std::uint64_t, Route> route_cache_;
  // Per source NPU: the link through which Dijkstra reached each vertex.
  mutable std::vector<std::vector<LinkId>> predecessor_links_;
  mutable std::vector<std::vector<double>> distances_;  // per source NPU: to each vertex
};

}  // namespace commsim
