#pragma once
// A sweep's rows (study/sweep_rows.h, either layout) as a figure (report/plot.h): time or bus
// bandwidth against message size or NPU count on log axes, the simulation as points and the
// closed form as a line of the same colour, one colour per series.
//   collective rows  a panel per collective; a series per topology (per topology kind
//                    against NPUs), algorithm, library and rank order
//   pipeline rows    a panel per schedule, step time against activation size or NPUs; a
//                    series per topology (kind), P2P mode, library and rank order
// Against NPUs, each series is drawn at the largest size of the rows.
// Read from rows rather than results, so merged shards and resumed sweeps plot alike.

#include <string>
#include <vector>

#include "report/plot.h"

namespace commsim {

enum class SweepAxisX { kSize, kNpus };
enum class SweepAxisY { kTime, kBusbw };

/// `header` and `rows` as the CSV holds them. Throws InputError for busbw of pipeline rows.
Figure sweep_figure(const std::string& header, const std::vector<std::string>& rows, SweepAxisX x, SweepAxisY y);

}  // namespace commsim
