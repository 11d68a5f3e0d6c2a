#pragma once
// Per-link statistics of one run on the flow-level network (network.h): how much each link
// carried, how long it was in use, and how crowded it got.
//
// A row is a resource of the network: one direction of a full-duplex link (its two
// directions are separate channels, each with the link's bandwidth), or a half-duplex link
// as a whole (both directions share one capacity, so they are one row, direction kBoth).
// With T the simulated time of the run (from 0 to the last arrival) and B the link's
// bandwidth (per direction, or shared when half duplex):
//   bytes        bytes on the wire that crossed it: each flow's data bytes / its protocol's
//                efficiency (LL puts 16 B on the wire per 8 B of data, network.h), so they
//                equal the data bytes under the ideal library
//   busy         the union of the intervals with at least one flow on it, ps. A flow is on
//                every channel of its route from its first byte leaving to its last byte
//                leaving (the fluid moves through the route at once); the overhead o, the
//                library's step latency before it and the path latency after it are not busy
//   utilisation  bytes / (B x T): 1 is a link that carried at its full bandwidth for the
//                whole run; 0 when T is 0. A half-duplex link used both ways at once sustains
//                only its both-ways efficiency of B, and still counts against B
//   peak flows   the most flows on it at one instant
// Recording costs O(route length) per flow start and finish; a network without a recorder
// does none of it.

#include <cstdint>
#include <vector>

#include "base/units.h"
#include "topology/topology.h"

namespace commsim {

/// kForward: from the link's first end to its second (channel 2l); kBackward: the other way
/// (2l + 1); kBoth: a half-duplex link's one shared capacity.
enum class LinkDirection { kForward, kBackward, kBoth };

struct LinkLoad {
  LinkId link = 0;
  LinkDirection direction = LinkDirection::kForward;
  BandwidthBps bandwidth_Bps = 0;  // B
  double bytes = 0;                // on the wire
  TimePs busy_ps = 0;
  std::uint32_t peak_flows = 0;
  double utilisation = 0;          // bytes / (B x T)
};

struct LinkStats {
  TimePs simulated_ps = 0;       // T
  std::vector<LinkLoad> loads;   // every resource: by link, forward before backward
};

/// The loads of the `count` most utilised resources that carried bytes, most utilised first;
/// equal utilisations in the order of `stats.loads` (by link, forward before backward).
std::vector<LinkLoad> hottest_links(const LinkStats& stats, std::size_t count = 5);

/// Adds a run that followed `total` on the same topology (runs one after another, as
/// all-pairs P2P runs each pair alone in turn): T, bytes and busy times add up, peaks take
/// the larger, and each utilisation becomes bytes / (B x the summed T).
void append_run(LinkStats& total, const LinkStats& later);

/// What a Network tells it as flows start and finish (Network::set_link_stats).
class LinkStatsRecorder {
 public:
  explicit LinkStatsRecorder(const Topology& topology);

  /// A flow of `wire_bytes` starts on `route` at `now`.
  void flow_started(RouteView route, double wire_bytes, TimePs now);
  /// A flow on `route` has sent its last byte at `now`.
  void flow_finished(RouteView route, TimePs now);

  /// The statistics of a run whose simulated time is `simulated_ps` (T). Flows still on a
  /// link count as busy up to T.
  LinkStats stats(TimePs simulated_ps) const;

 private:
  struct Resource {
    double bytes = 0;
    TimePs busy_ps = 0;          // closed busy intervals
    TimePs busy_since_ps = 0;    // start of the open one, while flows > 0
    std::uint32_t flows = 0;
    std::uint32_t peak_flows = 0;
  };
  /// Channel 2l + 1 of a half-duplex link is resource 2l, as in the Network.
  std::uint32_t resource_of(ChannelId channel) const;

  const Topology& topology_;
  std::vector<bool> half_duplex_;    // per link, so that a hop reads a bit, not the link
  std::vector<Resource> resources_;  // indexed by channel; unused for 2l + 1 of half duplex
};

}  // namespace commsim
