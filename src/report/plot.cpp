#include "report/plot.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/error.h"

namespace commsim {
namespace {

// gnuplot strings in double quotes: backslash and quote escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

constexpr std::size_t kSeriesInsideKey = 6;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// The style of colour number `color` (1, 2, ...): twelve distinguishable colours (the
// "tab20" dark tones), then the same colours again with another point shape and dash, so
// every series of a panel up to 60 looks different.
std::string style(const PlotSeries& series) {
  static constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                             "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};
  static constexpr int kPoints[] = {7, 5, 9, 11, 13};
  constexpr std::size_t kColours = std::size(kPalette);
  const std::size_t i = static_cast<std::size_t>(std::max(series.color, 1) - 1);
  const std::size_t round = (i / kColours) % std::size(kPoints);
  const std::string colour = std::string(" lc rgb \"") + kPalette[i % kColours] + "\"";
  if (series.line) return "lines lw 2 dt " + std::to_string(round + 1) + colour;
  return "points pt " + std::to_string(kPoints[round]) + " ps 0.6" + colour;
}

void write_panel(std::ostream& s, const PlotPanel& panel, std::size_t first_block) {
  s << "set title " << quoted(panel.title) << "\n"
    << "set xlabel " << quoted(panel.x_label) << "\nset ylabel " << quoted(panel.y_label) << "\n"
    << (panel.log_x ? "set logscale x 2\n" : "unset logscale x\n")
    << (panel.log_y ? "set logscale y 10\n" : "unset logscale y\n")
    << (panel.x_is_bytes ? "set format x \"%.0b%B\"\n" : "set format x \"%g\"\n") << "set format y \"%g\"\n";
  s << "plot ";
  for (std::size_t i = 0; i < panel.series.size(); ++i) {
    const PlotSeries& series = panel.series[i];
    s << (i ? ", \\\n     " : "") << "$d" << first_block + i << " using 1:2 with " << style(series) << " title "
      << quoted(series.title);
  }
  s << "\n";
}

// A scratch file removed when it goes out of scope.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix) {
    std::string pattern = (std::filesystem::temp_directory_path() / ("commsim-XXXXXX" + suffix)).string();
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) throw InputError("cannot create a scratch file in " + std::filesystem::temp_directory_path().string());
    close(fd);
    path_ = pattern;
  }
  ~ScratchFile() { std::filesystem::remove(path_); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The extension of `path`, lower case, with its dot; "" when it has none.
std::string extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

ImageFormat image_format(const std::string& path, std::string_view what) {
  const std::string ext = extension(path);
  if (ext == ".svg") return ImageFormat::kSvg;
  if (ext == ".png") return ImageFormat::kPng;
  throw InputError(std::string(what) + ": cannot draw '" + path + "': give a file ending in .svg or .png");
}

std::string image_stem(const std::string& path) {
  const std::string ext = extension(path);
  return ext == ".svg" || ext == ".png" ? path.substr(0, path.size() - ext.size()) : path;
}

std::string gnuplot_script(const Figure& figure, ImageFormat format) {
  std::ostringstream s;
  std::size_t block = 0;
  for (const PlotPanel& panel : figure.panels) {
    for (const PlotSeries& series : panel.series) {
      s << "$d" << block++ << " << EOD\n";
      for (const auto& [x, y] : series.points) s << number(x) << " " << number(y) << "\n";
      s << "EOD\n";
    }
  }
  // Beyond a few series the key goes to the right of each panel, which widens to hold it.
  std::size_t most_series = 0;
  for (const PlotPanel& panel : figure.panels) most_series = std::max(most_series, panel.series.size());
  const bool key_outside = most_series > kSeriesInsideKey;
  s << "set terminal " << (format == ImageFormat::kPng ? "pngcairo" : "svg") << " size "
    << (key_outside ? 820 : 520) * figure.panels.size() << ",440 font \"sans,11\" background \"white\"\n"
    << (key_outside ? "set key outside right top vertical font \",9\"\n" : "set key top left\n") << "set grid\n"
    << "set multiplot layout 1," << figure.panels.size() << " title " << quoted(figure.title) << "\n";
  block = 0;
  for (const PlotPanel& panel : figure.panels) {
    write_panel(s, panel, block);
    block += panel.series.size();
  }
  s << "unset multiplot\n";
  return s.str();
}

void require_gnuplot() {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0) {
    throw InputError("--plot draws with gnuplot, which cannot be run here (Debian: apt install gnuplot-nox)");
  }
}

std::string render_image(const Figure& figure, ImageFormat format) {
  const ScratchFile script(".gp"), image(format == ImageFormat::kPng ? ".png" : ".svg"), errors(".txt");
  std::ofstream(script.path()) << gnuplot_script(figure, format);
  const std::string command = "gnuplot " + script.path() + " > " + image.path() + " 2> " + errors.path();
  if (std::system(command.c_str()) != 0) {
    throw InputError("gnuplot could not draw the figure '" + figure.title + "': " + read_all(errors.path()));
  }
  return read_all(image.path());
}

}  // namespace commsim
