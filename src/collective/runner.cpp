#include "collective/runner.h"

#include <algorithm>

#include "base/error.h"

namespace commsim {

CollectiveRunner::CollectiveRunner(Transport& transport, const Schedule& schedule,
                                   Bytes data_bytes, RunOptions options)
    : transport_(transport),
      schedule_(schedule),
      chunks_(options.chunks),
      gamma_s_per_byte_(options.gamma_s_per_byte),
      npu_of_rank_(std::move(options.npu_of_rank)),
      tracker_(options.tracker),
      on_rank_done_(std::move(options.on_rank_done)),
      on_message_(std::move(options.on_message)),
      library_(options.library) {
  COMMSIM_CHECK(chunks_ >= 1, "at least one chunk");
  COMMSIM_CHECK(npu_of_rank_.empty() || npu_of_rank_.size() == schedule.ranks(),
                "rank mapping of the wrong size");
  for (std::size_t c = 0; c < chunks_; ++c) {
    chunk_bytes_.push_back(data_bytes / chunks_ + (c < data_bytes % chunks_ ? 1 : 0));
  }
  lanes_.resize(schedule.ranks() * schedule.channels() * chunks_);
  lanes_left_.assign(schedule.ranks(), static_cast<std::uint32_t>(schedule.channels() * chunks_));
  rank_finish_.assign(schedule.ranks(), -1);
}

// Block b of a chunk of m bytes over B blocks has m/B bytes, plus one if b < m mod B.
Bytes CollectiveRunner::message_bytes(std::size_t chunk, const SendSpec& send) const {
  const Bytes m = chunk_bytes_[chunk];
  const Bytes blocks = schedule_.blocks();
  Bytes bytes = 0;
  for (const BlockRange& range : send.blocks) {
    bytes += range.count * (m / blocks) + blocks_below(range, m % blocks);
  }
  return bytes;
}

CollectiveRunner::PeerQueue& CollectiveRunner::queue(Lane& lane, Rank peer) {
  for (PeerQueue& q : lane.queues) {
    if (q.peer == peer) return q;
  }
  lane.queues.push_back(PeerQueue{peer, 0, {}});
  return lane.queues.back();
}

void CollectiveRunner::start() {
  for (Rank r = 0; r < schedule_.ranks(); ++r) {
    for (std::size_t ch = 0; ch < schedule_.channels(); ++ch) {
      if (schedule_.steps(r, ch) == 0) lanes_left_[r] -= static_cast<std::uint32_t>(chunks_);
    }
    if (lanes_left_[r] == 0) finish_rank(r);
  }
  for (std::uint32_t lane = 0; lane < lanes_.size(); ++lane) {
    if (lane % chunks_ == 0) try_start(lane);  // later chunks follow chunk 0
  }
}

void CollectiveRunner::try_start(std::uint32_t index) {
  const std::size_t chunk = index % chunks_;
  const std::size_t channel = (index / chunks_) % schedule_.channels();
  const Rank rank = static_cast<Rank>(index / chunks_ / schedule_.channels());
  Lane& lane = lanes_[index];
  if (lane.running || lane.step >= schedule_.steps(rank, channel)) return;
  if (chunk > 0 && lanes_[index - 1].step <= lane.step) return;  // chunk order per step
  lane.running = true;

  spec_.clear();
  schedule_.step(rank, channel, lane.step, spec_);
  for (std::size_t i = 0; i < spec_.send_count(); ++i) {
    const SendSpec& send = spec_.sends(i);
    COMMSIM_CHECK(send.peer < schedule_.ranks() && send.peer != rank,
                  "rank " + std::to_string(rank) + " sends to rank " + std::to_string(send.peer));
    std::uint32_t id;
    if (free_messages_.empty()) {
      id = static_cast<std::uint32_t>(messages_.size());
      messages_.emplace_back();
    } else {
      id = free_messages_.back();
      free_messages_.pop_back();
    }
    Message& m = messages_[id];
    m.sender_lane = index;
    m.receiver_lane = lane_index(send.peer, channel, chunk);
    m.src = rank;
    m.bytes = message_bytes(chunk, send);
    m.op = send.op;
    if (tracker_) m.snapshot = tracker_->take(rank, chunk, send.blocks);
    if (on_message_) {
      m.step = lane.step;
      m.issued_ps = transport_.now();
    }
    ++lane.sends_pending;
    ++messages_sent_;
    PeerQueue& q = queue(lanes_[m.receiver_lane], rank);
    if (q.posted > 0) {
      --q.posted;
      start_transfer(id);
    } else {
      q.early_sends.push_back(id);
    }
  }
  for (const Rank peer : spec_.recvs()) {
    ++lane.recvs_pending;
    PeerQueue& q = queue(lane, peer);
    if (!q.early_sends.empty()) {
      const std::uint32_t id = q.early_sends.front();
      q.early_sends.erase(q.early_sends.begin());
      start_transfer(id);
    } else {
      ++q.posted;
    }
  }
  maybe_finish_step(index);
}

void CollectiveRunner::start_transfer(std::uint32_t id) {
  const Message& m = messages_[id];
  const Rank dst = static_cast<Rank>(m.receiver_lane / chunks_ / schedule_.channels());
  SendOptions options;
  if (library_) options.library = &*library_;
  transport_.send(npu(m.src), npu(dst), m.bytes, [this, id] { on_arrival(id); }, options);
}

void CollectiveRunner::on_arrival(std::uint32_t id) {
  Message& m = messages_[id];
  if (on_message_) report_message(m);
  if (tracker_) tracker_->apply(static_cast<Rank>(m.receiver_lane / chunks_ / schedule_.channels()),
                                m.receiver_lane % chunks_, m.snapshot, m.op);
  const std::uint32_t sender = m.sender_lane;
  const std::uint32_t receiver = m.receiver_lane;
  const Bytes reduce_bytes = m.op == DataOp::kReduce ? m.bytes : 0;
  m.snapshot = {};
  free_messages_.push_back(id);

  --lanes_[sender].sends_pending;
  Lane& lane = lanes_[receiver];
  --lane.recvs_pending;
  lane.reduce_bytes += reduce_bytes;
  maybe_finish_step(sender);
  maybe_finish_step(receiver);
}

void CollectiveRunner::report_message(const Message& m) const {
  const std::uint32_t receiver = m.receiver_lane;
  CollectiveMessage message;
  message.rank = m.src;
  message.peer = static_cast<Rank>(receiver / chunks_ / schedule_.channels());
  message.bytes = m.bytes;
  message.channel = static_cast<std::uint32_t>((receiver / chunks_) % schedule_.channels());
  message.chunk = static_cast<std::uint32_t>(receiver % chunks_);
  message.step = m.step;
  message.issued_ps = m.issued_ps;
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
  const std::size_t chunk = index % chunks_;
  const std::size_t channel = (index / chunks_) % schedule_.channels();
  const Rank rank = static_cast<Rank>(index / chunks_ / schedule_.channels());
  Lane& lane = lanes_[index];
  lane.running = false;
  lane.reducing = false;
  lane.reduce_bytes = 0;
  ++lane.step;
  if (lane.step == schedule_.steps(rank, channel) && --lanes_left_[rank] == 0) finish_rank(rank);
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

std::string CollectiveRunner::stuck_report() const {
  std::string report;
  for (std::uint32_t i = 0; i < lanes_.size() && report.size() < 2000; ++i) {
    const Lane& lane = lanes_[i];
    const Rank rank = static_cast<Rank>(i / chunks_ / schedule_.channels());
    const std::size_t channel = (i / chunks_) % schedule_.channels();
    if (lane.step >= schedule_.steps(rank, channel)) continue;
    report += "rank " + std::to_string(rank) + " channel " + std::to_string(channel) +
              " chunk " + std::to_string(i % chunks_) + " at step " + std::to_string(lane.step);
    for (const PeerQueue& q : lane.queues) {
      if (q.posted > 0) report += " waits for rank " + std::to_string(q.peer);
    }
    report += "; ";
  }
  return report;
}

}  // namespace commsim
