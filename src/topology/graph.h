#pragma once
// The graph under a Topology (topology.h): vertices are NPUs (GPUs) and switches, NPUs
// first and numbered 0..N-1, which are the ranks; edges are physical links (link.h). A
// link traversed in one direction is a directed channel; a route is the list of channels
// from one NPU to another.

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "topology/link.h"

namespace commsim {

/// An NPU's index, 0..npu_count()-1.
using Rank = std::uint32_t;
using LinkId = std::uint32_t;
/// Link `l` traversed from its first to its second end is channel 2l, backwards 2l+1.
using ChannelId = std::uint32_t;
using Route = std::vector<ChannelId>;
/// A route's channels wherever they are kept.
using RouteView = std::span<const ChannelId>;

constexpr LinkId link_of(ChannelId channel) { return channel / 2; }

enum class VertexKind { kNpu, kSwitch };

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

/// What a link weighs in the search for the fastest path: the picoseconds a 1 MiB message
/// spends on it, latency + 1 MiB / bandwidth, so that a route prefers fast, short links.
inline double route_weight(const LinkParams& params) {
  constexpr double kRouteWeightBytes = 1 << 20;
  return static_cast<double>(params.latency_ps) + kRouteWeightBytes / params.bandwidth_Bps * 1e12;
}

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

}  // namespace commsim
