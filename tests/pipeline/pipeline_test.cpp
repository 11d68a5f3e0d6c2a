// Pipeline schedules and P2P modes against hand-derived times.

#include <gtest/gtest.h>

#include "../expect_contains.h"
#include "base/error.h"
#include "model/pipeline_model.h"
#include "pipeline/pipeline_sim.h"
#include "pipeline/schedules.h"
#include "topology/builders.h"

namespace commsim {
namespace {

constexpr TimePs kTf = ps_from_us(100);
constexpr TimePs kTb = ps_from_us(200);

// A ring of NPUs whose transfers cost nothing: no latency, and 0-byte activations.
Topology free_ring(std::uint32_t npus) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = npus;
  c.link.latency_ps = 0;
  return build_topology(c);
}

PipelineShape shape(PipelineSchedule schedule, std::uint32_t p, std::uint32_t m, std::uint32_t v = 1) {
  PipelineShape s;
  s.schedule = schedule;
  s.stages = p;
  s.microbatches = m;
  s.virtual_stages = v;
  s.forward_ps.assign(p, kTf);
  s.backward_ps.assign(p, kTb);
  return s;
}

double bubble(const PipelineResult& r) {
  double idle = 0;
  for (const DeviceStats& d : r.devices) idle += 1.0 - static_cast<double>(d.busy_ps) / static_cast<double>(r.step_ps);
  return idle / static_cast<double>(r.devices.size());
}

PipelineResult run(const PipelineShape& s, PipelineRunOptions options = {}) {
  return simulate_pipeline(free_ring(s.stages), make_pipeline_programs(s), options);
}

TEST(PipelineSchedules, WithFreeCommunicationGPipeAnd1F1BMatchTheClosedForm) {
  // (m + p - 1)(tf + tb) and bubble (p - 1)/(m + p - 1), for every P2P mode.
  for (const PipelineSchedule schedule : {PipelineSchedule::kGPipe, PipelineSchedule::k1F1B}) {
    for (const auto& [p, m] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 8}, {2, 1}, {8, 3}, {5, 16}}) {
      for (const P2PMode mode : {P2PMode::kSequential, P2PMode::kOverlapped, P2PMode::kBatched}) {
        SCOPED_TRACE(std::string(schedule_name(schedule)) + " p=" + std::to_string(p) + " m=" +
                     std::to_string(m) + " " + std::string(p2p_mode_name(mode)));
        PipelineRunOptions o;
        o.mode = mode;
        const PipelineResult r = run(shape(schedule, p, m), o);
        EXPECT_EQ(r.step_ps, (m + p - 1) * (kTf + kTb));
        EXPECT_NEAR(bubble(r), (p - 1.0) / (m + p - 1.0), 1e-12);
      }
    }
  }
}

TEST(PipelineSchedules, InterleavingShrinksTheBubbleByV) {
  // p = 4, m = 8: 1F1B bubble 3/11. With v = 2: (m + (p-1)/v)(tf + tb) = 9.5 x 300 us and
  // bubble (p-1)/(vm + p - 1) = 3/19; with v = 4: 8.75 x 300 us, 3/35.
  const PipelineModel plain = pipeline_model({4, 8, 1, {1e-4, 1e-4, 1e-4, 1e-4}, {2e-4, 2e-4, 2e-4, 2e-4}, 0});
  for (const std::uint32_t v : {2u, 4u}) {
    SCOPED_TRACE("v = " + std::to_string(v));
    const PipelineResult r = run(shape(PipelineSchedule::kInterleaved, 4, 8, v));
    const double m = 8, p = 4;
    EXPECT_EQ(r.step_ps, static_cast<TimePs>((m + (p - 1) / v) * static_cast<double>(kTf + kTb)));
    EXPECT_NEAR(bubble(r), (p - 1) / (v * m + p - 1), 1e-12);
    EXPECT_NEAR(plain.bubble / bubble(r), (v * m + p - 1) / (m + p - 1), 1e-9);
  }
}

TEST(PipelineSchedules, OneFOneBHoldsAtMostPActivationsOnTheFirstStageGPipeM) {
  const PipelineResult one = run(shape(PipelineSchedule::k1F1B, 4, 16));
  const PipelineResult gpipe = run(shape(PipelineSchedule::kGPipe, 4, 16));
  EXPECT_EQ(one.devices[0].peak_in_flight, 4u);
  EXPECT_EQ(one.devices[3].peak_in_flight, 1u);
  EXPECT_EQ(gpipe.devices[0].peak_in_flight, 16u);
}

// Two devices that, in one call each, exchange an activation and a gradient.
std::vector<DeviceProgram> exchange(Bytes bytes) {
  const auto call = [&](std::uint32_t peer, std::int64_t out, std::int64_t in) {
    return Action{Action::Kind::kCall, 0, 0, 0,
                  {{P2POp::Kind::kSend, peer == 1 ? P2POp::Direction::kForward : P2POp::Direction::kBackward,
                    peer, bytes, out},
                   {P2POp::Kind::kRecv, peer == 1 ? P2POp::Direction::kBackward : P2POp::Direction::kForward,
                    peer, 0, in}}};
  };
  // Device 0 sends an activation forward and receives a gradient; device 1 the reverse.
  return {{call(1, 0, 1)}, {call(0, 1, 0)}};
}

