#pragma once
// A message of a collective run as a timeline shows it (report/chrome_trace.h): reported by
// the runner (runner.h) and the in-switch run (in_switch_run.h) as it arrives, when asked.

#include <cstdint>
#include <functional>
#include <optional>

#include "base/units.h"
#include "topology/topology.h"

namespace commsim {

/// A message of a collective run, reported as it arrives (timelines). Ranks are the
/// schedule's, not NPUs; in an in-switch run (in_switch_run.h) a flow between a rank and
/// its reducing switch has no peer.
struct CollectiveMessage {
  Rank rank = 0;                // the sender; with no peer, the rank the switch serves
  std::optional<Rank> peer;     // the receiver; empty: the switch
  bool from_switch = false;     // with no peer: the switch sends to the rank
  Bytes bytes = 0;
  std::uint32_t channel = 0;
  std::uint32_t chunk = 0;
  std::uint32_t step = 0;       // the sender's step that sent it
  TimePs issued_ps = 0;         // its step issued it (the transfer starts once the receive is posted)
  TimePs arrived_ps = 0;
};

using OnCollectiveMessage = std::function<void(const CollectiveMessage&)>;

}  // namespace commsim
