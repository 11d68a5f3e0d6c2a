#pragma once
// A pipeline-parallel step as one program per device: compute tasks (forward or backward of
// a micro-batch on one of the device's model chunks) and communication calls between them,
// each call a group of point-to-point sends and receives (Megatron-LM's p2p_communication
// calls, e.g. send_forward_recv_backward). The schedules (schedules.h) generate programs
// action by action; tests may build them by hand and read them through StoredPrograms.

#include <cstdint>
#include <optional>
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
  /// What it carries: the activation (forward) or gradient (backward) of this micro-batch
  /// between virtual stages `boundary` and `boundary` + 1.
  std::uint32_t microbatch = 0;
  std::uint32_t boundary = 0;
};

/// "activation of micro-batch 3 between stages 0 and 1", for reports and timelines.
std::string describe(const P2POp& op);

struct Action {
  enum class Kind : std::uint8_t { kForward, kBackward, kCall };
  Kind kind;
  std::uint32_t microbatch = 0;  // compute
  std::uint32_t chunk = 0;       // compute: the device's model chunk (virtual stage)
  TimePs duration_ps = 0;        // compute
  std::vector<P2POp> ops;        // call
};

using DeviceProgram = std::vector<Action>;

/// Device programs as the simulator and the trace writers read them, one action at a time,
/// generated on demand. A position of a program may hold no action (a schedule's call with
/// nothing to send or receive); readers skip it.
class ProgramSource {
 public:
  virtual ~ProgramSource() = default;
  virtual std::uint32_t device_count() const = 0;
  /// Device d's actions are at positions [0, length(d)).
  virtual std::size_t length(std::uint32_t device) const = 0;
  virtual std::optional<Action> at(std::uint32_t device, std::size_t position) const = 0;
};

/// Programs built in memory, read in place.
class StoredPrograms final : public ProgramSource {
 public:
  explicit StoredPrograms(const std::vector<DeviceProgram>& programs) : programs_(programs) {}
  std::uint32_t device_count() const override { return static_cast<std::uint32_t>(programs_.size()); }
  std::size_t length(std::uint32_t device) const override { return programs_[device].size(); }
  std::optional<Action> at(std::uint32_t device, std::size_t position) const override {
    return programs_[device][position];
  }

 private:
  const std::vector<DeviceProgram>& programs_;
};

/// Device d's program, stored: for writers that need it whole, and for tests.
DeviceProgram stored_program(const ProgramSource& programs, std::uint32_t device);

}  // namespace commsim
