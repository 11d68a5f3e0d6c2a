#pragma once
// Which algorithm implements which collective on which topology, and the schedules.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"
#include "topology/topology.h"

namespace commsim {

/// Why `algorithm` cannot run `kind` on `topology`, or nothing if it can.
std::optional<std::string> inapplicable_reason(CollectiveKind kind, AlgorithmKind algorithm,
                                               const Topology& topology);
/// Every algorithm that can run `kind` on `topology`, in the order of all_algorithms().
std::vector<AlgorithmKind> applicable_algorithms(CollectiveKind kind, const Topology& topology);

/// Throws InputError with inapplicable_reason() if the algorithm does not apply.
std::unique_ptr<Schedule> make_schedule(CollectiveKind kind, AlgorithmKind algorithm,
                                        const Topology& topology, Rank root);

/// Bytes of a schedule's whole block space for an nccl-tests size on p ranks: the size,
/// except AllToAll, whose blocks hold every rank's data (p * size).
Bytes block_space_bytes(CollectiveKind kind, Bytes size, std::size_t ranks);

}  // namespace commsim
