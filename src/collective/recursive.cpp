#include "collective/recursive.h"

#include <string>

#include "base/error.h"

namespace commsim {
namespace {

enum class Variant : std::uint8_t {
  kDoublingAllReduce,     // block space 1: every message is the whole vector
  kDoublingAllGather,     // block space p: block b is rank b's
  kHalvingReduceScatter,  // block space p: block b ends reduced at rank b
  kRabenseifner,          // block space p: halving, then doubling of the reduced blocks
};

Variant variant_of(CollectiveKind kind, AlgorithmKind algorithm) {
  if (algorithm == AlgorithmKind::kRecursiveDoubling && kind == CollectiveKind::kAllReduce) {
    return Variant::kDoublingAllReduce;
  }
  if (algorithm == AlgorithmKind::kRecursiveDoubling && kind == CollectiveKind::kAllGather) {
    return Variant::kDoublingAllGather;
  }
  if (algorithm == AlgorithmKind::kRecursiveHalving && kind == CollectiveKind::kReduceScatter) {
    return Variant::kHalvingReduceScatter;
  }
  if (algorithm == AlgorithmKind::kRabenseifner && kind == CollectiveKind::kAllReduce) {
    return Variant::kRabenseifner;
  }
  throw InternalError("recursive schedule for " + std::string(algorithm_name(algorithm)) + " " +
                      std::string(collective_name(kind)));
}

// The folding of p ranks onto p' = 2^floor(log2 p) virtual ranks. With rem = p - p', the
// ranks r < 2 rem pair up as (r, r+1), r even: r folds into r+1. Virtual rank v is real rank
// 2v+1 for v < rem and v + rem after. It stands for the real blocks {2v, 2v+1} (v < rem) or
// {v + rem}: first_block(v) grows with v, so virtual ranks [a, b) own the contiguous real
// blocks [first_block(a), first_block(b)).
class Folding {
 public:
  explicit Folding(std::size_t ranks) : p_(static_cast<std::uint32_t>(ranks)) {
    while (pow2_ * 2 <= p_) {
      pow2_ *= 2;
      ++log_;
    }
    rem_ = p_ - pow2_;
  }

  std::uint32_t virtual_ranks() const { return pow2_; }
  std::uint32_t log() const { return log_; }
  /// Even r < 2 rem: sends its data to r+1, waits for the result.
  bool folds_out(Rank r) const { return r < 2 * rem_ && r % 2 == 0; }
  /// Odd r < 2 rem: receives r-1's data first, sends it the result last.
  bool absorbs(Rank r) const { return r < 2 * rem_ && r % 2 == 1; }
  std::uint32_t virtual_rank(Rank r) const { return r < 2 * rem_ ? r / 2 : r - rem_; }
  Rank real_rank(std::uint32_t v) const { return v < rem_ ? 2 * v + 1 : v + rem_; }
  /// The real blocks of virtual ranks [first, first + count).
  BlockRange blocks_of(std::uint32_t first, std::uint32_t count) const {
    const std::uint32_t begin = first_block(first);
    return BlockRange{begin, first_block(first + count) - begin, 1};
  }

 private:
  std::uint32_t first_block(std::uint32_t v) const { return v < rem_ ? 2 * v : v + rem_; }

  std::uint32_t p_;
  std::uint32_t pow2_ = 1;
  std::uint32_t log_ = 0;
  std::uint32_t rem_ = 0;
};

class RecursiveSchedule : public Schedule {
 public:
  RecursiveSchedule(Variant variant, std::size_t ranks)
      : variant_(variant), p_(ranks), folding_(ranks) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return variant_ == Variant::kDoublingAllReduce ? 1 : p_; }

  std::size_t steps(Rank r, std::size_t /*channel*/) const override {
    if (folding_.folds_out(r)) return 2;
    return core_steps() + (folding_.absorbs(r) ? 2 : 0);
  }

  // Step lists: a folding-out rank: [fold send, unfold receive]; an absorbing rank:
  // [fold receive, core steps..., unfold send]; any other rank: [core steps...].
  void step(Rank r, std::size_t /*channel*/, std::size_t k, StepSpec& out) const override {
    if (folding_.folds_out(r)) {
      if (k == 0) {
        fold_send(r, out);
      } else {
        out.receive(r + 1);
      }
      return;
    }
    if (folding_.absorbs(r)) {
      if (k == 0) {
        out.receive(r - 1);
      } else if (k == core_steps() + 1) {
        unfold_send(r, out);
      } else {
        core_step(folding_.virtual_rank(r), static_cast<std::uint32_t>(k - 1), out);
      }
      return;
    }
    core_step(folding_.virtual_rank(r), static_cast<std::uint32_t>(k), out);
  }

