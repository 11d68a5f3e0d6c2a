#include "study/sweep_plot.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

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

// Against NPUs, a topology's name without its size: "tree-64-os4" is "tree-os4", so each
// oversubscription (arity, ...) is a series of its own; a name of another form, as it is.
std::string family(std::string_view name, std::string_view kind) {
  if (name.substr(0, kind.size() + 1) != std::string(kind) + "-") return std::string(name);
  const std::size_t size_end = name.find('-', kind.size() + 1);
  return std::string(kind) + (size_end == std::string_view::npos ? "" : std::string(name.substr(size_end)));
}

std::string series_key(const std::vector<std::string_view>& cells, const Columns& c, SweepAxisX x) {
  std::string key = x == SweepAxisX::kSize ? std::string(cells[c.topology]) : family(cells[c.topology], cells[c.kind]);
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
    // On log axes a point at 0 cannot be drawn (Barrier's bus bandwidth, a 0-byte size).
    const double xv = x == SweepAxisX::kSize ? size : number(row[c.npus]);
    const double sim = y_value(row, c, y, false), model = y_value(row, c, y, true);
    if (xv <= 0 || sim <= 0 || model <= 0) continue;
    auto panel = std::find_if(panels.begin(), panels.end(), [&](const Panel& p) { return p.title == row[c.panel]; });
    if (panel == panels.end()) panel = panels.insert(panels.end(), Panel{std::string(row[c.panel]), {}});
    SeriesPair& series = series_of(*panel, series_key(row, c, x));
    series.sim.points.emplace_back(xv, sim);
    series.model.points.emplace_back(xv, model);
  }
  if (panels.empty()) throw InputError("--plot: no row has a point that log axes can draw (every value is 0)");
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
