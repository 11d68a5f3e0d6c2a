#include "model/training_compute.h"

namespace commsim {
namespace {

/// The recomputed forward of one layer and one micro-batch.
double recomputed_flops(const TrainingSetup& setup, std::uint64_t b, std::uint64_t s) {
  switch (setup.recompute) {
    case Recompute::kNone: return 0;
    case Recompute::kSelective: return attention_core_forward_flops(setup.model, b, s);
    case Recompute::kFull: return layer_forward_flops(setup.model, b, s);
  }
  return 0;
}

}  // namespace

StepCompute step_compute(const TrainingSetup& setup) {
  const ModelShape& model = setup.model;
  const ParallelConfig& p = setup.parallel;
  const std::uint64_t b = setup.batch.micro_batch;
  const std::uint64_t s = setup.batch.seq_length;
  const double layer = layer_forward_flops(model, b, s);
  const double logits = logits_forward_flops(model, b, s);
  const double recompute = recomputed_flops(setup, b, s);
  const double microbatches = static_cast<double>(micro_batch_count(p, setup.batch));
  const double replicas = p.dp;  // the global batch is m micro-batches on each of dp replicas
  StepCompute out;
  out.model_flops = replicas * microbatches * 3 * (model.layers * layer + logits);
  out.hardware_flops = out.model_flops + replicas * microbatches * model.layers * recompute;
  const double stage_layers = layers_per_stage(p, model);
  out.gpu_flops = microbatches * (3 * (stage_layers * layer + logits) + stage_layers * recompute) / (p.tp * p.cp);
  return out;
}

double compute_time_s(double flops, double tflops) { return flops / (tflops * 1e12); }

}  // namespace commsim
