#include "study/training_search.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "base/error.h"
#include "base/ordered_parallel.h"

namespace commsim {
namespace {

constexpr std::uint32_t kMaxSearchedCp = 8;

// 1, 2, 4, ... up to `limit` that divide `limit`; or the fixed value alone.
std::vector<std::uint32_t> candidates(std::optional<std::uint32_t> fixed, std::uint64_t limit) {
  if (fixed) return {*fixed};
  std::vector<std::uint32_t> values;
  for (std::uint64_t v = 1; v <= limit; v *= 2) {
    if (limit % v == 0) values.push_back(static_cast<std::uint32_t>(v));
  }
  return values;
}

std::vector<ParallelConfig> splits(const TrainingAnalysisOptions& base, const SearchConstraints& fixed,
                                   std::uint64_t gpus) {
  std::vector<ParallelConfig> all;
  for (const std::uint32_t tp : candidates(fixed.tp, gpus)) {
    for (const std::uint32_t pp : candidates(fixed.pp, gpus / tp)) {
      for (const std::uint32_t cp : candidates(fixed.cp, gpus / (std::uint64_t{tp} * pp))) {
        if (!fixed.cp && cp > kMaxSearchedCp) continue;
        const std::uint64_t dp = gpus / (std::uint64_t{tp} * pp * cp);
        if (dp * tp * pp * cp != gpus || (fixed.dp && *fixed.dp != dp)) continue;
        ParallelConfig p = base.setup.parallel;
        p.dp = static_cast<std::uint32_t>(dp);
        p.tp = tp;
        p.pp = pp;
        p.cp = cp;
        if (p.pp == 1 && p.schedule == PpSchedule::kInterleaved) continue;
        all.push_back(p);
      }
    }
  }
  return all;
}

// A split's lower bound: no simulated step is shorter.
double lower_bound_s(const TrainingAnalysis& a) { return a.compute_s + a.bubble_s; }

constexpr std::size_t kBatch = 4;

SimulatedStep simulate_with(const Topology& topology, TrainingAnalysisOptions o, std::uint64_t microbatches,
                            const StepSimulationOptions& simulation) {
  const ParallelConfig& p = o.setup.parallel;
  o.setup.batch.global_batch = microbatches * o.setup.batch.micro_batch * p.dp;
  return simulate_training_step(topology, o, analyze_training(topology, o), simulation);
}

TimePs along(TimePs first, TimePs second, double t) {
  return static_cast<TimePs>(std::llround(static_cast<double>(first) + t * (static_cast<double>(second) - static_cast<double>(first))));
}

// The step of m micro-batches. Once the pipeline is full each further micro-batch adds the
// same time, so for m above 4 pp (at least 8) two simulations of m1 = 2 pp and m2 = 4 pp
// (at least 4 and 8) are extended along their line: T(m) = T(m1) + (m - m1) (T(m2) - T(m1))
// / (m2 - m1); compute and exposed time likewise.
SimulatedStep simulate_split(const Topology& topology, const TrainingAnalysisOptions& o, const TrainingAnalysis& a,
                             const StepSimulationOptions& simulation) {
  const std::uint64_t m1 = std::max<std::uint64_t>(4, 2 * o.setup.parallel.pp), m2 = 2 * m1;
  if (a.microbatches <= m2) return simulate_training_step(topology, o, a, simulation);
  const SimulatedStep first = simulate_with(topology, o, m1, simulation);
  const SimulatedStep second = simulate_with(topology, o, m2, simulation);
  const double t = static_cast<double>(a.microbatches - m1) / static_cast<double>(m2 - m1);
  SimulatedStep step = second;
  step.step_ps = along(first.step_ps, second.step_ps, t);
  step.compute_ps = along(first.compute_ps, second.compute_ps, t);
  step.exposed_ps = along(first.exposed_ps, second.exposed_ps, t);
  for (std::size_t d = 0; d < step.exposed_by_dimension.size(); ++d) {
    step.exposed_by_dimension[d].second =
        along(first.exposed_by_dimension[d].second, second.exposed_by_dimension[d].second, t);
  }
  step.mfu = a.flops.model_flops /
             (seconds_from_ps(step.step_ps) * static_cast<double>(a.gpus) * o.peak_tflops * 1e12);
  step.nodes = first.nodes + second.nodes;
  return step;
}  // splits simulated at a time (fixed: the result must not depend on threads)

}  // namespace

TrainingSearch search_training(const Topology& topology, const TrainingAnalysisOptions& base,
                               const SearchConstraints& fixed, const StepSimulationOptions& simulation, unsigned jobs,
                               std::size_t top, const SearchProgress& on_split) {
  TrainingSearch search;
  std::vector<SearchRow> fitting;
  for (const ParallelConfig& p : splits(base, fixed, topology.npu_count())) {
    ++search.considered;
    TrainingAnalysisOptions o = base;
    o.setup.parallel = p;
    try {
      TrainingAnalysis a = analyze_training(topology, o);
      if (a.fits) {
        fitting.push_back({p, std::move(a), std::nullopt});
      } else {
        ++search.too_large;
      }
    } catch (const InputError&) {
      ++search.rejected;  // the model, the batch or the topology does not allow it
    }
  }
  if (search.considered == 0) throw InputError("--search: no split of the GPUs matches the fixed degrees");
  std::stable_sort(fitting.begin(), fitting.end(),
                   [](const SearchRow& a, const SearchRow& b) { return lower_bound_s(a.analysis) < lower_bound_s(b.analysis); });
  StepSimulationOptions coarse = simulation;
  if (coarse.max_slices == 0) coarse.max_slices = 1;
  coarse.on_progress = nullptr;  // steps run on several threads: progress is per split
  coarse.on_layout_progress = nullptr;
  std::vector<double> steps_s;  // simulated so far, sorted
  for (std::size_t next = 0; next < fitting.size(); next += kBatch) {
    if (steps_s.size() >= top && lower_bound_s(fitting[next].analysis) > steps_s[top - 1]) break;
    const std::size_t count = std::min(kBatch, fitting.size() - next);
    run_in_order<SimulatedStep>(
        count, jobs,
        [&](std::size_t i) {
          TrainingAnalysisOptions o = base;
          o.setup.parallel = fitting[next + i].parallel;
          // An explicit graph's Dijkstra trees are filled in as routes are read: a copy per task (the
          // graph and a built kind's router are shared, immutable).
          const Topology own = topology;
          return simulate_split(own, o, fitting[next + i].analysis, coarse);
        },
        [&](std::size_t i, SimulatedStep&& step) {
          steps_s.insert(std::upper_bound(steps_s.begin(), steps_s.end(), seconds_from_ps(step.step_ps)),
                         seconds_from_ps(step.step_ps));
          fitting[next + i].simulated = std::move(step);
          if (on_split) on_split(steps_s.size(), fitting.size());
        });
  }
  const auto key = [](const SearchRow& r) {
    return std::tuple(!r.simulated, r.simulated ? seconds_from_ps(r.simulated->step_ps) : lower_bound_s(r.analysis),
                      r.parallel.tp, r.parallel.pp, r.parallel.cp);
  };
  std::stable_sort(fitting.begin(), fitting.end(), [&](const SearchRow& a, const SearchRow& b) { return key(a) < key(b); });
  search.rows = std::move(fitting);
  return search;
}

}  // namespace commsim
