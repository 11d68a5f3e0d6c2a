#pragma once
// The rows commsim analyze writes with --csv and --json: one per split (one for a single
// analysis, one per split of --search), each with the setup that made it, the memory, the
// closed form per dimension and the simulated step ("-" where not simulated).

#include <optional>
#include <string>
#include <vector>

#include "study/training_step_sim.h"

namespace commsim::cli {

std::string analysis_csv_header();
std::vector<std::string> analysis_cells(const TrainingSetup& setup, const TrainingAnalysis& analysis,
                                        const std::optional<SimulatedStep>& simulated);
std::string analysis_json_line(const std::vector<std::string>& cells);

}  // namespace commsim::cli
