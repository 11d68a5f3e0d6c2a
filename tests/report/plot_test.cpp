// Figures: the gnuplot script a figure becomes, and the SVG or PNG gnuplot draws from it.

#include "report/plot.h"

#include <gtest/gtest.h>

#include "../expect_contains.h"
#include "base/error.h"

namespace commsim {
namespace {

Figure two_series() {
  PlotPanel panel{"time per call", "size (B)", "time (us)", true, true, true, {}};
  panel.series.push_back({"allreduce measured", false, 1, {{1024, 12.5}, {2048, 13}}});
  panel.series.push_back({"allreduce \"predicted\"", true, 1, {{1024, 11}, {2048, 12.25}}});
  return {"h100 node", {panel}};
}

TEST(Plot, ScriptCarriesTheDataAxesAndTitles) {
  const std::string script = gnuplot_script(two_series());
  // The data inline, one block per series, in order.
  EXPECT_CONTAINS(script, "$d0 << EOD\n1024 12.5\n2048 13\nEOD\n$d1 << EOD\n1024 11\n2048 12.25\nEOD\n");
  EXPECT_CONTAINS(script, "set logscale x 2\nset logscale y 10\nset format x \"%.0b%B\"");
  EXPECT_CONTAINS(script, "set terminal svg size 520,440");
  EXPECT_CONTAINS(script,
                  "plot $d0 using 1:2 with points pt 7 ps 0.6 lc rgb \"#1f77b4\" title \"allreduce measured\", \\\n"
                  "     $d1 using 1:2 with lines lw 2 dt 1 lc rgb \"#1f77b4\" title \"allreduce \\\"predicted\\\"\"");
}

TEST(Plot, SeriesBeyondThePaletteChangeShapeAndDash) {
  // Colour 13 is colour 1's tone again, drawn with the second point shape and dash.
  Figure figure = two_series();
  figure.panels[0].series = {{"a", false, 13, {{1, 1}}}, {"b", true, 13, {{1, 1}}}, {"c", false, 12, {{1, 1}}}};
  const std::string script = gnuplot_script(figure);
  EXPECT_CONTAINS(script, "points pt 5 ps 0.6 lc rgb \"#1f77b4\" title \"a\"");
  EXPECT_CONTAINS(script, "lines lw 2 dt 2 lc rgb \"#1f77b4\" title \"b\"");
  EXPECT_CONTAINS(script, "points pt 7 ps 0.6 lc rgb \"#637939\" title \"c\"");
}

TEST(Plot, ManySeriesMoveTheKeyOutsideAWiderPanel) {
  Figure figure = two_series();
  EXPECT_NE(gnuplot_script(figure).find("set key top left\n"), std::string::npos);
  for (int i = 0; i < 5; ++i) figure.panels[0].series.push_back({"more", true, 2, {{1024, 1}}});  // 7 series
  const std::string script = gnuplot_script(figure);
  EXPECT_CONTAINS(script, "set terminal svg size 820,440");
  EXPECT_CONTAINS(script, "set key outside right top vertical");
}

TEST(Plot, GnuplotDrawsTheFigureAsSvg) {
  require_gnuplot();  // .ci/setup installs it
  const std::string svg = render_image(two_series());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg.substr(0, 200);
  EXPECT_CONTAINS(svg, "allreduce measured");
  EXPECT_CONTAINS(svg, "h100 node");
  EXPECT_EQ(svg, render_image(two_series()));  // the same figure, byte for byte
}

TEST(Plot, TheFileExtensionChoosesSvgOrPng) {
  EXPECT_EQ(image_format("out/fig.svg", "--plot"), ImageFormat::kSvg);
  EXPECT_EQ(image_format("fig.PNG", "--plot"), ImageFormat::kPng);
  for (const char* path : {"fig.pdf", "fig", "fig.svg.gz"}) {
    try {
      image_format(path, "--plot");
      ADD_FAILURE() << path;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--plot: cannot draw '") + path + "': give a file ending in .svg or .png");
    }
  }
  EXPECT_EQ(image_stem("out/fig.svg"), "out/fig");
  EXPECT_EQ(image_stem("fig.PNG"), "fig");
  EXPECT_EQ(image_stem("fig"), "fig");
  EXPECT_CONTAINS(gnuplot_script(two_series(), ImageFormat::kPng), "set terminal pngcairo size 520,440");
}

TEST(Plot, GnuplotDrawsTheFigureAsPng) {
  require_gnuplot();
  const std::string png = render_image(two_series(), ImageFormat::kPng);
  EXPECT_EQ(png.rfind("\x89PNG\r\n\x1a\n", 0), 0u) << png.substr(0, 16);
  // Width and height, big-endian in the IHDR chunk at bytes 16-23: 520 x 440 pixels.
  ASSERT_GE(png.size(), 24u);
  EXPECT_EQ(png.substr(16, 8), std::string("\0\0\x02\x08\0\0\x01\xb8", 8));
  EXPECT_EQ(png, render_image(two_series(), ImageFormat::kPng));  // the same figure, byte for byte
}

}  // namespace
}  // namespace commsim
