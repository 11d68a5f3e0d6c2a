#pragma once
// Figures as SVG, drawn by gnuplot (README, dependencies): commsim writes the data and a
// script, gnuplot draws. A figure is panels side by side, each a set of series of (x, y)
// points on linear or logarithmic axes, drawn as points (measurements) or lines (predictions).

#include <string>
#include <utility>
#include <vector>

namespace commsim {

struct PlotSeries {
  std::string title;
  bool line = false;  // false: points
  int color = 1;      // gnuplot's line type colour; series of one colour belong together
  std::vector<std::pair<double, double>> points;
};

struct PlotPanel {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  bool x_is_bytes = false;  // tick labels with binary prefixes: 1K, 32M, 1G
  std::vector<PlotSeries> series;
};

struct Figure {
  std::string title;
  std::vector<PlotPanel> panels;
};

/// The gnuplot script that draws `figure` as SVG on its standard output, the data inline.
std::string gnuplot_script(const Figure& figure);

/// Throws InputError saying what to install when gnuplot cannot be run: a command with
/// --plot calls it before its work.
void require_gnuplot();

/// The SVG document gnuplot draws for `figure`. Throws InputError if gnuplot fails.
std::string render_svg(const Figure& figure);

}  // namespace commsim
