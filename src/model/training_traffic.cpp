#include "model/training_traffic.h"

#include <cmath>
#include <string>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<TrafficPhase, 3> kPhaseNames{{
    {TrafficPhase::kForward, "forward"},
    {TrafficPhase::kBackward, "backward"},
    {TrafficPhase::kOptimizer, "optimizer"},
}};

constexpr auto kAllReduce = CollectiveKind::kAllReduce;
constexpr auto kAllGather = CollectiveKind::kAllGather;
constexpr auto kReduceScatter = CollectiveKind::kReduceScatter;
constexpr auto kAllToAll = CollectiveKind::kAllToAll;
constexpr std::optional<CollectiveKind> kSend = std::nullopt;

/// What the rules read, computed once.
struct StepFacts {
  double d = 2;                 // dtype bytes
  double b = 1;                 // micro-batch
  double tokens_per_seq = 1;    // s' = seq / cp
  double hidden = 1;            // h
  double kv_width = 1;          // h_kv
  std::uint64_t m = 1;          // micro-batches per step
  std::uint64_t layers = 1;     // L' per rank
  GpuParams params;
  bool recompute = false;       // full recomputation
};

/// Appends entries, skipping groups of one and operations that never run.
class Traffic {
 public:
  explicit Traffic(ParallelDim dim) : dim_(dim) {}

  void add(std::optional<CollectiveKind> kind, double bytes, std::uint64_t ops, std::uint64_t group,
           TrafficPhase phase, std::string what) {
    if (group <= 1 || ops == 0 || bytes <= 0) return;
    COMMSIM_CHECK(bytes < static_cast<double>(kMaxBytes), "traffic entry of " + std::to_string(bytes) + " B");
    entries_.push_back(TrafficEntry{dim_, kind, static_cast<Bytes>(std::llround(bytes)), ops,
                                    static_cast<std::uint32_t>(group), phase, std::move(what)});
  }
  void set_dimension(ParallelDim dim) { dim_ = dim; }
  std::vector<TrafficEntry>& entries() { return entries_; }

 private:
  ParallelDim dim_;
  std::vector<TrafficEntry> entries_;
};

/// The per-layer, per-micro-batch forward operations of a dimension, and their repeat when
/// full recomputation runs the forward again in the backward phase.
void add_forward(Traffic& out, const StepFacts& f, std::optional<CollectiveKind> kind, double bytes,
                 std::uint64_t ops_per_layer, std::uint64_t group, const std::string& what) {
  const std::uint64_t ops = ops_per_layer * f.layers * f.m;
  out.add(kind, bytes, ops, group, TrafficPhase::kForward, what);
  if (f.recompute) out.add(kind, bytes, ops, group, TrafficPhase::kBackward, what + " (recomputed)");
}

void add_backward(Traffic& out, const StepFacts& f, std::optional<CollectiveKind> kind, double bytes,
                  std::uint64_t ops_per_layer, std::uint64_t group, const std::string& what) {
  out.add(kind, bytes, ops_per_layer * f.layers * f.m, group, TrafficPhase::kBackward, what);
}

void add_gradients(Traffic& out, const StepFacts& f, ZeroStage zero, double params, std::uint64_t group,
                   const std::string& kind) {
  const double bytes = params * f.d;
  switch (zero) {
    case ZeroStage::k0:
      out.add(kAllReduce, bytes, 1, group, TrafficPhase::kBackward, kind + "gradients");
      break;
    case ZeroStage::k1:
    case ZeroStage::k2:
      out.add(kReduceScatter, bytes, zero == ZeroStage::k1 ? 1 : f.m, group, TrafficPhase::kBackward,
              kind + "gradients");
      out.add(kAllGather, bytes, 1, group, TrafficPhase::kOptimizer, kind + "weights");
      break;
    case ZeroStage::k3: {
      const double per_layer = bytes / static_cast<double>(f.layers);
      const std::uint64_t ops = f.layers * f.m;
      out.add(kAllGather, per_layer, ops, group, TrafficPhase::kForward, kind + "weights");
      out.add(kAllGather, per_layer, ops, group, TrafficPhase::kBackward, kind + "weights");
      out.add(kReduceScatter, per_layer, ops, group, TrafficPhase::kBackward, kind + "gradients");
      break;
    }
  }
}

void add_dp(Traffic& out, const StepFacts& f, const TrainingSetup& setup) {
  out.set_dimension(ParallelDim::kDp);
  const bool moe = f.params.expert > 0;
  add_gradients(out, f, setup.zero, f.params.dense, dense_replicas(setup.parallel), moe ? "dense " : "");
  if (moe) add_gradients(out, f, setup.zero, f.params.expert, expert_replicas(setup.parallel), "expert ");
}

