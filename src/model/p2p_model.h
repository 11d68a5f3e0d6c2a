#pragma once
#include <limits>
// Closed-form cost of one point-to-point message (Hockney's alpha-beta model):
//
//   T(S) = alpha + S * beta,  alpha = o + sum(latency of the route's links),
//                             beta  = 1 / min(bandwidth of the route's links)
//
// (R. Hockney, "The communication challenge for MPP", Parallel Computing 20, 1994).
// Written from the topology alone, independently of the engine and network, so that the
// simulator can be checked against it: on an idle network the two must agree exactly.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "base/units.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct PathParams {
  std::size_t hops = 0;
  TimePs latency_ps = 0;
  BandwidthBps bottleneck_Bps = 0;  // infinite for an empty route (src == dst)
  LinkClass link_class = LinkClass::kNvlink;  // the slowest class of link on the route
};

PathParams path_params(const Topology& topology, Rank src, Rank dst);

/// T in seconds, for `overhead_s` = o. With a library's costs (topology/library.h) the
/// message is one library call (nccl-tests' sendrecv: a grouped send and receive): it pays
/// the call latency, the step latency of its route's class, and flows at
/// min(efficiency x bottleneck, max rate):
///   T(S) = L_call + o + step latency + path latency + S / rate
/// `rate_cap_Bps`: the most the send moves (LibraryProfile::p2p_rate_cap).
double p2p_time_s(const PathParams& path, double overhead_s, Bytes bytes, const ProtocolCosts& library = {},
                  BandwidthBps rate_cap_Bps = std::numeric_limits<double>::infinity());

/// The channels a send of `bytes` from `src` to `dst` runs on under `profile`'s P2P channels
/// (P2pChannels::channels by its route's class, in a communicator of the topology's NPUs);
/// empty where the profile has none.
std::optional<std::uint32_t> p2p_send_channels(const Topology& topology, Rank src, Rank dst, Bytes bytes,
                                               const LibraryProfile& profile);

}  // namespace commsim
