#include "collective/ring.h"

#include "base/error.h"

namespace commsim {
namespace {

// Blocks: p per channel (block b of channel ch is ch*p + b and belongs to rank b) for
// AllReduce, AllGather, ReduceScatter; one per channel for the chain. Channel ch goes
// round orders[ch] (position -> rank), the reverse way when `reverse` says so.
class RingSchedule : public Schedule {
 public:
  RingSchedule(CollectiveKind kind, std::vector<std::vector<Rank>> orders, std::vector<bool> reverse, Rank root,
               bool channel_rings = false)
      : kind_(kind),
        p_(orders.front().size()),
        channels_(orders.size()),
        root_(root),
        channel_rings_(channel_rings),
        orders_(std::move(orders)),
        reverse_(std::move(reverse)) {
    positions_.resize(channels_, std::vector<std::uint32_t>(p_));
    for (std::size_t ch = 0; ch < channels_; ++ch) {
      COMMSIM_CHECK(orders_[ch].size() == p_, "ring orders of different sizes");
      for (std::size_t i = 0; i < p_; ++i) positions_[ch][orders_[ch][i]] = static_cast<std::uint32_t>(i);
    }
  }

  std::size_t ranks() const override { return p_; }
  std::size_t channels() const override { return channels_; }
  std::size_t blocks() const override { return chain() ? channels_ : channels_ * p_; }
  // NCCL's chains, a channel's ring each: across nodes their rings go round different cycles
  // and meet on links at different hops, each at its channel's rate.
  bool fixed_channel_rates() const override { return channel_rings_ && chain() && channels_ > 1; }

  std::size_t steps(Rank r, std::size_t channel) const override {
    if (p_ < 2) return 0;
    switch (kind_) {
      case CollectiveKind::kAllReduce: return 2 * (p_ - 1);
      case CollectiveKind::kAllGather:
      case CollectiveKind::kReduceScatter: return p_ - 1;
      default: {
        const std::size_t pos = position(r, channel);
        return pos == 0 || pos == p_ - 1 ? 1 : 2;  // chain ends send or receive only
      }
    }
  }

  void step(Rank r, std::size_t ch, std::size_t k, StepSpec& out) const override {
    const Rank next = neighbour(r, ch, +1);
    const Rank prev = neighbour(r, ch, -1);
    const auto block = [&](std::int64_t owner_offset) {
      return BlockRange{static_cast<std::uint32_t>(ch * p_) + neighbour(r, ch, owner_offset), 1, 1};
    };
    const auto k_signed = static_cast<std::int64_t>(k);
    switch (kind_) {
      case CollectiveKind::kReduceScatter:
        // Step k sends the block of rank r - (k+1) (round the ring's direction), which
        // holds k+1 contributions after the add; rank r receives its own block last.
        out.send(next, DataOp::kReduce, block(-(k_signed + 1)));
        out.receive(prev);
        return;
      case CollectiveKind::kAllGather:
        out.send(next, DataOp::kCopy, block(-k_signed));  // own block first, then forward
        out.receive(prev);
        return;
      case CollectiveKind::kAllReduce:
        if (k < p_ - 1) {
          out.send(next, DataOp::kReduce, block(-(k_signed + 1)));
        } else {
          out.send(next, DataOp::kCopy, block(-(k_signed - static_cast<std::int64_t>(p_ - 1))));
        }
        out.receive(prev);
        return;
      case CollectiveKind::kBroadcast: {
        // Chain from the root along the ring: receive, then forward.
        const std::size_t pos = position(r, ch);
        const BlockRange whole{static_cast<std::uint32_t>(ch), 1, 1};
        const bool receive_step = pos > 0 && k == 0;
        if (receive_step) {
          out.receive(prev);
        } else {
          out.send(next, DataOp::kCopy, whole);
        }
        return;
      }
      case CollectiveKind::kReduce: {
        // Chain toward the root, against the ring: the far end starts; each rank adds its
        // contribution and passes the sum on.
        const std::size_t pos = position(r, ch);
        const BlockRange whole{static_cast<std::uint32_t>(ch), 1, 1};
        const bool receive_step = pos < p_ - 1 && k == 0;
        if (receive_step) {
          out.receive(next);
        } else {
          out.send(prev, DataOp::kReduce, whole);
        }
        return;
      }
      default:
        throw InternalError("ring schedule for " + std::string(collective_name(kind_)));
    }
  }

 private:
  bool chain() const { return kind_ == CollectiveKind::kBroadcast || kind_ == CollectiveKind::kReduce; }
  std::int64_t direction(std::size_t ch) const { return reverse_[ch] ? -1 : 1; }
  /// The rank `along` places further round channel ch's ring (negative: back). Steps only
  /// ask for |along| < p, where one add or subtract wraps the position (no division: this
  /// runs three times per message).
  Rank neighbour(Rank r, std::size_t ch, std::int64_t along) const {
    const auto p = static_cast<std::int64_t>(p_);
    std::int64_t at = positions_[ch][r] + direction(ch) * along;
    if (at < 0) {
      at += p;
    } else if (at >= p) {
      at -= p;
    }
    if (at < 0 || at >= p) at = (at % p + p) % p;
    return orders_[ch][static_cast<std::size_t>(at)];
  }
  /// Distance from the root along the channel's direction.
  std::size_t position(Rank r, std::size_t ch) const {
    const std::size_t pr = positions_[ch][r], root = positions_[ch][root_];
    return reverse_[ch] ? (root + p_ - pr) % p_ : (pr + p_ - root) % p_;
  }

  CollectiveKind kind_;
  std::size_t p_;
  std::size_t channels_;
  Rank root_;
  bool channel_rings_;  // a library's channels (make_channel_ring_schedule), not one ring's directions
  std::vector<std::vector<Rank>> orders_;
  std::vector<std::vector<std::uint32_t>> positions_;  // inverse of orders_
  std::vector<bool> reverse_;
};

std::vector<Rank> identity(std::size_t p) {
  std::vector<Rank> order(p);
  for (std::size_t i = 0; i < p; ++i) order[i] = static_cast<Rank>(i);
  return order;
}

}  // namespace

std::unique_ptr<Schedule> make_ring_schedule(CollectiveKind kind, std::size_t ranks,
                                             bool bidirectional, Rank root) {
  using Orders = std::vector<std::vector<Rank>>;
  if (!bidirectional) return std::make_unique<RingSchedule>(kind, Orders{identity(ranks)}, std::vector{false}, root);
  return std::make_unique<RingSchedule>(kind, Orders{identity(ranks), identity(ranks)}, std::vector{false, true}, root);
}

std::unique_ptr<Schedule> make_channel_ring_schedule(CollectiveKind kind, std::vector<std::vector<Rank>> orders,
                                                     Rank root) {
  COMMSIM_CHECK(kind != CollectiveKind::kAllToAll && kind != CollectiveKind::kBarrier,
                "channel rings run AllReduce, AllGather, ReduceScatter, Broadcast and Reduce");
  const std::vector<bool> forward(orders.size(), false);
  return std::make_unique<RingSchedule>(kind, std::move(orders), forward, root, true);
}

}  // namespace commsim
