#include "analyze_options.h"

#include "base/error.h"
#include "model/parallel_config.h"

namespace commsim::cli {
namespace {

constexpr std::uint64_t kMaxCount = 1ull << 40;

std::uint64_t count(const po::variables_map& vm, const char* name, std::uint64_t fallback, std::uint64_t min = 1) {
  const auto text = option_text(vm, name);
  return text ? parse_count(*text, std::string("--") + name, min, kMaxCount) : fallback;
}

std::uint32_t degree(const po::variables_map& vm, const char* name, std::uint32_t fallback = 1) {
  return static_cast<std::uint32_t>(count(vm, name, fallback));
}

// --model NAME, then each shape option over it; without a preset every field is needed.
ModelShape model_option(const po::variables_map& vm) {
  ModelShape m;
  if (const auto name = option_text(vm, "model")) m = model_preset(*name, "--model");
  const bool preset = vm.count("model") > 0;
  const auto field = [&](const char* name, auto& value) {
    using T = std::remove_reference_t<decltype(value)>;
    if (vm.count(name)) {
      value = static_cast<T>(count(vm, name, 0));
    } else if (!preset) {
      throw InputError(std::string("--") + name + " is needed without --model (known models: " + model_preset_names() + ")");
    }
  };
  field("layers", m.layers);
  field("hidden", m.hidden);
  field("heads", m.heads);
  field("vocab", m.vocab);
  if (vm.count("ffn-hidden") || preset) field("ffn-hidden", m.ffn_hidden);
  else m.ffn_hidden = 4 * m.hidden;
  if (vm.count("kv-heads")) m.kv_heads = degree(vm, "kv-heads");
  if (vm.count("experts")) m.experts = degree(vm, "experts");
  if (vm.count("top-k")) m.top_k = degree(vm, "top-k");
  if (const auto mlp = option_text(vm, "mlp")) {
    if (*mlp != "gated" && *mlp != "plain") throw InputError("--mlp: expected gated or plain, got '" + *mlp + "'");
    m.mlp = *mlp == "gated" ? MlpKind::kGated : MlpKind::kPlain;
  }
  if (vm.count("tied-embeddings")) m.tied_embeddings = true;
  if (vm.count("params")) m.params_override = count(vm, "params", 0);
  for (const char* changed : {"layers", "hidden", "ffn-hidden", "heads", "kv-heads", "vocab", "mlp", "tied-embeddings",
                              "experts", "top-k", "params"}) {
    if (preset && vm.count(changed)) {
      m.name += " (changed)";
      break;
    }
  }
  check_model_shape(m);
  return m;
}

// The degrees; dp, if not given, is what the others leave of the GPUs.
ParallelConfig parallel_option(const po::variables_map& vm, std::uint64_t gpus) {
  ParallelConfig p;
  p.tp = degree(vm, "tp");
  p.pp = degree(vm, "pp");
  p.cp = degree(vm, "cp");
  p.ep = degree(vm, "ep");
  const std::uint64_t others = std::uint64_t{p.tp} * p.pp * p.cp;
  if (!vm.count("dp") && gpus % others != 0) {
    throw InputError("tp " + std::to_string(p.tp) + " x pp " + std::to_string(p.pp) + " x cp " + std::to_string(p.cp) +
                     " = " + std::to_string(others) + " does not divide the " + std::to_string(gpus) + " GPUs");
  }
  p.dp = degree(vm, "dp", static_cast<std::uint32_t>(std::max<std::uint64_t>(1, gpus / others)));
  p.schedule = parse_pp_schedule(option_text(vm, "schedule").value_or("1f1b"), "--schedule");
  p.virtual_stages = degree(vm, "virtual-stages", p.schedule == PpSchedule::kInterleaved ? 2 : 1);
  p.sequence_parallel = vm.count("sequence-parallel") > 0;
  p.cp_kind = parse_cp_kind(option_text(vm, "cp-kind").value_or("ring"), "--cp-kind");
  if (const auto order = option_text(vm, "order")) p.order = parse_placement_order(*order, "--order");
  return p;
}

}  // namespace

po::options_description analyze_model_options() {
  po::options_description o("Model (a preset, or its shape; shape options also change a preset)");
  add_option(o, "model", "NAME", "a published model: " + model_preset_names());
  add_option(o, "layers", "L", "transformer layers");
  add_option(o, "hidden", "H", "hidden size");
  add_option(o, "ffn-hidden", "F", "MLP inner size, per expert (default 4 x hidden)");
  add_option(o, "heads", "A", "attention heads");
  add_option(o, "kv-heads", "K", "key/value heads, grouped-query attention (default: as many as heads)");
  add_option(o, "vocab", "V", "vocabulary size");
  add_option(o, "mlp", "gated|plain", "SwiGLU (3 matrices) or GELU (2) MLP (default gated)");
  o.add_options()("tied-embeddings", "the output layer shares the embedding's weights");
  add_option(o, "experts", "E", "experts per MoE layer (default 1: dense)");
  add_option(o, "top-k", "K", "experts per token (default 1)");
  add_option(o, "params", "N", "the parameter count to use instead of the shape's (e.g. a published total)");
  return o;
}

po::options_description analyze_parallel_options() {
  po::options_description o("Parallelism (dp x tp x pp x cp = the GPUs)");
  add_option(o, "num-gpus", "N", "GPUs (default: the topology's NPUs; without a topology, H100 nodes of 8 for N)");
  add_option(o, "dp", "D", "data-parallel degree (default: the GPUs / (tp x pp x cp))");
  add_option(o, "tp", "T", "tensor-parallel degree (default 1)");
  add_option(o, "pp", "P", "pipeline stages (default 1)");
  add_option(o, "cp", "C", "context-parallel degree (default 1)");
  add_option(o, "ep", "E", "expert-parallel degree, dividing dp (default 1)");
  add_option(o, "order", "ORDER", "placement on the ranks, innermost first (default tp-cp-dp-pp, as Megatron-LM)");
  add_option(o, "schedule", "S", "pipeline schedule: 1f1b, interleaved, gpipe (default 1f1b)");
  add_option(o, "virtual-stages", "V", "model chunks per pipeline rank, interleaved (default 2)");
  o.add_options()("sequence-parallel", "split norms and dropout over tp (AllGather + ReduceScatter for AllReduce)");
  add_option(o, "cp-kind", "ring|ulysses", "context parallelism by ring attention or all-to-all (default ring)");
  return o;
}

po::options_description analyze_training_options() {
  po::options_description o("Training step");
  add_option(o, "seq-length", "S", "tokens per sequence (default: the model's)");
  add_option(o, "micro-batch-size", "B", "sequences per micro-batch (default 1)");
  add_option(o, "global-batch-size", "G", "sequences per step (default: 4 x pp micro-batches per DP rank)");
  add_option(o, "dtype", "bf16|fp16|fp32", "number format (default bf16, with fp32 master weights)");
  add_option(o, "optimizer", "adam|sgd", "optimizer (default adam)");
  add_option(o, "zero", "0|1|2|3", "ZeRO stage over the data-parallel ranks (default 0)");
  add_option(o, "recompute", "none|selective|full", "activation recomputation (default none)");
  add_option(o, "tflops", "R", "achieved TFLOP/s per GPU (default 400)");
  add_option(o, "layer-forward-time", "T", "instead of --tflops: one layer's forward of one micro-batch on one GPU, measured");
  add_option(o, "layer-backward-time", "T", "and its backward (default: twice the forward)");
  add_option(o, "peak-tflops", "R", "peak TFLOP/s per GPU, for MFU (default 989, H100 SXM dense bf16)");
  add_option(o, "gpu-memory", "S", "memory per GPU (default 80GB)");
  add_option(o, "dp-library", "NAME", "the data-parallel dimension's library, if not --library's (gloo: PyTorch DDP's other backend)");
  return o;
}

TrainingAnalysisOptions analysis_from_options(const po::variables_map& vm, std::uint64_t gpus) {
  TrainingAnalysisOptions o;
  TrainingSetup& s = o.setup;
  s.model = model_option(vm);
  s.parallel = parallel_option(vm, gpus);
  const std::uint64_t seq = count(vm, "seq-length", s.model.seq_length);
  if (seq == 0) throw InputError("--seq-length is needed: the model has no default");
  const std::uint64_t micro = count(vm, "micro-batch-size", 1);
  s.batch = {count(vm, "global-batch-size", micro * s.parallel.dp * 4 * s.parallel.pp), micro, seq};
  s.dtype = parse_dtype(option_text(vm, "dtype").value_or("bf16"), "--dtype");
  s.optimizer = parse_optimizer(option_text(vm, "optimizer").value_or("adam"), "--optimizer");
  s.zero = parse_zero(option_text(vm, "zero").value_or("0"), "--zero");
  s.recompute = parse_recompute(option_text(vm, "recompute").value_or("none"), "--recompute");
  o.tflops = parse_real(option_text(vm, "tflops").value_or("400"), "--tflops");
  o.peak_tflops = parse_real(option_text(vm, "peak-tflops").value_or("989"), "--peak-tflops");
  if (!(o.tflops > 0) || !(o.peak_tflops > 0)) throw InputError("--tflops and --peak-tflops must be positive");
  if (const auto f = option_text(vm, "layer-forward-time")) {
    if (vm.count("tflops")) throw InputError("give either --tflops or --layer-forward-time, not both");
    o.layer_forward_s = parse_seconds(*f, "--layer-forward-time");
    if (!(*o.layer_forward_s > 0)) throw InputError("--layer-forward-time must be positive");
  }
  if (const auto b = option_text(vm, "layer-backward-time")) {
    if (!o.layer_forward_s) throw InputError("--layer-backward-time needs --layer-forward-time");
    o.layer_backward_s = parse_seconds(*b, "--layer-backward-time");
  }
  o.gpu_memory_bytes = static_cast<double>(parse_size(option_text(vm, "gpu-memory").value_or("80GB"), "--gpu-memory"));
  if (const auto name = option_text(vm, "dp-library")) o.dp_library = library_by_name(*name, "--dp-library");
  return o;
}

}  // namespace commsim::cli
