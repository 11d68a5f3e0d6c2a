#include "collective/runner.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace commsim {

CollectiveRunner::CollectiveRunner(Transport& transport, const Schedule& schedule, Bytes data_bytes, RunOptions options)
    : transport_(transport),
      schedule_(schedule),
      chunks_(options.chunks),
      channels_(schedule.channels()),
      gamma_s_per_byte_(options.gamma_s_per_byte),
      npu_of_rank_(std::move(options.npu_of_rank)),
      tracker_(options.tracker),
      on_rank_done_(std::move(options.on_rank_done)),
      on_message_(std::move(options.on_message)),
      library_(options.library),
      rate_caps_by_class_(options.rate_caps_by_class),
      channel_rates_(options.channel_rates) {
  COMMSIM_CHECK(chunks_ >= 1, "at least one chunk");
  // The protocol's rate cap is the call's (NCCL's llMaxBw caps a call's bus bandwidth, all
  // its channels together): each of the schedule's channels moves at most its share.
  if (library_) library_->max_rate_Bps /= static_cast<double>(channels_);
  COMMSIM_CHECK(schedule.blocks() >= 1, "a schedule of at least one block");
  COMMSIM_CHECK(npu_of_rank_.empty() || npu_of_rank_.size() == schedule.ranks(),
                "rank mapping of the wrong size");
  for (std::size_t c = 0; c < chunks_; ++c) {
    chunk_bytes_.push_back(data_bytes / chunks_ + (c < data_bytes % chunks_ ? 1 : 0));
    chunk_block_bytes_.push_back(chunk_bytes_.back() / schedule.blocks());
    chunk_block_rest_.push_back(chunk_bytes_.back() % schedule.blocks());
  }
  lanes_.resize(schedule.ranks() * schedule.channels() * chunks_);
  for (Rank r = 0; r < schedule.ranks(); ++r) {
    for (std::size_t ch = 0; ch < channels_; ++ch) {
      const std::size_t steps = schedule.steps(r, ch);
      COMMSIM_CHECK(steps < UINT32_MAX, "a schedule of 2^32 steps or more");
      for (std::size_t c = 0; c < chunks_; ++c) lanes_[lane_index(r, ch, c)].steps = static_cast<std::uint32_t>(steps);
    }
  }
  lanes_left_.assign(schedule.ranks(), static_cast<std::uint32_t>(schedule.channels() * chunks_));
  rank_finish_.assign(schedule.ranks(), -1);
}

// Block b of a chunk of m bytes over B blocks has m/B bytes, plus one if b < m mod B.
Bytes CollectiveRunner::message_bytes(std::size_t chunk, const SendSpec& send) const {
  Bytes bytes = 0;
  for (const BlockRange& range : send.blocks) {
    bytes += range.count * chunk_block_bytes_[chunk] + blocks_below(range, chunk_block_rest_[chunk]);
  }
  return bytes;
}

std::uint32_t CollectiveRunner::new_message() {
  COMMSIM_CHECK(messages_.in_use() < kMostWaiting, "too many messages in flight");
  const std::uint32_t id = messages_.acquire();
  if (tracker_ && id == snapshots_.size()) snapshots_.emplace_back();
  if (on_message_ && id == issues_.size()) issues_.emplace_back();
  return id;
}

CollectiveRunner::Waiting& CollectiveRunner::waiting_of(std::uint32_t index, Rank peer) {
  Lane& lane = lanes_[index];
  if (lane.peer == peer) return lane.waiting;
  if (lane.waiting != kNothing) waiting_of_pair_.insert(pair_key(index, lane.peer), lane.waiting);
  lane.peer = peer;
  lane.waiting = kNothing;
  const std::uint64_t key = pair_key(index, peer);
  if (const std::uint32_t* found = waiting_of_pair_.find(key)) {
    lane.waiting = *found;
    waiting_of_pair_.erase(key);
  }
  return lane.waiting;
}

