#pragma once
// Runs a Schedule on a Transport.
//
// Each (rank, channel, chunk) is a lane that runs the rank's steps in order. Lane
// (r, ch, c) starts step k when it finished step k-1 and lane (r, ch, c-1) finished step k,
// so chunks go through each rank's steps in order and pipeline (chunk c+1 is received
// while chunk c is forwarded). A step issues its sends and posts its receives when it
// starts; as in NCCL's send/receive (DESIGN.md, "Messages"), a transfer starts only once
// its send is issued and the matching receive is posted (rendezvous), matching in posting
// order per (sender, receiver, channel, chunk). A step is done when its sends and receives
// have arrived and the received reductions have been computed (gamma seconds per byte).
// Chunk c of n bytes is n/C bytes (the first n mod C chunks one byte more); a block is the
// chunk's bytes over the block count, the same way.
//
// Matching is O(1) per message. What waits between a receiving lane and a sending rank
// fits in 32 bits (Waiting): a lane keeps that of the peer it last met, so a lane meeting
// one peer step after step (a ring) needs nothing more; those of other peers, while
// something waits there, are in a hash map (base/index_map.h). Early sends queue through
// their messages. Messages are recycled, so a run that has reached its working size sends
// without allocating.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/index_map.h"
#include "base/slot_pool.h"
#include "collective/channel_rates.h"
#include "collective/collective_message.h"
#include "collective/data_tracker.h"
#include "collective/schedule.h"
#include "network/transport.h"

namespace commsim {

struct RunOptions {
  std::size_t chunks = 1;
  double gamma_s_per_byte = 0;
  std::vector<Rank> npu_of_rank;      // empty: rank r runs on NPU r
  DataTracker* tracker = nullptr;     // optional symbolic data check
  std::function<void(Rank)> on_rank_done;  // optional: a rank has finished all its steps
  /// Optional: each message as it arrives (timelines); empty costs nothing.
  OnCollectiveMessage on_message;
  std::optional<ProtocolCosts> library;    // the library's costs of this collective, its rate
                                           // cap the call's, shared by the schedule's channels;
                                           // empty: the transport's own
  RateCapsByClass rate_caps_by_class = kNoRateCaps;  // on every message, by its route's class
  const ChannelRates* channel_rates = nullptr;       // each message's channel's rate, where the
                                                     // schedule has fixed ones; null: none
};

// Messages tell their arrival as typed events (EventTarget), with their id.
class CollectiveRunner : private EventTarget {
 public:
  /// `data_bytes` is the size of the whole block space (every block of every channel).
  CollectiveRunner(Transport& transport, const Schedule& schedule, Bytes data_bytes,
                   RunOptions options);
  CollectiveRunner(const CollectiveRunner&) = delete;
  CollectiveRunner& operator=(const CollectiveRunner&) = delete;

  /// Starts every rank now. The transport's engine must then run.
  void start();
  bool done() const { return ranks_done_ == schedule_.ranks(); }
  /// When the last rank finished.
  TimePs finish_time() const;
  const std::vector<TimePs>& rank_finish_times() const { return rank_finish_; }
  std::uint64_t messages_sent() const { return messages_sent_; }
  /// For a run that did not finish: which lanes wait, at which step, on what.
  std::string stuck_report() const;

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  /// What waits between one receiving lane and one sending rank, never both receives and
  /// sends: kNothing; kPosted | n, n receives posted that no send has matched yet; or 1 + the
  /// id of the last of the sends issued before their receive, a ring through Message::next
  /// (the last's next is the first), so that both ends are at hand.
  using Waiting = std::uint32_t;
  static constexpr Waiting kNothing = 0;
  static constexpr Waiting kPosted = std::uint32_t{1} << 31;
  static constexpr std::uint32_t kMostWaiting = kPosted - 2;  // receives posted between a pair,
                                                              // or messages in flight
  struct Lane {
    std::uint32_t steps = 0;  // the schedule's steps for the lane's rank and channel
    std::uint32_t step = 0;
    bool running = false;
    bool reducing = false;
    std::uint32_t sends_pending = 0;
    std::uint32_t recvs_pending = 0;
    Bytes reduce_bytes = 0;
    Rank peer = kNone;           // the sending rank this lane last met
    Waiting waiting = kNothing;  // what waits between the two
  };
  // 24 bytes: an all-to-all has a million in flight. The sender is its lane's rank.
  struct Message {
    std::uint32_t sender_lane;
    std::uint32_t receiver_lane;
    std::uint32_t next;  // the next early send to its receiving lane (Waiting)
    DataOp op;
    Bytes bytes;
  };
  static_assert(sizeof(Message) == 24);
  // What on_message reports of a message beyond the message itself.
  struct Issue {
    std::uint32_t step = 0;
    TimePs issued_ps = 0;
  };

