#include "model/parallel_groups.h"

#include <algorithm>
#include <string>

#include "base/error.h"

namespace commsim {
namespace {

/// One dimension a group spans: `count` positions `stride` ranks apart.
struct Axis {
  std::uint64_t stride = 1;
  std::uint32_t count = 1;
};

/// The ranks between neighbours in `dim` (placed dimensions; ep steps as dp does).
std::uint64_t stride_of(const ParallelConfig& p, ParallelDim dim) {
  const ParallelDim placed = dim == ParallelDim::kEp ? ParallelDim::kDp : dim;
  std::uint64_t stride = 1;
  for (const ParallelDim inner : p.order) {
    if (inner == placed) return stride;
    stride *= p.degree(inner);
  }
  COMMSIM_CHECK(false, "placement order misses " + std::string(dimension_name(placed)));
  return stride;
}

Axis axis_of(const ParallelConfig& p, ParallelDim dim) { return Axis{stride_of(p, dim), p.degree(dim)}; }

}  // namespace

std::uint32_t rank_coordinate(const ParallelConfig& p, ParallelDim dim, Rank rank) {
  const std::uint64_t placed = rank / stride_of(p, dim);
  if (dim == ParallelDim::kEp) return static_cast<std::uint32_t>(placed % p.dp % p.ep);
  return static_cast<std::uint32_t>(placed % p.degree(dim));
}

std::vector<Rank> group_of(const ParallelConfig& p, ParallelDim dim, Rank rank) {
  return group_of(p, std::vector<ParallelDim>{dim}, rank);
}

std::vector<Rank> group_of(const ParallelConfig& p, const std::vector<ParallelDim>& dims, Rank rank) {
  if (rank >= p.gpus()) {
    throw InputError("rank " + std::to_string(rank) + " is out of range for the " + std::to_string(p.gpus()) +
                     " GPUs of dp x tp x pp x cp");
  }
  const bool has_dp = std::find(dims.begin(), dims.end(), ParallelDim::kDp) != dims.end();
  std::vector<Axis> axes;
  std::uint64_t base = rank;
  for (const ParallelDim dim : dims) {
    if (dim == ParallelDim::kEp && has_dp) continue;  // dp spans ep
    const Axis axis = axis_of(p, dim);
    base -= rank_coordinate(p, dim, rank) * axis.stride;
    axes.push_back(axis);
  }
  std::vector<Rank> group{static_cast<Rank>(base)};
  for (const Axis& axis : axes) {
    const std::size_t before = group.size();
    for (std::uint32_t i = 1; i < axis.count; ++i) {
      for (std::size_t j = 0; j < before; ++j) group.push_back(static_cast<Rank>(group[j] + i * axis.stride));
    }
  }
  std::sort(group.begin(), group.end());
  return group;
}

std::vector<std::vector<Rank>> groups_of(const ParallelConfig& p, ParallelDim dim) {
  return groups_of(p, std::vector<ParallelDim>{dim});
}

std::vector<std::vector<Rank>> groups_of(const ParallelConfig& p, const std::vector<ParallelDim>& dims) {
  // A group is listed from its lowest rank, the one at coordinate 0 in each of `dims`: O(gpus).
  std::vector<std::vector<Rank>> groups;
  for (Rank rank = 0; rank < p.gpus(); ++rank) {
    const bool lowest = std::all_of(dims.begin(), dims.end(), [&](ParallelDim d) { return rank_coordinate(p, d, rank) == 0; });
    if (lowest) groups.push_back(group_of(p, dims, rank));
  }
  return groups;
}

}  // namespace commsim
