// The runner's matching of sends to receives (runner.h): a transfer starts once its send
// is issued and its receive posted, in posting order per (sender, receiving lane), found by
// peer whatever the order of the peers. A trivial transport makes every time exact: a
// message of b bytes arrives 1,000 ps + b ps after it starts, whatever else is in flight.

#include "collective/runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "base/error.h"

namespace commsim {
namespace {

constexpr TimePs kLatencyPs = 1'000;

class TrivialTransport : public Transport {
 public:
  struct Transfer {
    Rank src;
    Rank dst;
    Bytes bytes;
    TimePs start_ps;
    bool operator==(const Transfer&) const = default;
  };

  TimePs now() const override { return engine.now(); }
  void send(Rank src, Rank dst, Bytes bytes, EventCall on_arrival, SendOptions) override {
    transfers.push_back({src, dst, bytes, engine.now()});
    engine.schedule_after(kLatencyPs + static_cast<TimePs>(bytes), on_arrival);
  }
  void send_along(const Route&, Bytes, EventCall, SendOptions) override {
    throw InternalError("the runner sends between NPUs only");
  }
  void schedule_after(TimePs delay, Callback callback) override {
    engine.schedule_after(delay, std::move(callback));
  }
  EventCall once(Callback callback) override { return engine.once(std::move(callback)); }

  Engine engine;
  std::vector<Transfer> transfers;
};

/// Per rank, its steps: sends of n blocks (of 1,000 bytes) to a peer, and receives.
struct ScriptStep {
  std::vector<std::pair<Rank, std::uint32_t>> sends;  // (peer, blocks)
  std::vector<Rank> receives;
};

class ScriptedSchedule : public Schedule {
 public:
  explicit ScriptedSchedule(std::vector<std::vector<ScriptStep>> steps) : steps_(std::move(steps)) {}
  std::size_t ranks() const override { return steps_.size(); }
  std::size_t blocks() const override { return kBlocks; }
  std::size_t steps(Rank rank, std::size_t) const override { return steps_[rank].size(); }
  void step(Rank rank, std::size_t, std::size_t k, StepSpec& out) const override {
    for (const auto& [peer, blocks] : steps_[rank][k].sends) out.send(peer, DataOp::kCopy, {0, blocks, 1});
    for (const Rank peer : steps_[rank][k].receives) out.receive(peer);
  }
  static constexpr std::size_t kBlocks = 64;