 private:
  std::size_t core_steps() const {
    return variant_ == Variant::kRabenseifner ? 2 * folding_.log() : folding_.log();
  }
  BlockRange all_blocks() const { return BlockRange{0, static_cast<std::uint32_t>(blocks()), 1}; }

  // Even r hands r+1 what r+1 must now represent: its contribution to everything, or for
  // AllGather its one block.
  void fold_send(Rank r, StepSpec& out) const {
    if (variant_ == Variant::kDoublingAllGather) {
      out.send(r + 1, DataOp::kCopy, BlockRange{r, 1, 1});
    } else {
      out.send(r + 1, DataOp::kReduce, all_blocks());
    }
  }

  // Odd r = partner + 1 returns what the collective defines for the partner, and no more.
  void unfold_send(Rank r, StepSpec& out) const {
    const Rank partner = r - 1;
    switch (variant_) {
      case Variant::kDoublingAllGather: {
        // Everything but the partner's own block: [0, partner) and [partner + 1, p).
        SendSpec& send = out.add_send(partner, DataOp::kCopy);
        if (partner > 0) send.blocks.push_back(BlockRange{0, partner, 1});
        send.blocks.push_back(BlockRange{r, static_cast<std::uint32_t>(p_) - r, 1});
        return;
      }
      case Variant::kHalvingReduceScatter:
        out.send(partner, DataOp::kCopy, BlockRange{partner, 1, 1});
        return;
      case Variant::kDoublingAllReduce:
      case Variant::kRabenseifner:
        out.send(partner, DataOp::kCopy, all_blocks());
        return;
    }
  }

  // Step j of the power-of-two algorithm run by virtual rank v.
  void core_step(std::uint32_t v, std::uint32_t j, StepSpec& out) const {
    switch (variant_) {
      case Variant::kDoublingAllReduce: {
        const Rank partner = folding_.real_rank(v ^ (1u << j));
        out.send(partner, DataOp::kReduce, all_blocks());
        out.receive(partner);
        return;
      }
      case Variant::kDoublingAllGather: doubling_gather_step(v, j, out); return;
      case Variant::kHalvingReduceScatter: halving_step(v, j, out); return;
      case Variant::kRabenseifner:
        if (j < folding_.log()) {
          halving_step(v, j, out);
        } else {
          doubling_gather_step(v, j - folding_.log(), out);
        }
        return;
    }
  }

  // Recursive halving, step j: distance d = p'/2^(j+1). Before it v holds partial sums of
  // the blocks of the aligned 2d virtual ranks around it; it sends the half without v to
  // v XOR d, which sends the other half back; each adds. After log p' steps v holds its own
  // blocks with all contributions. Bytes per step n d/p', total (p'-1)/p' n for p = p'.
  void halving_step(std::uint32_t v, std::uint32_t j, StepSpec& out) const {
    const std::uint32_t d = folding_.virtual_ranks() >> (j + 1);
    const std::uint32_t partner = v ^ d;
    const std::uint32_t other_half = partner & ~(d - 1);
    out.send(folding_.real_rank(partner), DataOp::kReduce, folding_.blocks_of(other_half, d));
    out.receive(folding_.real_rank(partner));
  }

  // Recursive doubling, step j: before it v holds the final blocks of the aligned 2^j
  // virtual ranks around it, and so does its partner v XOR 2^j for its own group; they
  // swap, after which both hold the aligned 2^(j+1) group.
  void doubling_gather_step(std::uint32_t v, std::uint32_t j, StepSpec& out) const {
    const std::uint32_t size = 1u << j;
    const Rank partner = folding_.real_rank(v ^ size);
    out.send(partner, DataOp::kCopy, folding_.blocks_of(v & ~(size - 1), size));
    out.receive(partner);
  }

  Variant variant_;
  std::size_t p_;
  Folding folding_;
};

}  // namespace

std::unique_ptr<Schedule> make_recursive_schedule(CollectiveKind kind, AlgorithmKind algorithm, std::size_t ranks) {
  return std::make_unique<RecursiveSchedule>(variant_of(kind, algorithm), ranks);
}

}  // namespace commsim
