#include "collective/barrier.h"

#include <bit>

namespace commsim {
namespace {

// After round k rank r has heard, directly or through others, from ranks r - j (mod p) for
// every j < 2^(k+1): round k adds what r - 2^k knew, the 2^k ranks before it. After
// L = ceil(log2 p) rounds 2^L >= p covers everyone, for any p (no power of two needed,
// unlike a butterfly). For p not a power of two the last round brings some ranks' arrival
// twice, so the messages merge knowledge (kUnion) rather than add it. Every rank sends one
// message and receives one per round: L alpha on an idle network.
class DisseminationSchedule : public Schedule {
 public:
  explicit DisseminationSchedule(std::size_t ranks) : p_(ranks) {}

  std::size_t ranks() const override { return p_; }
  std::size_t blocks() const override { return 1; }
  std::size_t steps(Rank, std::size_t) const override { return p_ < 2 ? 0 : std::bit_width(p_ - 1); }

  void step(Rank r, std::size_t, std::size_t k, StepSpec& out) const override {
    const std::size_t distance = std::size_t{1} << k;  // < p since k < ceil(log2 p)
    out.send(static_cast<Rank>((r + distance) % p_), DataOp::kUnion, {0, 1, 1});
    out.receive(static_cast<Rank>((r + p_ - distance) % p_));
  }

 private:
  std::size_t p_;
};

}  // namespace

std::unique_ptr<Schedule> make_dissemination_schedule(std::size_t ranks) {
  return std::make_unique<DisseminationSchedule>(ranks);
}

}  // namespace commsim
