#pragma once
// A sweep's rows as a figure (report/plot.h): one panel per collective, time or bus
// bandwidth against message size or NPU count on log axes, the simulation as points and the
// closed form as a line of the same colour, one colour per series:
//   against size       a series per topology, library and algorithm
//   against NPUs       a series per topology kind, library and algorithm, at the sweep's
//                      largest message size

#include <string>
#include <vector>

#include "report/plot.h"
#include "study/sweep.h"

namespace commsim {

enum class SweepAxisX { kSize, kNpus };
enum class SweepAxisY { kTime, kBusbw };

/// A point of the sweep with what it gave and the topology it ran on.
struct SweepResult {
  SweepPoint point;
  CollectivePoint result;
  std::size_t npus = 0;
  std::string topology;  // its name
  std::string kind;      // its kind
  std::string library;
};

Figure sweep_figure(const std::vector<SweepResult>& results, SweepAxisX x, SweepAxisY y);

}  // namespace commsim
