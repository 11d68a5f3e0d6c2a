#include "model/parallel_config.h"

#include <algorithm>
#include <optional>
#include <ranges>

#include "base/error.h"
#include "base/joined.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<ParallelDim, 5> kDimNames{{
    {ParallelDim::kTp, "tp"},
    {ParallelDim::kCp, "cp"},
    {ParallelDim::kDp, "dp"},
    {ParallelDim::kPp, "pp"},
    {ParallelDim::kEp, "ep"},
}};

constexpr NameTable<PpSchedule, 3> kScheduleNames{{
    {PpSchedule::kGPipe, "gpipe"},
    {PpSchedule::k1F1B, "1f1b"},
    {PpSchedule::kInterleaved, "interleaved"},
}};

constexpr NameTable<CpKind, 2> kCpKindNames{{
    {CpKind::kRing, "ring"},
    {CpKind::kUlysses, "ulysses"},
}};

std::string num(std::uint64_t value) { return std::to_string(value); }

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

/// "dp 4 x tp 8 x pp 2 x cp 1 = 64, not the 128 GPUs"
void check_degrees(const ParallelConfig& p, std::uint64_t gpus) {
  for (const ParallelDim dim : {ParallelDim::kDp, ParallelDim::kTp, ParallelDim::kPp, ParallelDim::kCp,
                                ParallelDim::kEp}) {
    require(p.degree(dim) >= 1, std::string(dimension_name(dim)) + " " + num(p.degree(dim)) +
                                    ": a degree of parallelism must be at least 1");
  }
  require(p.virtual_stages >= 1, "virtual stages " + num(p.virtual_stages) + ": must be at least 1");
  require(p.gpus() == gpus, "dp " + num(p.dp) + " x tp " + num(p.tp) + " x pp " + num(p.pp) + " x cp " +
                                num(p.cp) + " = " + num(p.gpus()) + ", not the " + num(gpus) + " GPUs");
}

void check_model_split(const ParallelConfig& p, const ModelShape& m) {
  require(m.heads % p.tp == 0, "tp " + num(p.tp) + " does not divide the " + num(m.heads) + " attention heads of " +
                                   m.name);
  require(m.kv_head_count() % p.tp == 0, "tp " + num(p.tp) + " does not divide the " + num(m.kv_head_count()) +
                                             " key/value heads of " + m.name);
  require(m.layers % p.model_chunks() == 0, "pp " + num(p.pp) + " x virtual stages " + num(p.virtual_stages) +
                                                " = " + num(p.model_chunks()) + " does not divide the " +
                                                num(m.layers) + " layers of " + m.name);
  require(p.ep == 1 || m.is_moe(), "ep " + num(p.ep) + " needs experts, and " + m.name + " has none");
  require(p.dp % p.ep == 0, "ep " + num(p.ep) + " does not divide dp " + num(p.dp));
  require(m.experts % p.ep == 0, "ep " + num(p.ep) + " does not divide the " + num(m.experts) + " experts of " +
                                     m.name);
  if (p.cp_kind == CpKind::kUlysses) {
    require(m.heads % (p.tp * p.cp) == 0, "Ulysses context parallelism: tp " + num(p.tp) + " x cp " + num(p.cp) +
                                              " does not divide the " + num(m.heads) + " attention heads of " +
                                              m.name);
  }
}

void check_sequence(const ParallelConfig& p, const BatchConfig& b) {
  require(b.seq_length >= 1, "sequence length must be at least 1, got " + num(b.seq_length));
  require(b.seq_length % p.cp == 0,
          "cp " + num(p.cp) + " does not divide the sequence length " + num(b.seq_length));
  if (p.sequence_parallel) {
    require(b.seq_length / p.cp % p.tp == 0, "sequence parallelism: tp " + num(p.tp) +
                                                 " does not divide the " + num(b.seq_length / p.cp) +
                                                 " tokens of a sequence per context-parallel rank");
  }
}

