#pragma once
// Runs device programs (program.h) on the flow-level network with rendezvous send/receive.
//
// A device runs one compute task at a time. A communication call costs the device o per
// launched operation, or o per call when batched, then:
//   sequential  each operation blocks until its data has arrived (send, then receive on
//               even devices; receive, then send on odd ones, so neighbours never both wait
//               to send);
//   overlapped  the call's operations are launched one after another and proceed
//               together; the device waits for its receives, and its sends complete in the
//               background while it computes;
//   batched     as overlapped, but the call's operations are launched as one group for a
//               single o (torch.distributed.batch_isend_irecv, an NCCL group).
// A run in which devices stop with work left is a deadlock: reported, never hung on.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "network/link_stats.h"
#include "pipeline/program.h"
#include "topology/topology.h"

namespace commsim {

enum class P2PMode { kSequential, kOverlapped, kBatched };

std::string_view p2p_mode_name(P2PMode mode);
/// "sequential", "overlapped", "batched"; anything else is an InputError naming `what`.
P2PMode parse_p2p_mode(std::string_view name, std::string_view what);

struct PipelineRunOptions {
  P2PMode mode = P2PMode::kOverlapped;
  TimePs overhead_ps = 0;            // o
  /// A library's costs (topology/library.h): its call latency adds to every launch's o, its
  /// step latency and rate apply to every message.
  ProtocolCosts library;
  std::vector<Rank> npu_of_device;   // empty: device d on NPU d
  bool send_first = false;           // sequential: every device sends first (can deadlock)
  bool record_timeline = false;
  bool record_link_stats = false;    // per-link statistics (network/link_stats.h)
};

struct TimelineEvent {
  std::uint32_t device;
  std::string category;  // forward, backward, send, recv
  std::string name;
  TimePs start_ps;       // compute: started; send, recv: posted
  TimePs end_ps;         // finished; send, recv: the data arrived
  std::uint32_t microbatch = 0;  // forward, backward
  std::uint32_t chunk = 0;       // forward, backward: the device's model chunk
  /// send, recv: the operation (peer device, tag); a receive's bytes are those of the send
  /// it matched.
  std::optional<P2POp> op;
};

struct DeviceStats {
  Rank npu = 0;
  TimePs finish_ps = 0;
  TimePs busy_ps = 0;        // computing
  TimePs p2p_wait_ps = 0;    // in communication calls, not computing
  std::uint32_t peak_in_flight = 0;  // micro-batch chunks forwarded, not yet backwarded
};

struct PipelineResult {
  TimePs step_ps = 0;
  std::vector<DeviceStats> devices;
  std::vector<TimelineEvent> timeline;
  std::optional<LinkStats> link_stats;  // with record_link_stats, T = step_ps
};

/// Throws InputError for a placement that does not fit the topology, and DeadlockError
/// for a deadlock (naming the devices, what each waits on, and the unmatched operations).
PipelineResult simulate_pipeline(const Topology& topology, const ProgramSource& programs,
                                 const PipelineRunOptions& options);
PipelineResult simulate_pipeline(const Topology& topology, const std::vector<DeviceProgram>& programs,
                                 const PipelineRunOptions& options);

}  // namespace commsim
