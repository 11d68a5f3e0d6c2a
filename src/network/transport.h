#pragma once
// The narrow interface through which collectives, pipeline schedules and trace replay
// reach a network: send bytes to a peer, be told when they arrived, wait. Anything that
// implements it (the flow-level Network, or a trivial network in tests) can run them.

#include "base/units.h"
#include "engine/engine.h"
#include "topology/topology.h"

namespace commsim {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual TimePs now() const = 0;
  /// Sends `bytes` from NPU `src` to NPU `dst`; `on_arrival` runs when the last byte arrived.
  virtual void send(Rank src, Rank dst, Bytes bytes, Callback on_arrival) = 0;
  /// Runs `callback` `delay` picoseconds from now (local work such as reductions).
  virtual void schedule_after(TimePs delay, Callback callback) = 0;
};

}  // namespace commsim
