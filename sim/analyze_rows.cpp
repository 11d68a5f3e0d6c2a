#include "analyze_rows.h"

#include "report/table.h"
#include "study/text_table.h"

namespace commsim::cli {
namespace {

constexpr ParallelDim kDimensions[] = {ParallelDim::kDp, ParallelDim::kTp, ParallelDim::kPp, ParallelDim::kCp,
                                       ParallelDim::kEp};

std::string ms(double seconds) { return fixed(seconds * 1e3, 3); }

}  // namespace

std::string analysis_csv_header() {
  return "model,gpus,dp,tp,pp,cp,ep,schedule,microbatches,micro_batch,seq_length,dtype,optimizer,zero,recompute,"
         "memory_GB,fits,compute_ms,bubble_ms,dp_ms,tp_ms,pp_ms,cp_ms,ep_ms,bound_ms,mfu_at_bound,step_ms,"
         "exposed_ms,mfu";
}

std::vector<std::string> analysis_cells(const TrainingSetup& s, const TrainingAnalysis& a,
                                        const std::optional<SimulatedStep>& simulated) {
  const ParallelConfig& p = s.parallel;
  std::vector<std::string> cells{s.model.name, std::to_string(a.gpus), std::to_string(p.dp), std::to_string(p.tp),
                                 std::to_string(p.pp), std::to_string(p.cp), std::to_string(p.ep),
                                 std::string(pp_schedule_name(p.schedule)), std::to_string(a.microbatches),
                                 std::to_string(s.batch.micro_batch), std::to_string(s.batch.seq_length),
                                 std::string(dtype_name(s.dtype)), std::string(optimizer_name(s.optimizer)),
                                 std::string(zero_name(s.zero)), std::string(recompute_name(s.recompute)),
                                 fixed(a.memory.total_bytes / 1e9, 3), a.fits ? "yes" : "no", ms(a.compute_s),
                                 ms(a.bubble_s)};
  for (const ParallelDim dim : kDimensions) {
    double seconds = 0;
    for (const DimensionCost& d : a.dimensions) {
      if (d.dimension == dim) seconds = d.time_per_step_s;
    }
    cells.push_back(ms(seconds));
  }
  cells.insert(cells.end(), {ms(a.step_bound_s), fixed(a.mfu_at_bound, 4)});
  if (simulated) {
    cells.insert(cells.end(), {ms(seconds_from_ps(simulated->step_ps)), ms(seconds_from_ps(simulated->exposed_ps)),
                               fixed(simulated->mfu, 4)});
  } else {
    cells.insert(cells.end(), {"-", "-", "-"});
  }
  return cells;
}

std::string analysis_json_line(const std::vector<std::string>& cells) {
  static const std::string header = analysis_csv_header();
  static const std::vector<std::string_view> kText{"model", "schedule", "dtype", "optimizer", "zero", "recompute", "fits"};
  const std::vector<std::string_view> views(cells.begin(), cells.end());
  return json_line(comma_fields(header), views, kText);
}

}  // namespace commsim::cli
