#include "study/sweep_plot.h"

#include <algorithm>
#include <map>

namespace commsim {
namespace {

struct SeriesPair {
  PlotSeries sim;
  PlotSeries model;
};

double y_value(const SweepResult& r, SweepAxisY y, bool model) {
  if (y == SweepAxisY::kBusbw) {
    // busbw scales as 1 / time: the closed form's is the simulation's x sim / model.
    const double ratio = model && r.result.model_s > 0 ? seconds_from_ps(r.result.sim_ps) / r.result.model_s : 1;
    return r.result.busbw_GBps * ratio;
  }
  return model ? r.result.model_s * 1e6 : us_from_ps(r.result.sim_ps);
}

}  // namespace

Figure sweep_figure(const std::vector<SweepResult>& results, SweepAxisX x, SweepAxisY y) {
  Bytes largest = 0;
  for (const SweepResult& r : results) largest = std::max(largest, r.point.size);
  // collective -> series key -> the pair, both in order of first appearance
  std::vector<std::pair<CollectiveKind, std::vector<std::pair<std::string, SeriesPair>>>> panels;
  for (const SweepResult& r : results) {
    if (x == SweepAxisX::kNpus && r.point.size != largest && r.point.kind != CollectiveKind::kBarrier) continue;
    auto panel = std::find_if(panels.begin(), panels.end(), [&](const auto& p) { return p.first == r.point.kind; });
    if (panel == panels.end()) panel = panels.insert(panels.end(), {r.point.kind, {}});
    const std::string algorithm = r.point.algorithm ? std::string(algorithm_name(*r.point.algorithm)) : "nccl";
    const std::string key = (x == SweepAxisX::kSize ? r.topology : r.kind) + " " + algorithm +
                            (r.library == "ideal" ? "" : " " + r.library);
    auto& series = panel->second;
    auto s = std::find_if(series.begin(), series.end(), [&](const auto& e) { return e.first == key; });
    if (s == series.end()) {
      const int color = static_cast<int>(series.size()) % 8 + 1;
      s = series.insert(series.end(), {key, {{key + " (sim)", false, color, {}}, {key + " (model)", true, color, {}}}});
    }
    const double xv = x == SweepAxisX::kSize ? static_cast<double>(r.point.size) : static_cast<double>(r.npus);
    s->second.sim.points.emplace_back(xv, y_value(r, y, false));
    s->second.model.points.emplace_back(xv, y_value(r, y, true));
  }
  Figure figure;
  figure.title = x == SweepAxisX::kSize ? "commsim sweep" : "commsim sweep at " + format_size(largest);
  for (auto& [kind, series] : panels) {
    PlotPanel panel;
    panel.title = std::string(collective_name(kind));
    panel.x_label = x == SweepAxisX::kSize ? "size (B)" : "NPUs";
    panel.y_label = y == SweepAxisY::kTime ? "time (us)" : "busbw (GB/s)";
    panel.log_x = true;
    panel.log_y = true;
    panel.x_is_bytes = x == SweepAxisX::kSize;
    for (auto& [key, pair] : series) {
      panel.series.push_back(std::move(pair.sim));
      panel.series.push_back(std::move(pair.model));
    }
    figure.panels.push_back(std::move(panel));
  }
  return figure;
}

}  // namespace commsim
