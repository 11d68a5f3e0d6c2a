#include "model/pipeline_model.h"

#include <algorithm>

#include "base/error.h"
#include "model/p2p_model.h"

namespace commsim {

PipelineModel pipeline_model(const PipelineModelInput& in) {
  const double p = in.stages;
  const double m = in.microbatches;
  const double v = in.virtual_stages;
  COMMSIM_CHECK(in.forward_s.size() == in.stages && in.backward_s.size() == in.stages,
                "pipeline model needs a time per stage");
  double sum = 0;
  double slowest = 0;
  for (std::size_t s = 0; s < in.stages; ++s) {
    sum += in.forward_s[s] + in.backward_s[s];
    slowest = std::max(slowest, in.forward_s[s] + in.backward_s[s]);
  }
  PipelineModel out;
  if (in.virtual_stages > 1) {
    out.step_s = (m + (p - 1) / v) * slowest;
    out.bubble = (p - 1) / (v * m + p - 1);
  } else {
    out.step_s = sum + (m - 1) * slowest;
    out.bubble = (p - 1) / (m + p - 1);
  }
  out.step_with_p2p_s = out.step_s + 2 * (p * v - 1) * in.p2p_s;
  return out;
}

double boundary_transfer_s(const Topology& topology, const std::vector<Rank>& npu_of_stage,
                           bool wraps, Bytes bytes, double launch_s, const ProtocolCosts& library) {
  double slowest = 0;
  const std::size_t n = npu_of_stage.size();
  for (std::size_t s = 0; s + 1 < n || (wraps && s < n && n > 1); ++s) {
    const Rank a = npu_of_stage[s];
    const Rank b = npu_of_stage[(s + 1) % n];
    slowest = std::max(slowest, p2p_time_s(path_params(topology, a, b), launch_s, bytes, library));
  }
  return slowest;
}

}  // namespace commsim