void CollectiveRunner::post_send(std::uint32_t id) {
  Message& m = messages_[id];
  Waiting& waiting = waiting_of(m.receiver_lane, sender(m));
  if (waiting & kPosted) {
    waiting = waiting - 1 == kPosted ? kNothing : waiting - 1;
    start_transfer(id);
    return;
  }
  if (waiting == kNothing) {
    m.next = id;
  } else {
    Message& last = messages_[waiting - 1];
    m.next = last.next;
    last.next = id;
  }
  waiting = id + 1;
}

void CollectiveRunner::post_receive(std::uint32_t lane, Rank peer) {
  Waiting& waiting = waiting_of(lane, peer);
  if (waiting == kNothing || (waiting & kPosted)) {
    COMMSIM_CHECK((waiting & ~kPosted) < kMostWaiting, "too many receives posted between two ranks");
    waiting = waiting == kNothing ? kPosted | 1 : waiting + 1;
    return;
  }
  const std::uint32_t last = waiting - 1;
  const std::uint32_t first = messages_[last].next;
  if (first == last) {
    waiting = kNothing;
  } else {
    messages_[last].next = messages_[first].next;
  }
  start_transfer(first);
}

void CollectiveRunner::start() {
  for (Rank r = 0; r < schedule_.ranks(); ++r) {
    for (std::size_t ch = 0; ch < schedule_.channels(); ++ch) {
      if (lanes_[lane_index(r, ch, 0)].steps == 0) lanes_left_[r] -= static_cast<std::uint32_t>(chunks_);
    }
    if (lanes_left_[r] == 0) finish_rank(r);
  }
  for (std::uint32_t lane = 0; lane < lanes_.size(); ++lane) {
    if (lane % chunks_ == 0) try_start(lane);  // later chunks follow chunk 0
  }
}

void CollectiveRunner::try_start(std::uint32_t index) {
  const auto [rank, channel, chunk] = lane_at(index);
  Lane& lane = lanes_[index];
  if (lane.running || lane.step >= lane.steps) return;
  if (chunk > 0 && lanes_[index - 1].step <= lane.step) return;  // chunk order per step
  lane.running = true;

  spec_.clear();
  schedule_.step(rank, channel, lane.step, spec_);
  for (std::size_t i = 0; i < spec_.send_count(); ++i) {
    const SendSpec& send = spec_.sends(i);
    COMMSIM_CHECK(send.peer < schedule_.ranks() && send.peer != rank,
                  "rank " + std::to_string(rank) + " sends to rank " + std::to_string(send.peer));
    const std::uint32_t id = new_message();
    Message& m = messages_[id];
    m.sender_lane = index;
    m.receiver_lane = lane_index(send.peer, channel, chunk);
    m.bytes = message_bytes(chunk, send);
    m.op = send.op;
    if (tracker_) snapshots_[id] = tracker_->take(rank, chunk, send.blocks);
    if (on_message_) issues_[id] = {lane.step, transport_.now()};
    ++lane.sends_pending;
    ++messages_sent_;
    post_send(id);
  }
  for (const Rank peer : spec_.recvs()) {
    ++lane.recvs_pending;
    post_receive(index, peer);
  }
  maybe_finish_step(index);
}

void CollectiveRunner::start_transfer(std::uint32_t id) {
  const Message& m = messages_[id];
  const Rank dst = lane_at(m.receiver_lane).rank;
  SendOptions options;
  if (library_) options.library = &*library_;
  if (rate_caps_by_class_ != kNoRateCaps) options.rate_caps_by_class = &rate_caps_by_class_;
  if (channel_rates_) options.rate_cap_Bps = channel_rates_->rate(lane_at(m.sender_lane).channel, sender(m), dst);
  transport_.send(npu(sender(m)), npu(dst), m.bytes, EventCall{this, id}, options);
}

void CollectiveRunner::on_arrival(std::uint32_t id) {
  const Message& m = messages_[id];
  if (on_message_) report_message(id);
  if (tracker_) {
    const LaneAt receiver = lane_at(m.receiver_lane);
    tracker_->apply(receiver.rank, receiver.chunk, snapshots_[id], m.op);
    snapshots_[id] = {};
  }
  const std::uint32_t sender = m.sender_lane;
  const std::uint32_t receiver = m.receiver_lane;
  const Bytes reduce_bytes = m.op == DataOp::kReduce ? m.bytes : 0;
  messages_.release(id);

  --lanes_[sender].sends_pending;
  Lane& lane = lanes_[receiver];
  --lane.recvs_pending;
  lane.reduce_bytes += reduce_bytes;
  maybe_finish_step(sender);
  maybe_finish_step(receiver);
}

