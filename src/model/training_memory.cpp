#include "model/training_memory.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace commsim {
namespace {

/// "5.019e+08", "8", "12.5": four significant digits.
std::string fmt(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

/// "12288": a size of the shape, whole.
std::string whole(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

/// Parameters after ZeRO partitions them (or not), and the text "P" of the formulas.
double held_params(const GpuParams& g, const ParallelConfig& p, bool partitioned, std::string& text) {
  if (!partitioned) {
    text = fmt(g.total()) + " params";
    return g.total();
  }
  const double dense_ranks = static_cast<double>(dense_replicas(p));
  const double expert_ranks = static_cast<double>(expert_replicas(p));
  if (g.expert == 0) {
    text = fmt(g.dense) + " params / " + fmt(dense_ranks) + " (dp x cp)";
  } else {
    text = std::string("(") + fmt(g.dense) + " dense / " + fmt(dense_ranks) + " (dp x cp) + " + fmt(g.expert) + " expert / " +
           fmt(expert_ranks) + " (dp/ep x cp)) params";
  }
  return g.dense / dense_ranks + g.expert / expert_ranks;
}

MemoryTerm model_state(const GpuParams& g, const ParallelConfig& p, bool partitioned, double bytes_per_param,
                       const std::string& what) {
  MemoryTerm term;
  term.bytes = held_params(g, p, partitioned, term.formula) * bytes_per_param;
  term.formula += " x " + fmt(bytes_per_param) + " B (" + what + ")";
  return term;
}

std::string optimizer_contents(OptimizerKind optimizer, Dtype dtype) {
  const bool master = dtype != Dtype::kFp32;
  if (optimizer == OptimizerKind::kAdam) return master ? "adam: fp32 master, m, v" : "adam: m, v";
  return master ? "sgd: fp32 master, momentum" : "sgd: momentum";
}

MemoryTerm activations_term(const TrainingSetup& setup, std::uint64_t microbatches) {
  const ParallelConfig& p = setup.parallel;
  LayerActivationInput in;
  in.micro_batch = setup.batch.micro_batch;
  in.seq = setup.batch.seq_length / p.cp;
  in.tp = p.tp;
  in.sequence_parallel = p.sequence_parallel;
  in.recompute = setup.recompute;
  in.dtype = setup.dtype;
  const MemoryTerm layer = layer_activations(setup.model, in);
  const double layers = layers_per_stage(p, setup.model);
  const double in_flight = microbatches_in_flight(p, microbatches);
  MemoryTerm term;
  term.bytes = layers * in_flight * layer.bytes;
  term.formula = fmt(layers) + " layers x " + fmt(in_flight) + " micro-batches in flight (" +
                 std::string(pp_schedule_name(p.schedule)) + ") x " + layer.formula;
  return term;
}

}  // namespace

std::uint32_t optimizer_bytes_per_param(OptimizerKind optimizer, Dtype dtype) {
  const std::uint32_t master = dtype == Dtype::kFp32 ? 0 : 4;  // fp32 copy of the weights
  return master + (optimizer == OptimizerKind::kAdam ? 8 : 4);  // m and v, or momentum, in fp32
}

MemoryTerm layer_activations(const ModelShape& shape, const LayerActivationInput& in) {
  const double s = static_cast<double>(in.seq);
  const double b = static_cast<double>(in.micro_batch);
  const double h = static_cast<double>(shape.hidden);
  const double a = shape.heads;
  const double t = in.tp;
  const double k = shape.is_moe() ? shape.top_k : 1;
  const double split = 8 + 16 * k;  // the TP-split part: 24 for a dense layer
  const double sbh = s * b * h;
  const double scale = dtype_bytes(in.dtype) / 2.0;
  const std::string split_text = fmt(split);
  const std::string whole_text = fmt(10 + split);
  MemoryTerm term;
  if (in.recompute == Recompute::kFull) {
    term.bytes = in.sequence_parallel ? 2 * sbh / t : 2 * sbh;
    term.formula = in.sequence_parallel ? "2 s b h / t" : "2 s b h";
  } else if (in.recompute == Recompute::kSelective) {
    term.bytes = in.sequence_parallel ? sbh / t * (10 + split) : sbh * (10 + split / t);
    term.formula = in.sequence_parallel ? "s b h / t * " + whole_text : "s b h (10 + " + split_text + "/t)";
  } else if (in.sequence_parallel) {
    term.bytes = sbh / t * (10 + split + 5 * a * s / h);
    term.formula = "s b h / t (" + whole_text + " + 5 a s / h)";
  } else {
    term.bytes = sbh * (10 + split / t + 5 * a * s / (h * t));
    term.formula = "s b h (10 + " + split_text + "/t + 5 a s / (h t))";
  }
  term.bytes *= scale;
  term.formula += (scale == 1 ? "" : " x " + fmt(scale) + " (" + std::string(dtype_name(in.dtype)) + ")");
  term.formula += ", s " + whole(s) + " b " + whole(b) + " h " + whole(h) + " a " + whole(a) + " t " + whole(t);
  return term;
}

double microbatches_in_flight(const ParallelConfig& p, std::uint64_t microbatches) {
  const double pp = p.pp;
  switch (p.schedule) {
    case PpSchedule::kGPipe: return static_cast<double>(microbatches);
    case PpSchedule::k1F1B: return std::min(pp, static_cast<double>(microbatches));
    case PpSchedule::kInterleaved: return pp + (pp - 1) / p.virtual_stages;
  }
  return pp;
}

TrainingMemory training_memory(const TrainingSetup& setup) {
  const ParallelConfig& p = setup.parallel;
  const double d = dtype_bytes(setup.dtype);
  const std::string dtype(dtype_name(setup.dtype));
  TrainingMemory out;
  out.params = params_per_gpu(setup.model, p);
  out.weights = model_state(out.params, p, setup.zero >= ZeroStage::k3, d, dtype + " weights");
  out.gradients = model_state(out.params, p, setup.zero >= ZeroStage::k2, d, dtype + " gradients");
  out.optimizer = model_state(out.params, p, setup.zero >= ZeroStage::k1,
                              optimizer_bytes_per_param(setup.optimizer, setup.dtype),
                              optimizer_contents(setup.optimizer, setup.dtype));
  out.activations = activations_term(setup, micro_batch_count(p, setup.batch));
  out.total_bytes = out.weights.bytes + out.gradients.bytes + out.optimizer.bytes + out.activations.bytes;
  return out;
}

}  // namespace commsim
