#pragma once
// Figures as SVG or PNG, drawn by gnuplot (README, dependencies): commsim writes the data
// and a script, gnuplot draws. A figure is panels side by side, each a set of series of (x, y)
// points on linear or logarithmic axes, drawn as points (measurements) or lines (predictions).

#include <string>
#include <string_view>
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

/// What --plot FILE draws, by FILE's extension (any case): .svg with gnuplot's svg terminal,
/// .png with its pngcairo terminal (the same size in pixels). Both are byte for byte the
/// same for the same figure; PDF is not offered, as cairo stamps each file with its time.
enum class ImageFormat { kSvg, kPng };

/// The format of `path` (ImageFormat). Throws InputError naming `what` (e.g. "--plot") and
/// the path when its extension is neither.
ImageFormat image_format(const std::string& path, std::string_view what);

/// `path` without its image extension (.svg or .png, any case), e.g. to put the script
/// beside it as STEM.gp; `path` itself when it has neither.
std::string image_stem(const std::string& path);

/// The gnuplot script that draws `figure` in `format` on its standard output, the data inline.
std::string gnuplot_script(const Figure& figure, ImageFormat format = ImageFormat::kSvg);

/// Throws InputError saying what to install when gnuplot cannot be run: a command with
/// --plot calls it before its work.
void require_gnuplot();

/// The image gnuplot draws for `figure` in `format` (an SVG document, or a PNG file's bytes).
/// Throws InputError if gnuplot fails.
std::string render_image(const Figure& figure, ImageFormat format = ImageFormat::kSvg);

}  // namespace commsim
