#pragma once
// Where each rank of a training step sits (training_step.h): its pipeline and stage, and its
// group in each family, with every rule of the shape checked. generate_training_step builds
// it first, so that writing the nodes has nothing left to check.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/topology.h"
#include "workload/training_step.h"
#include "workload/workload.h"

namespace commsim {

struct StepLayout {
  std::vector<std::uint32_t> pipeline_of;  // per rank: index into shape.pipelines
  std::vector<std::uint32_t> stage_of;     // per rank: its position in that pipeline
  /// [family][rank]: the index in `groups` of the rank's group of that family; empty when
  /// the rank is in none (it skips the family's collectives).
  std::vector<std::vector<std::optional<std::size_t>>> group_of;
  /// Every family's groups, sorted by name: a Chakra group file is read back in name order
  /// (comm_groups_json.h), so the indices survive a round trip.
  std::vector<CommGroup> groups;
};

/// Throws InputError for every rule training_step.h lists except make_pipeline_programs's.
StepLayout make_step_layout(const TrainingStepShape& shape);

}  // namespace commsim
