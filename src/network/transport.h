#pragma once
// The narrow interface through which collectives, pipeline schedules and trace replay
// reach a network: send bytes to a peer, be told when they arrived, wait. Anything that
// implements it (the flow-level Network, or a trivial network in tests) can run them.

#include <limits>

#include "base/units.h"
#include "engine/engine.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct SendOptions {
  /// Upper bound on the flow's rate, bytes per second (e.g. a NIC limit); infinite: no cap.
  BandwidthBps rate_cap_Bps = std::numeric_limits<double>::infinity();
  /// The library's costs for this message (a collective's chosen protocol); null: the
  /// transport's own.
  const ProtocolCosts* library = nullptr;
  /// Caps by the class of the route the message takes (a library's P2P channels, for the
  /// sends of NCCL's AllToAll); null: none.
  const RateCapsByClass* rate_caps_by_class = nullptr;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual TimePs now() const = 0;
  /// Sends `bytes` from NPU `src` to NPU `dst`; `on_arrival` is called when the last byte
  /// arrived (engine/engine.h: a typed call, or a closure made by once()).
  virtual void send(Rank src, Rank dst, Bytes bytes, EventCall on_arrival, SendOptions options) = 0;
  /// Sends `bytes` along `route`, channels of the topology that may start or end at a
  /// switch (to and from a switch that reduces, topology/in_switch.h); the flow keeps a copy.
  virtual void send_along(const Route& route, Bytes bytes, EventCall on_arrival, SendOptions options) = 0;
  /// Runs `callback` `delay` picoseconds from now (local work such as reductions).
  virtual void schedule_after(TimePs delay, Callback callback) = 0;
  /// `callback` as a call that runs it once (Engine::once).
  virtual EventCall once(Callback callback) = 0;

  // The same with a closure to run on arrival.
  void send(Rank src, Rank dst, Bytes bytes, Callback on_arrival, SendOptions options = {}) {
    send(src, dst, bytes, once(std::move(on_arrival)), options);
  }
  void send_along(const Route& route, Bytes bytes, Callback on_arrival, SendOptions options) {
    send_along(route, bytes, once(std::move(on_arrival)), options);
  }
};

}  // namespace commsim