void add_tp(Traffic& out, const StepFacts& f, const ParallelConfig& p) {
  out.set_dimension(ParallelDim::kTp);
  const double bytes = f.b * f.tokens_per_seq * f.hidden * f.d;
  if (!p.sequence_parallel) {
    add_forward(out, f, kAllReduce, bytes, 2, p.tp, "activations");
    add_backward(out, f, kAllReduce, bytes, 2, p.tp, "activation gradients");
    return;
  }
  add_forward(out, f, kAllGather, bytes, 2, p.tp, "activations");
  add_forward(out, f, kReduceScatter, bytes, 2, p.tp, "activations");
  add_backward(out, f, kAllGather, bytes, 2, p.tp, "activation gradients");
  add_backward(out, f, kReduceScatter, bytes, 2, p.tp, "activation gradients");
}

void add_pp(Traffic& out, const StepFacts& f, const TrainingSetup& setup) {
  const ParallelConfig& p = setup.parallel;
  out.set_dimension(ParallelDim::kPp);
  const double bytes = f.b * f.tokens_per_seq * f.hidden * f.d / (p.sequence_parallel ? p.tp : 1);
  const std::uint64_t sends = f.m * (p.model_chunks() - 1);
  out.add(kSend, bytes, sends, p.pp, TrafficPhase::kForward, "activations");
  out.add(kSend, bytes, sends, p.pp, TrafficPhase::kBackward, "activation gradients");
  if (setup.model.tied_embeddings) {
    const double embedding = static_cast<double>(embedding_params(setup.model)) / p.tp * f.d;
    out.add(kAllReduce, embedding, 1, p.pp > 1 ? 2 : 1, TrafficPhase::kBackward, "tied embedding gradients");
  }
}

void add_cp(Traffic& out, const StepFacts& f, const ParallelConfig& p) {
  out.set_dimension(ParallelDim::kCp);
  const double tokens = f.b * f.tokens_per_seq;
  const double kv_bytes = tokens * f.kv_width * f.d / p.tp;  // K or V of this TP rank's heads
  if (p.cp_kind == CpKind::kRing) {
    add_forward(out, f, kSend, 2 * kv_bytes, p.cp - 1, p.cp, "K,V chunks");
    add_backward(out, f, kSend, 2 * kv_bytes, 2 * (p.cp - 1), p.cp, "K,V and dK,dV chunks");
    return;
  }
  const double q_bytes = tokens * f.hidden * f.d / p.tp;
  add_forward(out, f, kAllToAll, q_bytes, 2, p.cp, "q and output");
  add_forward(out, f, kAllToAll, kv_bytes, 2, p.cp, "k and v");
  add_backward(out, f, kAllToAll, q_bytes, 2, p.cp, "q and output gradients");
  add_backward(out, f, kAllToAll, kv_bytes, 2, p.cp, "k and v gradients");
}

void add_ep(Traffic& out, const StepFacts& f, const TrainingSetup& setup) {
  const ParallelConfig& p = setup.parallel;
  out.set_dimension(ParallelDim::kEp);
  const double bytes = f.b * f.tokens_per_seq * f.hidden * setup.model.top_k * f.d / p.tp;
  add_forward(out, f, kAllToAll, bytes, 2, p.ep, "token dispatch and combine");
  add_backward(out, f, kAllToAll, bytes, 2, p.ep, "token dispatch and combine gradients");
}

StepFacts step_facts(const TrainingSetup& setup) {
  const ParallelConfig& p = setup.parallel;
  StepFacts f;
  f.d = dtype_bytes(setup.dtype);
  f.b = static_cast<double>(setup.batch.micro_batch);
  f.tokens_per_seq = static_cast<double>(setup.batch.seq_length / p.cp);
  f.hidden = static_cast<double>(setup.model.hidden);
  f.kv_width = static_cast<double>(setup.model.kv_width());
  f.m = micro_batch_count(p, setup.batch);
  f.layers = layers_per_stage(p, setup.model);
  f.params = params_per_gpu(setup.model, p);
  f.recompute = setup.recompute == Recompute::kFull;
  return f;
}

}  // namespace

std::string_view traffic_phase_name(TrafficPhase phase) { return name_in(kPhaseNames, phase); }

std::string_view traffic_op_name(const TrafficEntry& entry) {
  return entry.collective ? collective_name(*entry.collective) : "send";
}

std::vector<TrafficEntry> training_traffic(const TrainingSetup& setup) {
  const StepFacts facts = step_facts(setup);
  Traffic out(ParallelDim::kDp);
  add_dp(out, facts, setup);
  add_tp(out, facts, setup.parallel);
  add_pp(out, facts, setup);
  add_cp(out, facts, setup.parallel);
  if (setup.model.is_moe()) add_ep(out, facts, setup);
  return std::move(out.entries());
}

}  // namespace commsim
