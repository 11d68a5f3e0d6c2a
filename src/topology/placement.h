#pragma once
// Placement: where each rank (or pipeline stage) runs, as a list of NPUs, entry i being
// rank i's. "linear" is rank r on NPU r; a random order is a seeded Fisher-Yates shuffle
// (the same seed gives the same order on every platform); a file lists one NPU per rank.

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace commsim {

std::vector<Rank> random_rank_order(std::size_t ranks, std::uint64_t seed);

/// A file of NPU ids, whitespace separated, '#' to end of line a comment: the i-th is
/// where rank i runs. Throws InputError naming the file and line for a repeated NPU, one
/// not below `npus`, or a count other than `ranks`.
std::vector<Rank> read_placement_file(const std::string& path, std::size_t ranks, std::size_t npus);

/// "linear", "random:SEED" or a file path, for `ranks` ranks on as many NPUs. Empty result
/// for linear.
std::vector<Rank> parse_rank_order(const std::string& text, std::size_t ranks);

/// Rank i on NPU i x floor(npus / ranks): the ranks as far apart as the NPUs' numbering puts
/// them, so on a cluster of as many nodes as ranks one a node (its first GPU). ranks <= npus.
std::vector<Rank> spread_placement(std::size_t ranks, std::size_t npus);

/// Where `ranks` pipeline stages run among `npus` NPUs: "linear" (stage i on NPU i; empty
/// result), "spread" (spread_placement) or a placement file (read_placement_file).
std::vector<Rank> parse_stage_placement(const std::string& text, std::size_t ranks, std::size_t npus);

}  // namespace commsim
