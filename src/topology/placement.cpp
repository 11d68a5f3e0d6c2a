#include "topology/placement.h"

#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "base/error.h"
#include "base/units.h"

namespace commsim {

std::vector<Rank> random_rank_order(std::size_t ranks, std::uint64_t seed) {
  std::vector<Rank> order(ranks);
  std::iota(order.begin(), order.end(), Rank{0});
  // std::mt19937_64's sequence is fixed by the standard; std::shuffle's use of it is not,
  // so the shuffle is written out: for i from n-1 down, swap i with j in [0, i].
  std::mt19937_64 random(seed);
  for (std::size_t i = ranks; i > 1; --i) {
    const std::size_t j = random() % i;
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

std::vector<Rank> read_placement_file(const std::string& path, std::size_t ranks, std::size_t npus) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open placement file");
  std::vector<Rank> order;
  std::vector<std::size_t> line_of(npus, 0);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      const std::string where = path + ":" + std::to_string(number);
      const auto npu = static_cast<Rank>(
          parse_count(word, where + ": NPU of rank " + std::to_string(order.size()), 0,
                      npus == 0 ? 0 : npus - 1));
      if (line_of[npu] != 0) {
        throw InputError(where + ": NPU " + std::to_string(npu) + " is repeated (first on line " +
                         std::to_string(line_of[npu]) + ")");
      }
      line_of[npu] = number;
      order.push_back(npu);
    }
  }
  if (order.size() != ranks) {
    throw InputError(path + ": lists " + std::to_string(order.size()) + " NPUs for " +
                     std::to_string(ranks) + " ranks");
  }
  return order;
}

std::vector<Rank> parse_rank_order(const std::string& text, std::size_t ranks) {
  if (text == "linear") return {};
  // A shuffle is reproducible only with its seed; "random" alone is not taken for a file of
  // that name (./random is).
  if (text == "random") throw InputError("--rank-order random: give a seed, random:SEED (e.g. random:1)");
  if (text.rfind("random:", 0) == 0) {
    return random_rank_order(ranks, parse_count(text.substr(7), "--rank-order random:SEED", 0,
                                                UINT64_MAX));
  }
  return read_placement_file(text, ranks, ranks);
}

std::vector<Rank> spread_placement(std::size_t ranks, std::size_t npus) {
  COMMSIM_CHECK(ranks > 0 && ranks <= npus, "spread placement of more ranks than NPUs");
  const std::size_t stride = npus / ranks;
  std::vector<Rank> order;
  for (std::size_t i = 0; i < ranks; ++i) order.push_back(static_cast<Rank>(i * stride));
  return order;
}

std::vector<Rank> parse_stage_placement(const std::string& text, std::size_t ranks, std::size_t npus) {
  if (text == "linear") return {};
  if (text == "spread") return spread_placement(ranks, npus);
  return read_placement_file(text, ranks, npus);
}

}  // namespace commsim
