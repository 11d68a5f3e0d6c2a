#pragma once
// The arithmetic of one training step (model_shape.h gives the FLOPs of a layer and of the
// output layer; Narayanan et al. 2021, section 5.1): forward F, backward 2F, and with
// recomputation one more forward of what is recomputed: the whole layer (full; not the output
// layer, which Megatron-LM does not recompute) or the attention core 4 b s^2 h (selective).
//
//   model FLOPs     3 x the forward of the global batch, all GPUs together: the numerator of
//                   the model FLOPs utilisation (MFU)
//   hardware FLOPs  model FLOPs plus the recomputation
//   GPU FLOPs       the busiest GPU's hardware FLOPs: the last pipeline rank (it also runs the
//                   output layer), m micro-batches of L/pp layers, its share 1/(tp cp) of each
//                   (context parallelism splits the queries: each GPU's attention core is
//                   4 b (s/cp) s h); experts assumed evenly loaded
//
// For GPT-3 with full recomputation the hardware FLOPs are Narayanan et al.'s count (sec. 5.1),
// 96 B s L h^2 (1 + s/(6h) + V/(16 L h)), with B the global batch.

#include "model/training_setup.h"

namespace commsim {

struct StepCompute {
  double model_flops = 0;
  double hardware_flops = 0;
  double gpu_flops = 0;
};

/// For a setup that check_training_setup accepts.
StepCompute step_compute(const TrainingSetup& setup);

/// flops / (tflops * 1e12): the time at a sustained `tflops` (dense bf16 TFLOP/s, say).
double compute_time_s(double flops, double tflops);

}  // namespace commsim
