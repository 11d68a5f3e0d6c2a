#pragma once
// A collective algorithm as per-rank programs of steps, generated lazily (nothing is
// materialised up front: a 2048-rank ring AllReduce has 8 million messages).
//
// The data of a collective is a "block space": `blocks()` equal blocks, in which every
// message names the blocks it carries. In each step a rank sends some blocks to peers and
// receives from peers; a step is done when its sends have arrived and its receives have
// arrived (and been reduced). Algorithms may run several independent channels at once (two
// rings in opposite directions, two trees), each over its own blocks; within a channel,
// the data may be split into chunks that pipeline through the steps (see runner.h).
//
// Messages between two ranks on one channel are matched in the order they are sent.

#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace commsim {

/// What the receiver does with the blocks of a message.
enum class DataOp : std::uint8_t {
  kCopy,    // overwrite its copy with the sender's
  kReduce,  // add the sender's contributions to its own (they must be disjoint)
  kUnion,   // merge knowledge that may overlap (barrier)
};

/// Blocks first, first + stride, ..., (count of them).
struct BlockRange {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t stride = 1;
};

struct SendSpec {
  Rank peer = 0;
  DataOp op = DataOp::kCopy;
  std::vector<BlockRange> blocks;
};

/// One step of one rank: its sends and the peers it receives from. Reused between calls so
/// that generating a step does not allocate.
class StepSpec {
 public:
  void clear() {
    send_count_ = 0;
    recvs_.clear();
  }
  /// A new send to `peer` with no blocks yet.
  SendSpec& add_send(Rank peer, DataOp op);
  /// A send of one range of blocks.
  void send(Rank peer, DataOp op, BlockRange range) { add_send(peer, op).blocks.push_back(range); }
  void receive(Rank peer) { recvs_.push_back(peer); }

  std::size_t send_count() const { return send_count_; }
  const SendSpec& sends(std::size_t i) const { return sends_[i]; }
  const std::vector<Rank>& recvs() const { return recvs_; }

 private:
  std::vector<SendSpec> sends_;  // the first send_count_ are in use
  std::size_t send_count_ = 0;
  std::vector<Rank> recvs_;
};

class Schedule {
 public:
  virtual ~Schedule() = default;
  virtual std::size_t ranks() const = 0;
  virtual std::size_t blocks() const = 0;
  virtual std::size_t channels() const { return 1; }
  /// Whether each channel moves at a fixed rate, its share of the links it crosses with the
  /// pipeline full, whatever the others do (collective/channel_rates.h); else messages share
  /// links max-min fairly as they meet.
  virtual bool fixed_channel_rates() const { return false; }
  virtual std::size_t steps(Rank rank, std::size_t channel) const = 0;
  /// Fills `out` (cleared by the caller) with step `k` of `rank` on `channel`.
  virtual void step(Rank rank, std::size_t channel, std::size_t k, StepSpec& out) const = 0;
};

/// Number of blocks in a range that are below `limit` (for uneven block sizes).
std::uint64_t blocks_below(const BlockRange& range, std::uint64_t limit);

}  // namespace commsim
