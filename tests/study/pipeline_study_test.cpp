// A pipeline step beside its closed form, as one library call: free communication gives the
// textbook step, a library's protocol is the fastest boundary transfer, and a deadlock is a
// row when asked.

#include "study/pipeline_study.h"

#include <gtest/gtest.h>

#include "../expect_contains.h"
#include "base/error.h"
#include "topology/builders.h"

namespace commsim {
namespace {

Topology ring(std::uint32_t npus, TimePs latency_ps) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = npus;
  c.link.latency_ps = latency_ps;
  return build_topology(c);
}

// p = 4 stages, m = 8 micro-batches, tf = 100 us, tb = 200 us per stage.
PipelineStudyOptions four_stages(Bytes activation_bytes) {
  PipelineStudyOptions o;
  o.shape.stages = 4;
  o.shape.microbatches = 8;
  o.shape.forward_ps.assign(4, ps_from_us(100));
  o.shape.backward_ps.assign(4, ps_from_us(200));
  o.shape.activation_bytes = activation_bytes;
  return o;
}

TEST(PipelineStudy, FreeCommunicationGivesTheTextbookStep) {
  // No latency, empty activations: T = (m + p - 1)(tf + tb) = 11 x 300 us = 3300 us for
  // GPipe and 1F1B, bubble (p - 1)/(m + p - 1) = 3/11; every mode alike.
  PipelineStudyOptions o = four_stages(0);
  o.schedules = {PipelineSchedule::kGPipe, PipelineSchedule::k1F1B};
  o.modes = {P2PMode::kSequential, P2PMode::kOverlapped, P2PMode::kBatched};
  int reported = 0;  // the progress callback: once per run
  o.on_run = [&] { ++reported; };
  const PipelineStudy study = study_pipeline(ring(4, 0), o);
  ASSERT_EQ(study.runs.size(), 6u);
  EXPECT_EQ(reported, 6);
  EXPECT_EQ(study.protocol, std::nullopt);
  for (const PipelineRun& r : study.runs) {
    SCOPED_TRACE(std::string(schedule_name(r.schedule)) + " " + std::string(p2p_mode_name(r.mode)));
    EXPECT_TRUE(r.deadlock.empty());
    EXPECT_EQ(r.result.step_ps, ps_from_us(3300));
    EXPECT_NEAR(r.model.step_with_p2p_s, 3300e-6, 1e-15);
    EXPECT_NEAR(r.sim_over_model, 1.0, 1e-12);
    EXPECT_NEAR(r.bubble, 3.0 / 11, 1e-12);
    EXPECT_NEAR(r.model.bubble, 3.0 / 11, 1e-12);
  }
  EXPECT_EQ(study.runs[0].schedule, PipelineSchedule::kGPipe);
  EXPECT_EQ(study.runs[5].mode, P2PMode::kBatched);
}

TEST(PipelineStudy, LibraryRunsTheFastestBoundaryTransfer) {
  // 32 MiB between stages on a ring of 450 GB/s, 250 ns links under nccl: Simple costs
  // 8.4 + 3.4 + 0.25 us + 33554432 B / 450 GB/s = 86.6155 us per transfer (LL128 97.2 us,
  // LL 245.4 us). With P2P the model adds 2(p v - 1) = 6 of them to 11 x 3 ms.
  PipelineStudyOptions o = four_stages(32 << 20);
  o.shape.forward_ps.assign(4, ps_from_us(1000));
  o.shape.backward_ps.assign(4, ps_from_us(2000));
  o.library = library_by_name("nccl", "test");
  const PipelineStudy study = study_pipeline(ring(4, ps_from_ns(250)), o);
  EXPECT_EQ(study.protocol, Protocol::kSimple);
  ASSERT_EQ(study.runs.size(), 1u);
  EXPECT_NEAR(study.runs[0].model.step_with_p2p_s, 33000e-6 + 6 * (12.05e-6 + 33554432 / 450e9), 1e-12);
}

TEST(PipelineStudy, InterleavedHoldsAChunkOfActivationPerMicroBatch) {
  // v = 2 model chunks per device: a micro-batch in flight on one chunk holds half a stage's
  // activation.
  PipelineStudyOptions o = four_stages(1 << 20);
  o.schedules = {PipelineSchedule::kInterleaved};
  const PipelineStudy study = study_pipeline(ring(4, 0), o);
  const PipelineRun& r = study.runs.at(0);
  EXPECT_EQ(r.virtual_stages, 2u);
  ASSERT_EQ(r.peak_activation_bytes.size(), 4u);
  for (std::size_t d = 0; d < 4; ++d) {
    EXPECT_EQ(r.peak_activation_bytes[d], Bytes{r.result.devices[d].peak_in_flight} * (1 << 20) / 2);
  }
}

TEST(PipelineStudy, DeadlockIsThrownOrARow) {
  // Every stage sends first, blocking: nobody receives.
  PipelineStudyOptions o = four_stages(1 << 20);
  o.modes = {P2PMode::kSequential};
  o.run.send_first = true;
  EXPECT_THROW(study_pipeline(ring(4, 0), o), DeadlockError);
  o.deadlock_is_a_row = true;
  const PipelineStudy study = study_pipeline(ring(4, 0), o);
  ASSERT_EQ(study.runs.size(), 1u);
  EXPECT_CONTAINS(study.runs[0].deadlock, "pipeline deadlock");
}

}  // namespace
}  // namespace commsim
