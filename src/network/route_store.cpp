#include "network/route_store.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {

RouteStore::Handle RouteStore::store(RouteView route) {
  COMMSIM_CHECK(route.size() < UINT32_MAX, "a route of 2^32 hops or more");
  Handle h;
  h.length = static_cast<std::uint32_t>(route.size());
  if (h.length <= kInHandle) {
    std::copy(route.begin(), route.end(), h.words);
    return h;
  }
  const std::size_t k = size_class(h.length);
  std::vector<std::uint32_t>& free_blocks = free_blocks_[k];
  if (free_blocks.empty()) {
    const std::size_t block_size = std::size_t{1} << k;
    COMMSIM_CHECK(channels_[k].size() / block_size < UINT32_MAX, "too many routes in flight");
    h.words[0] = static_cast<std::uint32_t>(channels_[k].size() / block_size);
    channels_[k].resize(channels_[k].size() + block_size);
    positions_[k].resize(positions_[k].size() + block_size);
  } else {
    h.words[0] = free_blocks.back();
    free_blocks.pop_back();
  }
  std::copy(route.begin(), route.end(), channels_[k].begin() + static_cast<std::ptrdiff_t>(offset(h)));
  return h;
}

void RouteStore::free(const Handle& h) {
  if (h.length > kInHandle) free_blocks_[size_class(h.length)].push_back(h.block());
}

}  // namespace commsim
