#pragma once
// A pipeline-parallel step as one program per device: compute tasks (forward or backward of
// a micro-batch on one of the device's model chunks) and communication calls between them,
// each call a group of point-to-point sends and receives (Megatron-LM's p2p_communication
// calls, e.g. send_forward_recv_backward). The schedules (schedules.h) generate programs;
// tests may build them by hand.

#include <cstdint>
#include <string>
#include <vector>

#include "base/units.h"

namespace commsim {

struct P2POp {
  enum class Kind : std::uint8_t { kSend, kRecv };
  /// Activations flow forward (to the next stage), gradients backward.
  enum class Direction : std::uint8_t { kForward, kBackward };
  Kind kind;
  Direction direction;
  std::uint32_t peer;   // device
  Bytes bytes;          // sends only
  std::int64_t tag;     // matches a send with its receive
  std::string what;     // "activation of micro-batch 3", for reports and timelines
};

struct Action {
  enum class Kind : std::uint8_t { kForward, kBackward, kCall };
  Kind kind;
  std::uint32_t microbatch = 0;  // compute
  std::uint32_t chunk = 0;       // compute: the device's model chunk (virtual stage)
  TimePs duration_ps = 0;        // compute
  std::vector<P2POp> ops;        // call
};

using DeviceProgram = std::vector<Action>;

}  // namespace commsim
