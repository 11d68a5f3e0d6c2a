#include "collective/multilevel.h"

#include "base/error.h"

namespace commsim {
namespace {

enum class PhaseKind { kReduceScatter, kAllGather, kBroadcast, kReduce };

struct Phase {
  PhaseKind kind;
  std::size_t level;
};

class MultilevelSchedule : public Schedule {
 public:
  MultilevelSchedule(CollectiveKind kind, std::vector<std::uint32_t> levels, bool bidirectional,
                     Rank root)
      : kind_(kind), sizes_(std::move(levels)), channels_(bidirectional ? 2 : 1), root_(root) {
    std::uint32_t stride = 1;
    for (const std::uint32_t s : sizes_) {
      strides_.push_back(stride);
      stride *= s;
    }
    p_ = stride;
    strides_.push_back(stride);
    for (std::size_t l = 0; l < sizes_.size(); ++l) blocks_per_super_block_.push_back(p_ / strides_[l + 1]);
    const std::size_t L = sizes_.size();
    const auto add = [&](PhaseKind k, std::size_t l) {
      if (sizes_[l] > 1) phases_.push_back({k, l});
    };
    switch (kind) {
      case CollectiveKind::kAllReduce:
        for (std::size_t l = 0; l < L; ++l) add(PhaseKind::kReduceScatter, l);
        for (std::size_t l = L; l-- > 0;) add(PhaseKind::kAllGather, l);
        break;
      case CollectiveKind::kReduceScatter:
        for (std::size_t l = 0; l < L; ++l) add(PhaseKind::kReduceScatter, l);
        break;
      case CollectiveKind::kAllGather:
        for (std::size_t l = L; l-- > 0;) add(PhaseKind::kAllGather, l);
        break;
      case CollectiveKind::kBroadcast:
        for (std::size_t l = L; l-- > 0;) add(PhaseKind::kBroadcast, l);
        break;
      case CollectiveKind::kReduce:
        for (std::size_t l = 0; l < L; ++l) add(PhaseKind::kReduce, l);
        break;
      default:
        throw InternalError("multilevel schedule for " + std::string(collective_name(kind)));
    }
  }

  std::size_t ranks() const override { return p_; }
  std::size_t channels() const override { return channels_; }
  std::size_t blocks() const override { return chain() ? channels_ : channels_ * p_; }

  std::size_t steps(Rank r, std::size_t ch) const override {
    std::size_t total = 0;
    for (const Phase& phase : phases_) total += phase_steps(phase, r, ch);
    return total;
  }

  void step(Rank r, std::size_t ch, std::size_t k, StepSpec& out) const override {
    for (const Phase& phase : phases_) {
      const std::size_t n = phase_steps(phase, r, ch);
      if (k < n) return phase_step(phase, r, ch, k, out);
      k -= n;
    }
    throw InternalError("multilevel step out of range");
  }

 private:
  bool chain() const {
    return kind_ == CollectiveKind::kBroadcast || kind_ == CollectiveKind::kReduce;
  }
  std::int64_t direction(std::size_t ch) const { return ch == 0 ? 1 : -1; }
  std::uint32_t digit(Rank r, std::size_t l) const { return (r / strides_[l]) % sizes_[l]; }
  std::uint32_t wrap(std::int64_t value, std::uint32_t size) const {
    const auto s = static_cast<std::int64_t>(size);
    return static_cast<std::uint32_t>((value % s + s) % s);
  }
  /// Rank r at level l: its digit there, and what its lower digits make (r mod stride).
  struct Digits {
    std::uint32_t digit;
    std::uint32_t low;
  };
  Digits digits(Rank r, std::size_t l) const {
    const std::uint32_t above = r / strides_[l];  // the digits from l up
    const std::uint32_t rest = above / sizes_[l];
    return {above - rest * sizes_[l], r - above * strides_[l]};
  }
  /// Blocks whose digits below l make `low`, whose digit l is j, any digits above.
  BlockRange super_block(std::uint32_t low, std::size_t l, std::uint32_t j, std::size_t ch) const {
    return {static_cast<std::uint32_t>(ch * p_) + low + j * strides_[l], blocks_per_super_block_[l], strides_[l + 1]};
  }
  /// Chains run among the ranks whose digits below l equal the root's.
  bool in_chain(Rank r, std::size_t l) const { return r % strides_[l] == root_ % strides_[l]; }
  /// Distance from the root's digit along the channel's direction.
  std::uint32_t chain_position(Rank r, std::size_t l, std::size_t ch) const {
    return wrap(direction(ch) * (static_cast<std::int64_t>(digit(r, l)) - digit(root_, l)),
                sizes_[l]);
  }

