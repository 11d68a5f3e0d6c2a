#pragma once
// Which global ranks form each group of a parallel dimension (parallel_config.h): a rank's
// coordinate in dimension d is (rank / stride_d) % degree_d, the strides the products of the
// degrees placed inside d by the placement order. A group of d is the ranks that share every
// coordinate but d's. ep is the innermost part of dp: an EP group is the ep ranks of a DP
// group whose dp coordinates share dp / ep (Megatron-LM's "tp-cp-ep-dp-pp").
//
// Example, 16 GPUs tp 2 cp 2 dp 2 pp 2 in the order tp-cp-dp-pp, rank = tp + 2 cp + 4 dp + 8 pp:
// TP groups {0,1} {2,3} ..., CP groups {0,2} {1,3} {4,6} ..., DP groups {0,4} {1,5} ...,
// PP groups {0,8} {1,9} ....

#include <cstdint>
#include <vector>

#include "model/parallel_config.h"
#include "topology/topology.h"

namespace commsim {

/// `rank`'s coordinate in `dim`, in [0, degree).
std::uint32_t rank_coordinate(const ParallelConfig& parallel, ParallelDim dim, Rank rank);

/// The ranks of `rank`'s group in `dim`, ascending (so in the order of their coordinate).
/// Throws InputError when the rank is not below parallel.gpus().
std::vector<Rank> group_of(const ParallelConfig& parallel, ParallelDim dim, Rank rank);
/// The group spanned by several dimensions at once, e.g. {dp, cp}: the ranks that reduce the
/// dense gradients together.
std::vector<Rank> group_of(const ParallelConfig& parallel, const std::vector<ParallelDim>& dims, Rank rank);

/// Every group of `dim` (or of several dimensions), ordered by their lowest rank.
std::vector<std::vector<Rank>> groups_of(const ParallelConfig& parallel, ParallelDim dim);
std::vector<std::vector<Rank>> groups_of(const ParallelConfig& parallel, const std::vector<ParallelDim>& dims);

}  // namespace commsim
