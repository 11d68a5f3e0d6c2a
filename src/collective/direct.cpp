#include "collective/direct.h"

#include <algorithm>
#include <limits>
#include <string>

#include "base/error.h"

namespace commsim {
namespace {

using C = CollectiveKind;

/// (r + by) mod p for any signed shift.
Rank shifted(Rank r, std::int64_t by, std::size_t p) {
  const auto n = static_cast<std::int64_t>(p);
  return static_cast<Rank>(((static_cast<std::int64_t>(r) + by) % n + n) % n);
}

/// AllToAll block from s to d (data_tracker.h's convention).
std::uint32_t alltoall_block(Rank s, Rank d, std::size_t p) {
  return static_cast<std::uint32_t>(s * p + d);
}

/// Adds blocks base + ((first + j * stride) mod p) for j < count. The positions
/// first + j * stride stay below 2p, so they wrap past p at most once: two ranges at most.
void add_wrapping(SendSpec& send, std::uint64_t base, std::uint64_t first, std::uint64_t count,
                  std::uint64_t stride, std::uint64_t p) {
  COMMSIM_CHECK(count > 0 && first + (count - 1) * stride < 2 * p, "block range wraps twice");
  const std::uint64_t before_wrap = first >= p ? 0 : std::min(count, (p - 1 - first) / stride + 1);
  const auto range = [&](std::uint64_t from, std::uint64_t n) {
    send.blocks.push_back({static_cast<std::uint32_t>(base + from), static_cast<std::uint32_t>(n),
                           static_cast<std::uint32_t>(stride)});
  };
  if (before_wrap > 0) range(first, before_wrap);
  if (count > before_wrap) range(first + before_wrap * stride - p, count - before_wrap);
}

/// Block space of `kind` on p ranks: p*p for AllToAll, p otherwise.
std::size_t block_space(CollectiveKind kind, std::size_t p) {
  return kind == C::kAllToAll ? p * p : p;
}

// Direct: every rank sends to all p-1 others in one step, so the step costs one alpha and
// puts p-1 concurrent flows on each rank's link (MPICH's isend/irecv AllToAll; on a switch
// this is also how NCCL runs AllToAll, as p-1 concurrent send/receive pairs).
class DirectSchedule : public Schedule {
 public:
  DirectSchedule(CollectiveKind kind, std::size_t ranks) : kind_(kind), p_(ranks) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return block_space(kind_, p_); }
  std::size_t steps(Rank, std::size_t) const override {
    if (p_ < 2) return 0;
    return kind_ == C::kAllReduce ? 2 : 1;  // AllReduce: ReduceScatter, then AllGather
  }

  void step(Rank r, std::size_t, std::size_t k, StepSpec& out) const override {
    // Peers in the order r+1, r+2, ...: every rank starts with a different peer.
    for (std::size_t i = 1; i < p_; ++i) {
      const Rank peer = shifted(r, static_cast<std::int64_t>(i), p_);
      send_to(r, peer, k, out);
      out.receive(peer);
    }
  }

 private:
  void send_to(Rank r, Rank peer, std::size_t k, StepSpec& out) const {
    switch (kind_) {
      case C::kAllToAll: out.send(peer, DataOp::kCopy, {alltoall_block(r, peer, p_), 1, 1}); return;
      case C::kAllGather: out.send(peer, DataOp::kCopy, {r, 1, 1}); return;
      case C::kReduceScatter: out.send(peer, DataOp::kReduce, {peer, 1, 1}); return;
      case C::kAllReduce:
        // Step 0 adds r's piece of block `peer` at its owner; step 1 hands out the block
        // r now holds fully reduced.
        if (k == 0) {
          out.send(peer, DataOp::kReduce, {peer, 1, 1});
        } else {
          out.send(peer, DataOp::kCopy, {r, 1, 1});
        }
        return;
      default: throw InternalError("direct schedule for " + std::string(collective_name(kind_)));
    }
  }

  CollectiveKind kind_;
  std::size_t p_;
};

// Pairwise exchange (MPICH's long-message AllToAll, Thakur et al. 2005): step k
// sends r's block for q = r+k+1 and receives from r-k-1, so every rank sends to and
// receives from exactly one peer per step and no link carries two flows. MPICH uses
// q = r XOR (k+1) when p is a power of two; the shift works for every p.
class PairwiseSchedule : public Schedule {
 public:
  explicit PairwiseSchedule(std::size_t ranks) : p_(ranks) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return p_ * p_; }
  std::size_t steps(Rank, std::size_t) const override { return p_ < 2 ? 0 : p_ - 1; }