  std::size_t phase_steps(const Phase& phase, Rank r, std::size_t ch) const {
    const std::uint32_t s = sizes_[phase.level];
    if (phase.kind == PhaseKind::kReduceScatter || phase.kind == PhaseKind::kAllGather) return s - 1;
    if (!in_chain(r, phase.level)) return 0;
    const std::uint32_t pos = chain_position(r, phase.level, ch);
    return pos == 0 || pos == s - 1 ? 1 : 2;  // chain ends only send or only receive
  }

  // Each digit is found once (several divisions a step were a tenth of a hierarchical run).
  void phase_step(const Phase& phase, Rank r, std::size_t ch, std::size_t k, StepSpec& out) const {
    const std::size_t l = phase.level;
    const std::uint32_t s = sizes_[l];
    const auto [d, low] = digits(r, l);
    const Rank base = r - d * strides_[l];  // r with digit l set to 0
    const std::uint32_t up = d + 1 == s ? 0 : d + 1;
    const std::uint32_t down = d == 0 ? s - 1 : d - 1;
    const Rank next = base + (ch == 0 ? up : down) * strides_[l];
    const Rank prev = base + (ch == 0 ? down : up) * strides_[l];
    // d + direction x offset mod s, for |offset| < s: one correction, no division.
    const auto along = [&](std::int64_t offset) {
      const std::int64_t v = d + direction(ch) * offset;
      return static_cast<std::uint32_t>(v < 0 ? v + s : v >= s ? v - s : v);
    };
    const auto ks = static_cast<std::int64_t>(k);
    const BlockRange whole{static_cast<std::uint32_t>(ch), 1, 1};
    switch (phase.kind) {
      case PhaseKind::kReduceScatter:
        // As the ring ReduceScatter, over super-blocks: r ends owning digit_l(r)'s.
        out.send(next, DataOp::kReduce, super_block(low, l, along(-(ks + 1)), ch));
        out.receive(prev);
        return;
      case PhaseKind::kAllGather:
        out.send(next, DataOp::kCopy, super_block(low, l, along(-ks), ch));
        out.receive(prev);
        return;
      case PhaseKind::kBroadcast:
        if (chain_position(r, l, ch) > 0 && k == 0) {
          out.receive(prev);
        } else {
          out.send(next, DataOp::kCopy, whole);
        }
        return;
      case PhaseKind::kReduce:
        if (chain_position(r, l, ch) < sizes_[l] - 1 && k == 0) {
          out.receive(next);
        } else {
          out.send(prev, DataOp::kReduce, whole);
        }
        return;
    }
  }

  CollectiveKind kind_;
  std::vector<std::uint32_t> sizes_;
  std::vector<std::uint32_t> strides_;  // strides_[l] = s_0 .. s_{l-1}; strides_[L] = p
  std::vector<std::uint32_t> blocks_per_super_block_;  // per level l: p / strides_[l + 1]
  std::size_t channels_;
  Rank root_;
  std::uint32_t p_ = 1;
  std::vector<Phase> phases_;
};

}  // namespace

std::unique_ptr<Schedule> make_multilevel_schedule(CollectiveKind kind,
                                                   const std::vector<std::uint32_t>& levels,
                                                   bool bidirectional, Rank root) {
  return std::make_unique<MultilevelSchedule>(kind, levels, bidirectional, root);
}

}  // namespace commsim
