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
// The network records them as flows start and finish, at O(route length) per flow, in the
// records it touches anyway (Network::link_stats).

#include <algorithm>
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

/// The run took `simulated_ps` >= its T (a bound on the call held it past its last
/// arrival): T becomes that, and each utilisation bytes / (B x it).
void extend_run(LinkStats& stats, TimePs simulated_ps);

/// Adds a run that followed `total` on the same topology (runs one after another, as
/// all-pairs P2P runs each pair alone in turn): T, bytes and busy times add up, peaks take
/// the larger, and each utilisation becomes bytes / (B x the summed T).
void append_run(LinkStats& total, const LinkStats& later);

/// What one resource has carried so far: the network keeps one beside the resource's flows
/// (network.h), so that recording costs no memory access of its own.
struct LinkUse {
  double wire_bytes = 0;
  TimePs busy_ps = 0;        // closed busy intervals
  TimePs busy_since_ps = 0;  // start of the open one, while flows are on the resource

  /// A flow of `flow_wire_bytes` starts at `now`; `flows` are on the resource with it.
  void flow_started(double flow_wire_bytes, std::uint32_t flows, TimePs now) {
    if (flows == 1) busy_since_ps = now;
    wire_bytes += flow_wire_bytes;
  }
  /// A flow has sent its last byte at `now`; `flows` remain on the resource.
  void flow_finished(std::uint32_t flows, TimePs now) {
    if (flows == 0) busy_ps += now - busy_since_ps;
  }
  /// Busy time up to T = `simulated_ps`, an open interval (`flows` still on) counted up to T.
  TimePs busy_until(TimePs simulated_ps, std::uint32_t flows) const {
    return busy_ps + (flows > 0 ? std::max<TimePs>(0, simulated_ps - busy_since_ps) : 0);
  }
};

/// One row of LinkStats, its utilisation over T = `simulated_ps`.
LinkLoad link_load(LinkId link, LinkDirection direction, BandwidthBps bandwidth_Bps, const LinkUse& use,
                   std::uint32_t flows_now, std::uint32_t peak_flows, TimePs simulated_ps);

}  // namespace commsim