Topology pair(Duplex duplex) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 2;
  c.link = {100e9, ps_from_us(1), LinkKind::kNvlink, duplex};  // 10 ps per byte
  return build_topology(c);
}

TEST(P2PModes, OverlappingUsesBothDirectionsOfAFullDuplexLink) {
  // 24 MB each way at 100 GB/s: one transfer is 1 us + 240 us. Overlapped, both run at
  // once on the two directions: 241 us. Sequential, device 0 sends while device 1
  // receives, then the other way: 2 x 241 us. On a half-duplex link the two overlapped
  // transfers share one capacity: 1 us + 480 us, no gain.
  const Bytes s = 24'000'000;
  PipelineRunOptions overlapped;
  overlapped.mode = P2PMode::kOverlapped;
  PipelineRunOptions sequential;
  sequential.mode = P2PMode::kSequential;
  EXPECT_EQ(simulate_pipeline(pair(Duplex::kFull), exchange(s), overlapped).step_ps, ps_from_us(241));
  EXPECT_EQ(simulate_pipeline(pair(Duplex::kFull), exchange(s), sequential).step_ps, ps_from_us(482));
  EXPECT_EQ(simulate_pipeline(pair(Duplex::kHalf), exchange(s), overlapped).step_ps, ps_from_us(481));
  EXPECT_EQ(simulate_pipeline(pair(Duplex::kHalf), exchange(s), sequential).step_ps, ps_from_us(482));
}

TEST(P2PModes, BatchingPaysOneOverheadPerCall) {
  // A micro-batch step of two calls, each a send and a receive (four operations), on a link
  // with 20 us latency and empty messages; o = 50 us.
  // Batched: each call launches once (50 us) and its two transfers take 20 us: 2 x 70 us.
  // Overlapped: each call launches its send at 50 us and its receive at 100 us; each
  // transfer starts when the peer's receive is posted (100 us) and lands at 120 us:
  // 2 x 120 us. The overhead is 100 us batched against 200 us unbatched.
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = 2;
  c.link.latency_ps = ps_from_us(20);  // one link between the two NPUs
  const Topology t = build_topology(c);
  std::vector<DeviceProgram> programs = exchange(0);
  programs[0].push_back(programs[0][0]);
  programs[1].push_back(programs[1][0]);
  for (int i : {0, 1}) {
    programs[i][1].ops[0].tag += 2;
    programs[i][1].ops[1].tag += 2;
  }
  PipelineRunOptions batched;
  batched.mode = P2PMode::kBatched;
  batched.overhead_ps = ps_from_us(50);
  PipelineRunOptions overlapped = batched;
  overlapped.mode = P2PMode::kOverlapped;
  EXPECT_EQ(simulate_pipeline(t, programs, batched).step_ps, ps_from_us(140));
  EXPECT_EQ(simulate_pipeline(t, programs, overlapped).step_ps, ps_from_us(240));
}

TEST(P2PModes, DeadlocksAreReportedNamingTheStages) {
  // Both devices send first and block until received: nobody receives.
  PipelineRunOptions send_first;
  send_first.mode = P2PMode::kSequential;
  send_first.send_first = true;
  try {
    simulate_pipeline(pair(Duplex::kFull), exchange(1 << 20), send_first);
    FAIL() << "expected a deadlock";
  } catch (const InputError& e) {
    const std::string what = e.what();
    // A first line saying what, then a line for each stage and each unmatched send.
    EXPECT_EQ(what.rfind("pipeline deadlock: 2 stages wait on communication that never comes\n  stage 0 (NPU 0) ", 0), 0u)
        << what;
    EXPECT_CONTAINS(what, "\n  stage 1 (NPU 1) ");
    EXPECT_CONTAINS(
        what, "\n  send 0 -> 1 tag 0 (activation of micro-batch 0 between stages 0 and 1) has no matching receive");
  }
  // Both receive first, in separate calls: a wait cycle in any mode.
  using D = P2POp::Direction;
  const Action recv0{Action::Kind::kCall, 0, 0, 0, {{P2POp::Kind::kRecv, D::kBackward, 1, 0, 1}}};
  const Action send0{Action::Kind::kCall, 0, 0, 0, {{P2POp::Kind::kSend, D::kForward, 1, 64, 0}}};
  const Action recv1{Action::Kind::kCall, 0, 0, 0, {{P2POp::Kind::kRecv, D::kForward, 0, 0, 0}}};
  const Action send1{Action::Kind::kCall, 0, 0, 0, {{P2POp::Kind::kSend, D::kBackward, 0, 64, 1}}};
  EXPECT_THROW(simulate_pipeline(pair(Duplex::kFull), {{recv0, send0}, {recv1, send1}}, {}), InputError);
}

TEST(PipelineSchedules, BadShapes) {
  EXPECT_THROW(make_pipeline_programs(shape(PipelineSchedule::kInterleaved, 4, 6, 2)), InputError);
  EXPECT_THROW(make_pipeline_programs(shape(PipelineSchedule::k1F1B, 4, 0)), InputError);
  EXPECT_THROW(make_pipeline_programs(shape(PipelineSchedule::k1F1B, 4, 8, 2)), InputError);
  EXPECT_THROW(simulate_pipeline(free_ring(2), make_pipeline_programs(shape(PipelineSchedule::k1F1B, 4, 8)), {}),
               InputError);
}

}  // namespace
}  // namespace commsim
