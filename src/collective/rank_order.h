#pragma once
// Where each rank runs: rank r on NPU npu_of_rank[r]. "linear" is rank r on NPU r; a
// random order is a seeded Fisher-Yates shuffle (the same seed gives the same order on
// every platform); a file lists one NPU per rank.

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace commsim {

std::vector<Rank> random_rank_order(std::size_t ranks, std::uint64_t seed);

/// A file of NPU ids, whitespace separated, '#' to end of line a comment: the i-th is
/// where rank i runs. Throws InputError naming the file and line for a missing, repeated
/// or out-of-range NPU or a wrong count.
std::vector<Rank> read_rank_order_file(const std::string& path, std::size_t ranks);

/// "linear", "random:SEED" or a file path. Empty result for linear.
std::vector<Rank> parse_rank_order(const std::string& text, std::size_t ranks);

}  // namespace commsim
