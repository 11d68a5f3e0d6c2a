#include "study/sweep_plot.h"

#include <algorithm>
#include <string_view>

#include "base/error.h"
#include "base/units.h"
#include "study/sweep_rows.h"
#include "study/text_table.h"

namespace commsim {
namespace {

struct SeriesPair {
  std::string key;
  PlotSeries sim;
  PlotSeries model;
};

struct Panel {
  std::string title;
  std::vector<SeriesPair> series;  // in order of first appearance
};

// Where each column a figure reads sits in the rows of one layout.
struct Columns {
  bool pipeline = false;
  std::size_t panel, topology, kind, npus, variant, library, rank_order, size, sim, model, busbw;

  Columns(const CsvHeader& h, SweepLayout layout) : pipeline(layout == SweepLayout::kPipeline) {
    panel = h.require(pipeline ? "schedule" : "collective");
    topology = h.require("topology");
    kind = h.require("kind");
    npus = h.require("npus");
    variant = h.require(pipeline ? "p2p_mode" : "algorithm");
    library = h.require("library");
    rank_order = h.require("rank_order");
    size = h.require(pipeline ? "activation_bytes" : "size_bytes");
    sim = h.require(pipeline ? "step_time_us" : "sim_time_us");
    model = h.require(pipeline ? "model_step_time_us" : "model_time_us");
    busbw = pipeline ? 0 : h.require("busbw_GBps");
  }
};

double number(std::string_view cell) { return parse_real(cell, "a sweep row"); }

// y of the simulation or the closed form; busbw scales as 1 / time, so the closed form's is
// the simulation's x sim / model.
double y_value(const std::vector<std::string_view>& cells, const Columns& c, SweepAxisY y, bool model) {
  const double sim = number(cells[c.sim]), closed = number(cells[c.model]);
  if (y == SweepAxisY::kBusbw) return number(cells[c.busbw]) * (model && closed > 0 ? sim / closed : 1);
  return model ? closed : sim;
}

std::string series_key(const std::vector<std::string_view>& cells, const Columns& c, SweepAxisX x) {
  std::string key(cells[x == SweepAxisX::kSize ? c.topology : c.kind]);
  key.append(" ").append(cells[c.variant]);
  if (cells[c.library] != "ideal") key.append(" ").append(cells[c.library]);
  if (cells[c.rank_order] != "linear") key.append(" ").append(cells[c.rank_order]);
  return key;
}

SeriesPair& series_of(Panel& panel, const std::string& key) {
  auto s = std::find_if(panel.series.begin(), panel.series.end(), [&](const SeriesPair& p) { return p.key == key; });
  if (s != panel.series.end()) return *s;
  const int color = static_cast<int>(panel.series.size()) + 1;  // report/plot.h cycles its palette
  panel.series.push_back({key, {key + " (sim)", false, color, {}}, {key + " (model)", true, color, {}}});
  return panel.series.back();
}

}  // namespace

Figure sweep_figure(const std::string& header_line, const std::vector<std::string>& rows, SweepAxisX x, SweepAxisY y) {
  const SweepLayout layout = sweep_layout(header_line, "the sweep's rows");
  const CsvHeader header(header_line, "the sweep's rows");
  const Columns c(header, layout);
  if (c.pipeline && y == SweepAxisY::kBusbw) throw InputError("--plot-y busbw: a pipeline sweep has step times only");
  std::vector<std::vector<std::string_view>> cells;
  double largest = 0;
  for (const std::string& row : rows) {
    cells.push_back(header.row_fields(row, "the sweep's rows"));
    largest = std::max(largest, number(cells.back()[c.size]));
  }
  std::vector<Panel> panels;
  for (const auto& row : cells) {
    // Against NPUs: the largest size only (Barrier, of size 0, has no other).
    const double size = number(row[c.size]);
    if (x == SweepAxisX::kNpus && size != largest && size != 0) continue;
    auto panel = std::find_if(panels.begin(), panels.end(), [&](const Panel& p) { return p.title == row[c.panel]; });
    if (panel == panels.end()) panel = panels.insert(panels.end(), Panel{std::string(row[c.panel]), {}});
    SeriesPair& series = series_of(*panel, series_key(row, c, x));
    const double xv = x == SweepAxisX::kSize ? size : number(row[c.npus]);
    series.sim.points.emplace_back(xv, y_value(row, c, y, false));
    series.model.points.emplace_back(xv, y_value(row, c, y, true));
  }
  Figure figure;
  figure.title = x == SweepAxisX::kSize ? "commsim sweep" : "commsim sweep at " + format_size(static_cast<Bytes>(largest));
  for (Panel& p : panels) {
    PlotPanel panel;
    panel.title = p.title;
    panel.x_label = x == SweepAxisX::kNpus ? "NPUs" : c.pipeline ? "activation size (B)" : "size (B)";
    panel.y_label = y == SweepAxisY::kBusbw ? "busbw (GB/s)" : c.pipeline ? "step time (us)" : "time (us)";
    panel.log_x = true;
    panel.log_y = true;
    panel.x_is_bytes = x == SweepAxisX::kSize;
    for (SeriesPair& pair : p.series) {
      panel.series.push_back(std::move(pair.sim));
      panel.series.push_back(std::move(pair.model));
    }
    figure.panels.push_back(std::move(panel));
  }
  return figure;
}

}  // namespace commsim