void check_schedule(const ParallelConfig& p, const BatchConfig& b) {
  require(p.schedule == PpSchedule::kInterleaved || p.virtual_stages == 1,
          "virtual stages " + num(p.virtual_stages) + " apply to the interleaved schedule only, not " +
              std::string(pp_schedule_name(p.schedule)));
  const std::uint64_t m = micro_batch_count(p, b);
  const std::string how = " (global batch " + num(b.global_batch) + " / (micro-batch " + num(b.micro_batch) +
                          " x dp " + num(p.dp) + "))";
  if (p.schedule != PpSchedule::kGPipe) {
    require(m >= p.pp, "the " + std::string(pp_schedule_name(p.schedule)) + " schedule needs at least pp " +
                           num(p.pp) + " micro-batches, got " + num(m) + how);
  }
  if (p.schedule == PpSchedule::kInterleaved) {
    require(m % p.pp == 0, "the interleaved schedule needs micro-batches to be a multiple of pp " + num(p.pp) +
                               ", got " + num(m) + how);
  }
}

/// "cp, pp": the placed dimensions not among the first `count` of `order`.
std::string missing_dimensions(const PlacementOrder& order, std::size_t count) {
  const auto unplaced = [&](ParallelDim dim) {
    return std::find(order.begin(), order.begin() + count, dim) == order.begin() + count;
  };
  return joined(kMegatronOrder | std::views::filter(unplaced) | std::views::transform(dimension_name));
}

}  // namespace

std::uint32_t ParallelConfig::degree(ParallelDim dim) const {
  switch (dim) {
    case ParallelDim::kTp: return tp;
    case ParallelDim::kCp: return cp;
    case ParallelDim::kDp: return dp;
    case ParallelDim::kPp: return pp;
    case ParallelDim::kEp: return ep;
  }
  return 1;
}

std::string_view dimension_name(ParallelDim dim) { return name_in(kDimNames, dim); }
std::string_view pp_schedule_name(PpSchedule schedule) { return name_in(kScheduleNames, schedule); }
std::string_view cp_kind_name(CpKind kind) { return name_in(kCpKindNames, kind); }

PpSchedule parse_pp_schedule(std::string_view name, std::string_view what) {
  return parse_in(kScheduleNames, name, what, "schedule");
}

CpKind parse_cp_kind(std::string_view name, std::string_view what) {
  return parse_in(kCpKindNames, name, what, "context parallelism");
}

PlacementOrder parse_placement_order(std::string_view text, std::string_view what) {
  const std::string option = std::string(what) + " '" + std::string(text) + "'";
  const std::string context = option + ": ";
  PlacementOrder order{};
  std::size_t count = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t dash = std::min(text.find('-', start), text.size());
    const std::string_view name = text.substr(start, dash - start);
    const std::optional<ParallelDim> dim = value_in(kDimNames, name);
    if (!dim) throw InputError(unknown_name_message(option, "dimension", name, {"tp", "cp", "dp", "pp"}));
    require(*dim != ParallelDim::kEp, context + "ep is not placed on its own: it is the innermost part of dp");
    for (std::size_t i = 0; i < count; ++i) {
      require(order[i] != *dim, context + std::string(name) + " appears twice");
    }
    COMMSIM_CHECK(count < order.size(), "five distinct placed dimensions");
    order[count++] = *dim;
    start = dash + 1;
  }
  if (count < order.size()) {
    throw InputError(context + "missing " + missing_dimensions(order, count) +
                     " (each of tp, cp, dp and pp once, innermost first)");
  }
  return order;
}

std::string placement_order_text(const PlacementOrder& order) {
  std::string text;
  for (const ParallelDim dim : order) {
    if (!text.empty()) text += '-';
    text += dimension_name(dim);
  }
  return text;
}

std::uint64_t micro_batch_count(const ParallelConfig& p, const BatchConfig& b) {
  const std::uint64_t per_step = b.micro_batch * p.dp;
  require(b.micro_batch >= 1, "micro-batch must be at least 1, got " + num(b.micro_batch));
  require(p.dp >= 1, "dp 0: a degree of parallelism must be at least 1");
  require(b.global_batch >= per_step && b.global_batch % per_step == 0,
          "global batch " + num(b.global_batch) + " is not a whole number of micro-batch " + num(b.micro_batch) +
              " x dp " + num(p.dp) + " = " + num(per_step) + " sequences");
  return b.global_batch / per_step;
}

std::uint32_t layers_per_stage(const ParallelConfig& p, const ModelShape& shape) { return shape.layers / p.pp; }

void check_parallel_config(const ParallelConfig& parallel, const ModelShape& shape, const BatchConfig& batch,
                           std::uint64_t gpus) {
  check_model_shape(shape);
  check_degrees(parallel, gpus);
  check_model_split(parallel, shape);
  check_sequence(parallel, batch);
  check_schedule(parallel, batch);
}

}  // namespace commsim
