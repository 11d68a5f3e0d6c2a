#pragma once
// Level-by-level collectives: hierarchical (levels: GPUs in a node, then nodes) and
// dimensional (levels: the dimensions of a mesh or torus). Rank r has digit
// d_l = (r / (s_0 ... s_{l-1})) mod s_l at level l; a level's groups are the ranks that
// differ only in that digit, and each group runs a ring (two rings, one each way with half
// the data, when bidirectional, as on a torus).
//
//   AllReduce      ReduceScatter at levels 0, 1, .., L-1, then AllGather at L-1, .., 0
//                  (hierarchical: intra-node ReduceScatter, inter-node AllReduce among
//                  same-index GPUs, intra-node AllGather)
//   ReduceScatter  ReduceScatter at levels 0, .., L-1
//   AllGather      AllGather at levels L-1, .., 0
//   Broadcast      a chain at each level L-1, .., 0 from the ranks that already hold the data
//   Reduce         a chain toward the root's digit at each level 0, .., L-1
//
// At level l a ring moves "super-blocks": the blocks whose lower digits equal the rank's
// own (what it is responsible for after the lower levels) and whose digit l is fixed, so
// the data per step shrinks by s_l at each level: n_l / s_l with n_l = n / (s_0 .. s_{l-1}).

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

std::unique_ptr<Schedule> make_multilevel_schedule(CollectiveKind kind,
                                                   const std::vector<std::uint32_t>& levels,
                                                   bool bidirectional, Rank root);

}  // namespace commsim
