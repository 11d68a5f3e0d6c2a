#pragma once
// Runs a set of messages that all start at time 0 on an otherwise idle network and
// reports when each arrived: the building block of P2P measurements. Under a library's
// costs (topology/library.h) the set is one library call: the messages start after the
// call latency; with P2P channels each message runs at most at its channels' rate.

#include <optional>
#include <vector>

#include "base/units.h"
#include "network/link_stats.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct Message {
  Rank src;
  Rank dst;
  Bytes bytes;
};

/// Arrival time of each message, in the order given. `link_stats`, if given, receives the
/// run's link statistics (network/link_stats.h), T = the last arrival.
std::vector<TimePs> simulate_concurrent_messages(const Topology& topology, TimePs overhead_ps,
                                                 const std::vector<Message>& messages,
                                                 const ProtocolCosts& library = {},
                                                 const std::optional<P2pChannels>& p2p = std::nullopt,
                                                 LinkStats* link_stats = nullptr);

}  // namespace commsim
