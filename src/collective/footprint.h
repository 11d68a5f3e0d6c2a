#pragma once
// How much work and memory a collective run will take, estimated before it starts, so that
// a run that would take hours or exhaust memory is refused with the estimate and the limit
// rather than left to run silently (a 4,096-rank direct AllToAll once grew past 4 GB with
// no output).
//
// The estimate reads rank 0's program: its steps per channel and the sends of its first
// step. The algorithms here are symmetric enough (every rank sends about what rank 0
// does) for the order of magnitude a guard needs:
//   messages   = p x sum over channels of (steps x sends per step) x chunks
//   peak flows = p x sum over channels of (sends per step) x min(chunks, steps)
//                (chunks of one lane take the steps in order, so at most min(C, steps) of
//                them are in flight at once)
//   memory     = peak flows x (flow state with its route) + lanes x lane state

#include <cstdint>
#include <string>

#include "collective/schedule.h"

namespace commsim {

struct CollectiveFootprint {
  double messages = 0;
  double peak_flows = 0;
  double lanes = 0;  // (rank, channel, chunk) programs the runner keeps
  double memory_bytes = 0;
};

/// Runs beyond these are refused: ~2^32 messages take about 15 minutes at the runner's
/// ~4.5 million messages per second; 8 GiB is a third of a 24 GiB workstation.
inline constexpr double kMaxCollectiveMessages = 4294967296.0;
inline constexpr double kMaxCollectiveMemoryBytes = 8.0 * (1ull << 30);
/// (rank, channel, chunk) programs are indexed in 32 bits.
inline constexpr double kMaxCollectiveLanes = 4294967295.0;

CollectiveFootprint estimate_footprint(const Schedule& schedule, std::size_t chunks);

/// `chunks`, halved while the run would pass a limit of check_footprint (at least 1).
std::size_t chunks_within_limits(const Schedule& schedule, std::size_t chunks);

/// Throws InputError naming `what` (e.g. "ring AllReduce on 1024 ranks"), the estimate and
/// the limit when the footprint is beyond a limit, or the lanes beyond 32-bit indices.
void check_footprint(const Schedule& schedule, std::size_t chunks, const std::string& what);

/// The limits on what is known before a schedule is built: its lanes (ranks x channels x
/// chunks). A schedule of C channel rings holds C orders of the p ranks, so one that the
/// lanes alone put beyond a limit is refused before it is built (1,600 rings of 3,200 ranks
/// once took 4 GB and minutes before check_footprint could refuse it).
void check_lanes(std::size_t ranks, std::size_t channels, std::size_t chunks, const std::string& what);

}  // namespace commsim
