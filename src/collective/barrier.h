#pragma once
// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier
// synchronization", Int. J. Parallel Programming 17(1), 1988): L = ceil(log2 p) rounds; in
// round k rank r signals r + 2^k and waits for r - 2^k (mod p). One block of 0 bytes (a
// barrier moves no data), so on an idle network it takes L alpha.

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

std::unique_ptr<Schedule> make_dissemination_schedule(std::size_t ranks);

}  // namespace commsim