void CollectiveRunner::prefetch(std::uint32_t id, bool near) const {
  const Message& m = messages_[id];
  if (!near) {
    __builtin_prefetch(&m);
    return;
  }
  __builtin_prefetch(&lanes_[m.sender_lane]);
  __builtin_prefetch(&lanes_[m.receiver_lane]);
}

void CollectiveRunner::report_message(std::uint32_t id) const {
  const Message& m = messages_[id];
  const LaneAt receiver = lane_at(m.receiver_lane);
  CollectiveMessage message;
  message.rank = sender(m);
  message.peer = receiver.rank;
  message.bytes = m.bytes;
  message.channel = static_cast<std::uint32_t>(receiver.channel);
  message.chunk = static_cast<std::uint32_t>(receiver.chunk);
  message.step = issues_[id].step;
  message.issued_ps = issues_[id].issued_ps;
  message.arrived_ps = transport_.now();
  on_message_(message);
}

void CollectiveRunner::maybe_finish_step(std::uint32_t index) {
  Lane& lane = lanes_[index];
  if (!lane.running || lane.reducing || lane.sends_pending > 0 || lane.recvs_pending > 0) return;
  if (gamma_s_per_byte_ > 0 && lane.reduce_bytes > 0) {
    lane.reducing = true;
    const double seconds = gamma_s_per_byte_ * static_cast<double>(lane.reduce_bytes);
    transport_.schedule_after(ps_from_seconds(seconds, "reduction time (gamma x bytes)"), [this, index] { complete_step(index); });
    return;
  }
  complete_step(index);
}

void CollectiveRunner::complete_step(std::uint32_t index) {
  const auto [rank, channel, chunk] = lane_at(index);
  Lane& lane = lanes_[index];
  lane.running = false;
  lane.reducing = false;
  lane.reduce_bytes = 0;
  ++lane.step;
  if (lane.step == lane.steps && --lanes_left_[rank] == 0) finish_rank(rank);
  try_start(index);
  if (chunk + 1 < chunks_) try_start(index + 1);
}

void CollectiveRunner::finish_rank(Rank rank) {
  rank_finish_[rank] = transport_.now();
  ++ranks_done_;
  if (on_rank_done_) on_rank_done_(rank);
}

TimePs CollectiveRunner::finish_time() const {
  COMMSIM_CHECK(done(), "collective has not finished: " + stuck_report());
  return rank_finish_.empty() ? 0 : *std::max_element(rank_finish_.begin(), rank_finish_.end());
}

// The receives still posted, by lane and then peer.
std::string CollectiveRunner::stuck_report() const {
  std::vector<std::pair<std::uint32_t, Rank>> waits;
  for (std::uint32_t i = 0; i < lanes_.size(); ++i) {
    if (lanes_[i].waiting & kPosted) waits.emplace_back(i, lanes_[i].peer);
  }
  waiting_of_pair_.for_each([&](std::uint64_t key, std::uint32_t waiting) {
    if (waiting & kPosted) waits.emplace_back(static_cast<std::uint32_t>(key >> 32), static_cast<Rank>(key));
  });
  std::sort(waits.begin(), waits.end());
  std::string report;
  auto wait = waits.begin();
  for (std::uint32_t i = 0; i < lanes_.size() && report.size() < 2000; ++i) {
    const auto [rank, channel, chunk] = lane_at(i);
    if (lanes_[i].step >= lanes_[i].steps) continue;
    report += "rank " + std::to_string(rank) + " channel " + std::to_string(channel) +
              " chunk " + std::to_string(chunk) + " at step " + std::to_string(lanes_[i].step);
    for (; wait != waits.end() && wait->first <= i; ++wait) {
      if (wait->first == i) report += " waits for rank " + std::to_string(wait->second);
    }
    report += "; ";
  }
  return report;
}

}  // namespace commsim
