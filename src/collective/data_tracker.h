#pragma once
// Checks that a schedule computes what its collective defines, symbolically: for every
// rank, chunk and block it keeps the set of ranks whose contributions that rank holds.
// Messages carry a snapshot of the sender's sets taken when sent; the receiver copies or
// reduces them on arrival. A reduction that would add a contribution twice is an error.
//
// Block conventions (a schedule's block space is a multiple of these):
//   AllGather, ReduceScatter: block b belongs to rank b mod p.
//   AllToAll: block b carries data from rank (b / p) mod p to rank b mod p.
//   AllReduce, Broadcast, Reduce, Barrier: every block is the whole buffer's piece.
// Memory: ranks x chunks x blocks x ranks bits, so it is meant for tests and --verify.

#include <cstdint>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "collective/schedule.h"

namespace commsim {

class DataTracker {
 public:
  DataTracker(CollectiveKind kind, std::size_t ranks, std::size_t blocks, std::size_t chunks,
              Rank root);

  struct Snapshot {
    std::vector<std::uint32_t> blocks;
    std::vector<std::uint64_t> words;  // words_per_set() per block
  };
  Snapshot take(Rank src, std::size_t chunk, const std::vector<BlockRange>& ranges) const;
  void apply(Rank dst, std::size_t chunk, const Snapshot& snapshot, DataOp op);

  /// Empty when every rank holds exactly what the collective defines; otherwise the first
  /// error found (a double reduction, or a block with the wrong contributions).
  std::string verify() const;

 private:
  std::uint64_t* set(Rank rank, std::size_t chunk, std::size_t block);
  const std::uint64_t* set(Rank rank, std::size_t chunk, std::size_t block) const;
  /// The contributions rank `rank` must end with in `block`; empty when anything goes.
  std::vector<std::uint64_t> expected(Rank rank, std::size_t block, bool& checked) const;
  std::string describe(const std::uint64_t* set) const;

  CollectiveKind kind_;
  std::size_t ranks_;
  std::size_t blocks_;
  std::size_t chunks_;
  Rank root_;
  std::size_t words_;
  std::vector<std::uint64_t> sets_;
  std::string first_error_;
};

}  // namespace commsim
