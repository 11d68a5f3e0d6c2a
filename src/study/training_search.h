#pragma once
// Every split of a training job over its GPUs that fits: the (dp, tp, pp, cp) whose product
// is the GPU count, each degree a power of two that the model and the batch allow (tp
// dividing the heads and inside a node, pp dividing the layers, cp the sequence; cp up to 8
// unless given), the degrees given fixed, the rest of the setup as given. Each split that
// fits in memory is analysed (study/training_analysis.h) and simulated
// (study/training_step_sim.h) with one slice per model chunk unless the options say
// otherwise (a chunk's collectives of each kind as one: fast, and fewer latencies paid),
// and the table is ranked by simulated step time, the fastest first (ties: the smaller tp,
// pp, cp).
//
// Splits are simulated in order of their lower bound, compute + bubble (no simulated step
// is shorter: every stage computes m micro-batches and waits out the bubble), four at a
// time; once `top` steps are simulated and the next split's lower bound exceeds the
// top-th fastest of them, it and the rest cannot enter the top and are listed after the
// simulated ones with their bounds only. The result does not depend on the threads.
//
// A split of many micro-batches (m above 4 pp, at least 8) is simulated twice with fewer,
// 2 pp and 4 pp (at least 4 and 8), and its step extended along the line through the two:
// once the pipeline is full every micro-batch adds the same time (training_search.cpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "study/training_step_sim.h"

namespace commsim {

/// Degrees held fixed; empty: searched.
struct SearchConstraints {
  std::optional<std::uint32_t> dp, tp, pp, cp;
};

struct SearchRow {
  ParallelConfig parallel;
  TrainingAnalysis analysis;
  std::optional<SimulatedStep> simulated;  // empty: it could not enter the top
};

struct TrainingSearch {
  std::vector<SearchRow> rows;   // ranked
  std::size_t considered = 0;    // splits tried
  std::size_t rejected = 0;      // that the model, the batch or the topology does not allow
  std::size_t too_large = 0;     // that do not fit in memory
};

/// Called on the calling thread as each split's step is simulated: how many so far, of at
/// most how many (the search stops early once the top is certain).
using SearchProgress = std::function<void(std::size_t simulated, std::size_t at_most)>;

/// `base` gives everything but the degrees searched; `jobs` threads simulate (the steps'
/// own `simulation.on_progress` is not called). The global batch stays
/// `base.setup.batch.global_batch` for every split. Throws InputError if no split is
/// possible.
TrainingSearch search_training(const Topology& topology, const TrainingAnalysisOptions& base,
                               const SearchConstraints& fixed, const StepSimulationOptions& simulation, unsigned jobs,
                               std::size_t top = 10, const SearchProgress& on_split = {});

}  // namespace commsim