  std::uint32_t lane_index(Rank rank, std::size_t channel, std::size_t chunk) const {
    return static_cast<std::uint32_t>((rank * channels_ + channel) * chunks_ + chunk);
  }
  struct LaneAt {
    Rank rank;
    std::size_t channel;
    std::size_t chunk;
  };
  /// Lane `index`'s (rank, channel, chunk), inverting lane_index; with one channel and one
  /// chunk (most runs) the lane is the rank, with no division.
  LaneAt lane_at(std::uint32_t index) const {
    if (channels_ == 1 && chunks_ == 1) return {index, 0, 0};
    return {static_cast<Rank>(index / chunks_ / channels_), index / chunks_ % channels_, index % chunks_};
  }
  Rank npu(Rank rank) const { return npu_of_rank_.empty() ? rank : npu_of_rank_[rank]; }
  Bytes message_bytes(std::size_t chunk, const SendSpec& send) const;
  static std::uint64_t pair_key(std::uint32_t lane, Rank peer) {
    return (std::uint64_t{lane} << 32) | peer;
  }
  std::uint32_t new_message();
  /// What waits between `lane` and `peer`, which becomes the peer the lane last met. Valid
  /// until the next call.
  Waiting& waiting_of(std::uint32_t lane, Rank peer);
  /// Message `id` is sent: it starts if its receive is posted, else waits for it.
  void post_send(std::uint32_t id);
  /// `lane` posts a receive from `peer`: the earliest send waiting there starts, if any.
  void post_receive(std::uint32_t lane, Rank peer);
  void try_start(std::uint32_t lane);
  void on_arrival(std::uint32_t message);
  void on_event(std::uint32_t message) override { on_arrival(message); }
  void prefetch(std::uint32_t message, bool near) const override;
  void start_transfer(std::uint32_t message);
  void maybe_finish_step(std::uint32_t lane);
  void complete_step(std::uint32_t lane);
  void finish_rank(Rank rank);
  void report_message(std::uint32_t id) const;
  Rank sender(const Message& m) const { return lane_at(m.sender_lane).rank; }

  Transport& transport_;
  const Schedule& schedule_;
  std::size_t chunks_;
  std::size_t channels_;
  double gamma_s_per_byte_;
  std::vector<Rank> npu_of_rank_;
  DataTracker* tracker_;
  std::function<void(Rank)> on_rank_done_;
  OnCollectiveMessage on_message_;
  std::optional<ProtocolCosts> library_;
  RateCapsByClass rate_caps_by_class_;
  const ChannelRates* channel_rates_;
  std::vector<Bytes> chunk_bytes_;
  std::vector<Bytes> chunk_block_bytes_;  // per chunk: m / B, and the remainder m mod B
  std::vector<Bytes> chunk_block_rest_;
  std::vector<Lane> lanes_;
  std::vector<std::uint32_t> lanes_left_;  // per rank
  std::vector<TimePs> rank_finish_;
  std::size_t ranks_done_ = 0;
  SlotPool<Message> messages_;
  std::vector<DataTracker::Snapshot> snapshots_;  // per message, with a tracker only
  std::vector<Issue> issues_;                     // per message, with on_message only
  IndexMap waiting_of_pair_;  // pair_key(lane, peer) -> Waiting, but kNothing, for each peer
                              // the lane did not meet last
  std::uint64_t messages_sent_ = 0;
  StepSpec spec_;
};

}  // namespace commsim
