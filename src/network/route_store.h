#pragma once
// The routes of the network's flows in flight, each with, per hop, the flow's position in
// the list of flows on that hop's resource (so that a finishing flow leaves every list in
// O(1), network.cpp).
//
// A route of up to two hops (a ring neighbour, a GPU to a GPU through a switch: most
// messages) lives in its handle, in the flow's own record, with no look-up elsewhere. A
// longer route of L hops takes a block of 2^ceil(log2 L) hops from the pool of that size
// class; freed blocks are reused by the next route of the class. Each hop costs 8 bytes
// (channel and position) and no allocation of its own.

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "topology/graph.h"

namespace commsim {

class RouteStore {
 public:
  static constexpr std::uint32_t kInHandle = 2;  // hops kept in the handle itself

  /// A stored route, 20 bytes: a route of up to kInHandle hops keeps its channels in
  /// words[0, kInHandle) and their positions in words[kInHandle, 2 kInHandle); a longer one
  /// keeps where its block is in words[0]. Default: the empty route.
  struct Handle {
    std::uint32_t length = 0;
    std::uint32_t words[2 * kInHandle] = {};
    std::uint32_t block() const { return words[0]; }
  };

  Handle store(RouteView route);
  void free(const Handle& handle);

  /// Valid while `h` is where it is and stored.
  RouteView channels(const Handle& h) const {
    if (h.length <= kInHandle) return {h.words, h.length};
    return {channels_[size_class(h.length)].data() + offset(h), h.length};
  }
  std::span<std::uint32_t> positions(Handle& h) {
    if (h.length <= kInHandle) return {h.words + kInHandle, h.length};
    return {positions_[size_class(h.length)].data() + offset(h), h.length};
  }

 private:
  // Class k holds blocks of 2^k hops; a route has at most 2^32 - 1.
  static constexpr std::size_t kClasses = 33;
  static std::size_t size_class(std::uint32_t length) {
    return length <= 1 ? 0 : static_cast<std::size_t>(std::bit_width(length - 1));
  }
  static std::size_t offset(const Handle& h) { return std::size_t{h.block()} << size_class(h.length); }

  std::array<std::vector<ChannelId>, kClasses> channels_;
  std::array<std::vector<std::uint32_t>, kClasses> positions_;
  std::array<std::vector<std::uint32_t>, kClasses> free_blocks_;
};

}  // namespace commsim