 private:
  std::vector<std::vector<ScriptStep>> steps_;
};

/// Runs the script with 1,000-byte blocks.
struct ScriptRun {
  explicit ScriptRun(std::vector<std::vector<ScriptStep>> steps)
      : schedule(std::move(steps)), runner(transport, schedule, 1'000 * ScriptedSchedule::kBlocks, {}) {
    runner.start();
    transport.engine.run();
  }
  TrivialTransport transport;
  ScriptedSchedule schedule;
  CollectiveRunner runner;
};

// Rank 0 sends to rank 1 at 0, but rank 1 first waits for rank 2's 3 blocks (0 + 1,000 +
// 3,000 = 4,000 ps) and only then posts the receive from 0: 0 -> 1 starts at 4,000 and
// arrives at 4,000 + 1,000 + 1,000 = 6,000.
TEST(CollectiveRunner, AnEarlySendStartsWhenItsReceiveIsPosted) {
  ScriptRun run({{{{{1, 1}}, {}}}, {{{}, {2}}, {{}, {0}}}, {{{{1, 3}}, {}}}});
  using T = TrivialTransport::Transfer;
  EXPECT_EQ(run.transport.transfers, (std::vector<T>{{2, 1, 3'000, 0}, {0, 1, 1'000, 4'000}}));
  ASSERT_TRUE(run.runner.done());
  EXPECT_EQ(run.runner.rank_finish_times(), (std::vector<TimePs>{6'000, 6'000, 4'000}));
}

// Rank 1 posts its receive from 0 at 0; rank 0 sends only in its second step, after its
// exchange with rank 2 (1,000 + 2,000 = 3,000 ps): the receive waits, and 0 -> 1 starts
// at 3,000.
TEST(CollectiveRunner, AnEarlyReceiveWaitsForItsSend) {
  ScriptRun run({{{{{2, 2}}, {}}, {{{1, 1}}, {}}}, {{{}, {0}}}, {{{}, {0}}}});
  using T = TrivialTransport::Transfer;
  EXPECT_EQ(run.transport.transfers, (std::vector<T>{{0, 2, 2'000, 0}, {0, 1, 1'000, 3'000}}));
  EXPECT_EQ(run.runner.finish_time(), 5'000);
}

// Rank 0 sends A (1 block) and B (2 blocks) to rank 1 in one step, then C (4 blocks); rank
// 1 receives from 0 once per step. First in, first matched: A at 0 (arrives 2,000), B when
// rank 1's second receive is posted at 2,000 (arrives 5,000), C at 5,000. Matching B
// first would send 2,000 bytes at 0.
TEST(CollectiveRunner, SendsBetweenOnePairMatchInPostingOrder) {
  ScriptRun run({{{{{1, 1}, {1, 2}}, {}}, {{{1, 4}}, {}}}, {{{}, {0}}, {{}, {0}}, {{}, {0}}}});
  using T = TrivialTransport::Transfer;
  EXPECT_EQ(run.transport.transfers,
            (std::vector<T>{{0, 1, 1'000, 0}, {0, 1, 2'000, 2'000}, {0, 1, 4'000, 5'000}}));
  EXPECT_EQ(run.runner.finish_time(), 10'000);
  EXPECT_EQ(run.runner.messages_sent(), 3u);
}

// Rank 0 sends A, B, C (1, 2, 3 blocks) to rank 1 in one step, rank 2 sends D (4 blocks);
// rank 1 receives from 0, 2, 0, 0, one a step. A matches at 0 (arrives 2,000); D, posted
// while B and C wait, puts them aside; D matches at 2,000 (arrives 7,000), then B at 7,000
// (10,000) and C at 10,000 (14,000): three early sends keep their order across a change
// of peer.
TEST(CollectiveRunner, EarlySendsKeepTheirOrderWhileAnotherPeerIsMet) {
  ScriptRun run({{{{{1, 1}, {1, 2}, {1, 3}}, {}}},
                 {{{}, {0}}, {{}, {2}}, {{}, {0}}, {{}, {0}}},
                 {{{{1, 4}}, {}}}});
  using T = TrivialTransport::Transfer;
  EXPECT_EQ(run.transport.transfers, (std::vector<T>{{0, 1, 1'000, 0},
                                                     {2, 1, 4'000, 2'000},
                                                     {0, 1, 2'000, 7'000},
                                                     {0, 1, 3'000, 10'000}}));
  EXPECT_EQ(run.runner.finish_time(), 14'000);
}

// Every rank of 64 sends to all others in the order r+1, r+2, .. and receives in the
// opposite order r-1, r-2, ..; each send finds its receive by peer, so every transfer of
// step 0 starts at 0 and arrives at 2,000, and every one of step 1 (2 blocks) starts at
// 2,000 and arrives at 2,000 + 3,000 = 5,000.
TEST(CollectiveRunner, EveryPairMatchesWhateverTheOrderOfPeers) {
  constexpr Rank p = 64;
  std::vector<std::vector<ScriptStep>> steps(p);
  for (Rank r = 0; r < p; ++r) {
    for (std::uint32_t blocks = 1; blocks <= 2; ++blocks) {
      ScriptStep step;
      for (Rank i = 1; i < p; ++i) {
        step.sends.emplace_back((r + i) % p, blocks);
        step.receives.push_back((r + p - i) % p);
      }
      steps[r].push_back(step);
    }
  }
  ScriptRun run(std::move(steps));
  ASSERT_EQ(run.transport.transfers.size(), 2u * p * (p - 1));
  std::set<std::pair<Rank, Rank>> pairs[2];
  for (const TrivialTransport::Transfer& t : run.transport.transfers) {
    const std::size_t step = t.bytes == 1'000 ? 0 : 1;
    EXPECT_EQ(t.start_ps, step == 0 ? 0 : 2'000);
    EXPECT_NE(t.src, t.dst);
    pairs[step].insert({t.src, t.dst});
  }
  EXPECT_EQ(pairs[0].size(), p * (p - 1u));
  EXPECT_EQ(pairs[1].size(), p * (p - 1u));
  EXPECT_EQ(run.runner.rank_finish_times(), std::vector<TimePs>(p, 5'000));
}

// Rank 0 sends to rank 2, which receives nothing; rank 1 waits for rank 0 forever. The
// report names both lanes that did not finish and what rank 1 waits for.
TEST(CollectiveRunner, AStuckRunSaysWhoWaitsForWhom) {
  ScriptRun run({{{{{2, 1}}, {}}}, {{{}, {0, 2}}}, {}});
  EXPECT_FALSE(run.runner.done());
  EXPECT_TRUE(run.transport.transfers.empty());
  EXPECT_EQ(run.runner.stuck_report(),
            "rank 0 channel 0 chunk 0 at step 0; rank 1 channel 0 chunk 0 at step 0 waits for rank 0 "
            "waits for rank 2; ");
}

}  // namespace
}  // namespace commsim
