#include "base/collectives.h"

#include <algorithm>

#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<CollectiveKind, 7> kCollectiveNames{{
    {CollectiveKind::kAllReduce, "allreduce"},
    {CollectiveKind::kAllGather, "allgather"},
    {CollectiveKind::kReduceScatter, "reducescatter"},
    {CollectiveKind::kBroadcast, "broadcast"},
    {CollectiveKind::kReduce, "reduce"},
    {CollectiveKind::kAllToAll, "alltoall"},
    {CollectiveKind::kBarrier, "barrier"},
}};

constexpr NameTable<AlgorithmKind, 14> kAlgorithmNames{{
    {AlgorithmKind::kRing, "ring"},
    {AlgorithmKind::kRingBidir, "ring-bidir"},
    {AlgorithmKind::kTree, "tree"},
    {AlgorithmKind::kRecursiveDoubling, "recursive-doubling"},
    {AlgorithmKind::kRecursiveHalving, "recursive-halving"},
    {AlgorithmKind::kRabenseifner, "rabenseifner"},
    {AlgorithmKind::kDirect, "direct"},
    {AlgorithmKind::kPairwise, "pairwise"},
    {AlgorithmKind::kBruck, "bruck"},
    {AlgorithmKind::kHierarchical, "hierarchical"},
    {AlgorithmKind::kDimensional, "dimensional"},
    {AlgorithmKind::kDissemination, "dissemination"},
    {AlgorithmKind::kNvls, "nvls"},
    {AlgorithmKind::kNvlsTree, "nvls-tree"},
}};

// Which algorithm implements which collective. Ring, ring-bidir and the multi-level ones
// (hierarchical, dimensional) run a ring or chain per level, so they implement the five
// collectives a ring does; the tree is binomial for Broadcast and Reduce and a double
// binary tree for AllReduce; the rest after Thakur, Rabenseifner & Gropp 2005.
struct Implemented {
  AlgorithmKind algorithm;
  std::vector<CollectiveKind> collectives;
};

const std::vector<Implemented>& implemented_table() {
  using A = AlgorithmKind;
  constexpr auto AR = CollectiveKind::kAllReduce, AG = CollectiveKind::kAllGather,
                 RS = CollectiveKind::kReduceScatter, BC = CollectiveKind::kBroadcast,
                 RD = CollectiveKind::kReduce, A2A = CollectiveKind::kAllToAll, BAR = CollectiveKind::kBarrier;
  static const std::vector<Implemented> table{
      {A::kRing, {AR, AG, RS, BC, RD}},
      {A::kRingBidir, {AR, AG, RS, BC, RD}},
      {A::kTree, {AR, BC, RD}},
      {A::kRecursiveDoubling, {AR, AG}},
      {A::kRecursiveHalving, {RS}},
      {A::kRabenseifner, {AR}},
      {A::kDirect, {AR, AG, RS, A2A}},
      {A::kPairwise, {A2A}},
      {A::kBruck, {AG, A2A}},
      {A::kHierarchical, {AR, AG, RS, BC, RD}},
      {A::kDimensional, {AR, AG, RS, BC, RD}},
      {A::kDissemination, {BAR}},
      {A::kNvls, {AR}},
      {A::kNvlsTree, {AR}},
  };
  return table;
}

bool splits_per_rank(CollectiveKind kind) {
  return kind == CollectiveKind::kAllGather || kind == CollectiveKind::kReduceScatter ||
         kind == CollectiveKind::kAllToAll;
}

}  // namespace

std::string_view collective_name(CollectiveKind kind) { return name_in(kCollectiveNames, kind); }
std::optional<CollectiveKind> collective_from_name(std::string_view name) {
  return value_in(kCollectiveNames, name);
}
std::string_view algorithm_name(AlgorithmKind kind) { return name_in(kAlgorithmNames, kind); }
std::optional<AlgorithmKind> algorithm_from_name(std::string_view name) {
  return value_in(kAlgorithmNames, name);
}

CollectiveKind parse_collective(std::string_view name, std::string_view what) {
  return parse_in(kCollectiveNames, name, what, "collective");
}

AlgorithmKind parse_algorithm(std::string_view name, std::string_view what) {
  return parse_in(kAlgorithmNames, name, what, "algorithm");
}

const std::vector<CollectiveKind>& all_collectives() {
  static const std::vector<CollectiveKind> kinds = [] {
    std::vector<CollectiveKind> v;
    for (const auto& [k, name] : kCollectiveNames) v.push_back(k);
    return v;
  }();
  return kinds;
}

const std::vector<AlgorithmKind>& all_algorithms() {
  static const std::vector<AlgorithmKind> kinds = [] {
    std::vector<AlgorithmKind> v;
    for (const auto& [k, name] : kAlgorithmNames) v.push_back(k);
    return v;
  }();
  return kinds;
}

std::string collective_names() { return names_in(kCollectiveNames); }
std::string collective_names(const std::vector<CollectiveKind>& kinds) {
  std::string text;
  for (const CollectiveKind k : kinds) text += (text.empty() ? "" : ", ") + std::string(collective_name(k));
  return text;
}

const std::vector<CollectiveKind>& implemented_collectives(AlgorithmKind algorithm) {
  for (const Implemented& row : implemented_table()) {
    if (row.algorithm == algorithm) return row.collectives;
  }
  throw InternalError("algorithm '" + std::string(algorithm_name(algorithm)) + "' missing from the table");
}

bool implements(AlgorithmKind algorithm, CollectiveKind kind) {
  const std::vector<CollectiveKind>& kinds = implemented_collectives(algorithm);
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

Bytes nccl_size(CollectiveKind kind, Bytes requested, std::size_t ranks) {
  if (kind == CollectiveKind::kBarrier) return 0;
  if (!splits_per_rank(kind)) return requested / kElementBytes * kElementBytes;
  const Bytes unit = kElementBytes * ranks;
  return requested / unit * unit;
}

Bytes nccl_count(CollectiveKind kind, Bytes size, std::size_t ranks) {
  const Bytes elements = size / kElementBytes;
  return splits_per_rank(kind) ? elements / ranks : elements;
}

double busbw_factor(CollectiveKind kind, std::size_t ranks) {
  const double p = static_cast<double>(ranks);
  switch (kind) {
    case CollectiveKind::kAllReduce: return 2 * (p - 1) / p;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllToAll: return (p - 1) / p;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce: return 1;
    case CollectiveKind::kBarrier: return 0;
  }
  return 1;
}

}  // namespace commsim