  void step(Rank r, std::size_t, std::size_t k, StepSpec& out) const override {
    const auto distance = static_cast<std::int64_t>(k + 1);
    const Rank to = shifted(r, distance, p_);
    out.send(to, DataOp::kCopy, {alltoall_block(r, to, p_), 1, 1});
    out.receive(shifted(r, -distance, p_));
  }

 private:
  std::size_t p_;
};

/// ceil(log2 p): Bruck's step count.
std::size_t ceil_log2(std::size_t p) {
  std::size_t steps = 0;
  while ((std::size_t{1} << steps) < p) ++steps;
  return steps;
}

// Bruck et al. 1997 (MPICH's short-message AllGather and AllToAll, Thakur et al. 2005).
// Step k moves data a distance 2^k; after ceil(log2 p) steps every
// distance 0..p-1 is covered by its binary digits.
class BruckSchedule : public Schedule {
 public:
  BruckSchedule(CollectiveKind kind, std::size_t ranks) : kind_(kind), p_(ranks) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return block_space(kind_, p_); }
  std::size_t steps(Rank, std::size_t) const override { return ceil_log2(p_); }

  void step(Rank r, std::size_t, std::size_t k, StepSpec& out) const override {
    const std::uint64_t distance = std::uint64_t{1} << k;
    // Blocks (AllGather) or low parts (AllToAll) that are still to move: the last step
    // moves only p - 2^k of them when p is not a power of two.
    const std::uint64_t count = std::min<std::uint64_t>(distance, p_ - distance);
    const auto d = static_cast<std::int64_t>(distance);
    if (kind_ == C::kAllGather) {
      all_gather_step(r, d, count, out);
    } else {
      all_to_all_step(r, d, count, out);
    }
  }

 private:
  // Before step k rank r holds blocks r .. r + 2^k - 1 (mod p); it sends the first
  // `count` of them to r - 2^k, which then holds r - 2^k .. r - 2^k + 2^(k+1) - 1.
  void all_gather_step(Rank r, std::int64_t distance, std::uint64_t count, StepSpec& out) const {
    add_wrapping(out.add_send(shifted(r, -distance, p_), DataOp::kCopy), 0, r, count, 1, p_);
    out.receive(shifted(r, distance, p_));
  }

  // Block (s, d) has offset o = (d - s) mod p and moves forward 2^k in each step k where
  // bit k of o is set, so before step k it is at rank s + (o mod 2^k) and after the last
  // step at s + o = d. Rank r therefore holds, for each low part l < 2^k, the blocks of
  // source s = r - l; those with bit k set have o = l + 2^k + j 2^(k+1) < p, i.e. one
  // strided range of destinations d = s + o per l. A low part l with l + 2^k >= p has no
  // such offset, hence `count` = min(2^k, p - 2^k) low parts.
  void all_to_all_step(Rank r, std::int64_t distance, std::uint64_t count, StepSpec& out) const {
    SendSpec& send = out.add_send(shifted(r, distance, p_), DataOp::kCopy);
    const auto stride = static_cast<std::uint64_t>(2 * distance);
    for (std::uint64_t low = 0; low < count; ++low) {
      const Rank s = shifted(r, -static_cast<std::int64_t>(low), p_);
      const std::uint64_t first_offset = low + static_cast<std::uint64_t>(distance);
      const std::uint64_t offsets = (p_ - 1 - first_offset) / stride + 1;
      add_wrapping(send, std::uint64_t{s} * p_, s + first_offset, offsets, stride, p_);
    }
    out.receive(shifted(r, -distance, p_));
  }

  CollectiveKind kind_;
  std::size_t p_;
};

}  // namespace

std::unique_ptr<Schedule> make_direct_schedule(CollectiveKind kind, AlgorithmKind algorithm, std::size_t ranks) {
  if (block_space(kind, ranks) > std::numeric_limits<std::uint32_t>::max()) {
    throw InputError(std::string(algorithm_name(algorithm)) + " " + std::string(collective_name(kind)) + " on " +
                     std::to_string(ranks) + " ranks has " + std::to_string(block_space(kind, ranks)) +
                     " blocks of data; their ids are 32-bit (at most 65535 ranks for AllToAll)");
  }
  switch (algorithm) {
    case AlgorithmKind::kDirect: return std::make_unique<DirectSchedule>(kind, ranks);
    case AlgorithmKind::kPairwise: return std::make_unique<PairwiseSchedule>(ranks);
    case AlgorithmKind::kBruck: return std::make_unique<BruckSchedule>(kind, ranks);
    default:
      throw InternalError("make_direct_schedule: algorithm " +
                          std::string(algorithm_name(algorithm)));
  }
}

}  // namespace commsim
