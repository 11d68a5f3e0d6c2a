#pragma once
// Closed form of a pipeline-parallel step, independent of the simulator.
//
// Without communication (Huang et al. 2019; Narayanan et al. 2021):
//   GPipe, 1F1B    T = (m + p - 1)(tf + tb),        bubble (p - 1) / (m + p - 1)
//   interleaved    T = (m + (p - 1)/v)(tf + tb),    bubble (p - 1) / (v m + p - 1)
// with tf, tb a stage's forward and backward time per micro-batch. With stages of unequal
// times, GPipe and 1F1B take sum_s (tf_s + tb_s) + (m - 1) max_s (tf_s + tb_s) (the first
// micro-batch crosses every stage, the rest follow at the slowest stage's pace) and
// interleaved (m + (p-1)/v) max_s (tf_s + tb_s).
// With P2P: the fill and the drain each cross p v - 1 stage boundaries on the critical path,
// each a transfer t_p2p = launch overhead + alpha + S beta:
//   T_p2p = T + 2 (p v - 1) t_p2p.
// This is the textbook estimate; where transfers contend or block compute in the steady
// state the simulator shows the difference.

#include <cstdint>
#include <vector>

#include "base/units.h"
#include "topology/topology.h"

namespace commsim {

struct PipelineModelInput {
  std::uint32_t stages = 1;          // p
  std::uint32_t microbatches = 1;    // m
  std::uint32_t virtual_stages = 1;  // v (1 for GPipe and 1F1B)
  std::vector<double> forward_s;     // per stage, one micro-batch
  std::vector<double> backward_s;
  double p2p_s = 0;                  // one boundary transfer
};

struct PipelineModel {
  double step_s = 0;           // without communication
  double bubble = 0;
  double step_with_p2p_s = 0;
};

PipelineModel pipeline_model(const PipelineModelInput& input);

/// The slowest boundary transfer between consecutive stages (stage s on NPU
/// npu_of_stage[s], the last stage wrapping to the first when v > 1): launch + alpha + S beta,
/// under a library's costs one call of it (p2p_model.h).
double boundary_transfer_s(const Topology& topology, const std::vector<Rank>& npu_of_stage,
                           bool wraps, Bytes bytes, double launch_s, const ProtocolCosts& library = {});

}  // namespace commsim
