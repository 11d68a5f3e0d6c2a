#include "collective/schedule.h"

namespace commsim {

SendSpec& StepSpec::add_send(Rank peer, DataOp op) {
  if (send_count_ == sends_.size()) sends_.emplace_back();
  SendSpec& s = sends_[send_count_++];
  s.peer = peer;
  s.op = op;
  s.blocks.clear();
  return s;
}

std::uint64_t blocks_below(const BlockRange& range, std::uint64_t limit) {
  if (range.count == 0 || range.first >= limit) return 0;
  const std::uint64_t below = (limit - 1 - range.first) / range.stride + 1;
  return below < range.count ? below : range.count;
}

}  // namespace commsim
