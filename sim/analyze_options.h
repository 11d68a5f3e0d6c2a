#pragma once
// The options of commsim analyze: the model (a preset or its shape), the parallel split, the
// batch and training settings, compute speed and memory, and the communication libraries,
// gathered into a TrainingAnalysisOptions (study/training_analysis.h).

#include <cstdint>

#include "command_line.h"
#include "study/training_analysis.h"

namespace commsim::cli {

po::options_description analyze_model_options();
po::options_description analyze_parallel_options();
po::options_description analyze_training_options();

/// The analysis of the job on `gpus` GPUs. Throws InputError on a bad value, a missing shape
/// field, or degrees whose product is not the GPU count.
TrainingAnalysisOptions analysis_from_options(const po::variables_map& vm, std::uint64_t gpus);

}  // namespace commsim::cli
