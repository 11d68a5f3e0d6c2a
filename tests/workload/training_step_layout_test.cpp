// Bad training-step shapes: each rule of training_step.h refused with a message that names
// the field and the value.

#include "workload/training_step_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "../expect_contains.h"
#include "base/error.h"
#include "training_step_shapes.h"
#include "workload/training_step.h"

namespace commsim {
namespace {

using testing::pipeline;

StepCollective collective(CollectiveKind kind, Bytes bytes, std::size_t family, std::string what = "") {
  return {kind, bytes, family, std::move(what), std::nullopt};
}

// tp = 2, pp = 2 on 4 ranks: pipelines {0, 2} and {1, 3}, TP groups {0, 1} and {2, 3}, DP
// groups (of one rank each: dp = 1) {0} .. {3}, one TP AllReduce per forward slice, gradients.
TrainingStepShape good() {
  TrainingStepShape s;
  s.ranks = 4;
  s.pipeline = pipeline(PipelineSchedule::k1F1B, 2, 2, ps_from_us(100), ps_from_us(200), 64);
  s.pipelines = {{0, 2}, {1, 3}};
  s.families = {{"tp", {{0, 1}, {2, 3}}}, {"dp", {{0}, {1}, {2}, {3}}}};
  s.forward_collectives = {collective(CollectiveKind::kAllReduce, 1024, 0, "tp allreduce")};
  s.gradients = {4096, 1024, 1, CollectiveKind::kAllReduce, std::nullopt};
  return s;
}

// The message generate_training_step throws for good() changed by `change`.
std::string error_of(const std::function<void(TrainingStepShape&)>& change) {
  TrainingStepShape s = good();
  change(s);
  try {
    generate_training_step(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TrainingStepLayout, GoodShapeIsPlaced) {
  const StepLayout layout = make_step_layout(good());
  EXPECT_EQ(layout.pipeline_of, (std::vector<std::uint32_t>{0, 1, 0, 1}));
  EXPECT_EQ(layout.stage_of, (std::vector<std::uint32_t>{0, 0, 1, 1}));
  ASSERT_EQ(layout.groups.size(), 6u);  // dp0 dp1 dp2 dp3 tp0 tp1
  EXPECT_EQ(layout.groups[4], (CommGroup{"tp0", {0, 1}}));
  EXPECT_EQ(layout.group_of[0][3], std::optional<std::size_t>{5});
  EXPECT_EQ(layout.group_of[1][2], std::optional<std::size_t>{2});
  EXPECT_EQ(error_of([](TrainingStepShape&) {}), "no error");
}

TEST(TrainingStepLayout, PipelinesMustCoverEveryRankOnce) {
  EXPECT_EQ(error_of([](TrainingStepShape& s) { s.slices = 0; }), "training step: slices must be at least 1, got 0");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.pipelines[1] = {1}; }),
                  "training step: pipeline 1 has 1 ranks, but the schedule has 2 stages");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.pipelines[1] = {1, 4}; }),
                  "pipeline 1 names rank 4, outside the step's 4 ranks (0..3)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.pipelines[1] = {1, 2}; }),
                  "rank 2 is in pipeline 0 and again in pipeline 1");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.pipelines.pop_back(); }),
                  "rank 1 is in no pipeline (1 pipelines of 2 stages for 4 ranks)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.pipeline = pipeline(PipelineSchedule::kInterleaved, 2, 3, ps_from_us(100), ps_from_us(200), 64);
                  }),
                  "pipeline: the interleaved schedule needs micro-batches (3) to be a multiple of stages (2)");
}

TEST(TrainingStepLayout, GroupsOfAFamilyAreDisjointAndNamedOnce) {
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[1].name.clear(); }), "family 1 has no name");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[0].groups[1].clear(); }),
                  "family 'tp': group tp1 is empty");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[0].groups[1] = {2, 7}; }),
                  "family 'tp': group tp1 names rank 7, outside the step's 4 ranks (0..3)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[0].groups[1] = {1, 3}; }),
                  "family 'tp': rank 1 is in group tp0 and again in group tp1 (a rank is in at most one group "
                  "of a family)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[1].groups = {{0}, {1}, {2, 2}}; }),
                  "family 'dp': rank 2 is in group dp2 and again in group dp2");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.families[1].name = "tp"; }),
                  "families 'tp' and 'tp' both name a group 'tp0'");
}

TEST(TrainingStepLayout, CollectivesNeedAFamilyWithGroupsAndASize) {
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.backward_collectives = {collective(CollectiveKind::kAllReduce, 8, 2)};
                  }),
                  "backward collective 0: family 2 does not exist (the shape has 2 families)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.families.push_back({"cp", {}});
                    s.after_gradients = {collective(CollectiveKind::kAllGather, 8, 2, "kv")};
                  }),
                  "after-gradients collective 0 (kv): family 'cp' has no groups");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.forward_collectives[0].bytes = 0; }),
                  "forward collective 0 (tp allreduce): allreduce of 0 bytes (only a barrier moves no data)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.after_optimizer = {collective(CollectiveKind::kBarrier, 4, 0)};
                  }),
                  "after-optimizer collective 0: a barrier of 4 B: a barrier moves no data, so its bytes must be 0");
  EXPECT_EQ(error_of([](TrainingStepShape& s) { s.after_optimizer = {collective(CollectiveKind::kBarrier, 0, 0)}; }),
            "no error");
}

TEST(TrainingStepLayout, PerSliceGroupsStayInOneStage) {
  // {0, 2} is stages 0 and 1 of pipeline 0: their programs differ, so their k-th collectives
  // are different ones. The same group is fine for what runs after the program.
  const auto span_stages = [](TrainingStepShape& s) { s.families[0].groups = {{0, 2}, {1, 3}}; };
  EXPECT_CONTAINS(error_of(span_stages),
                  "family 'tp': group tp0 holds rank 0 (stage 0) and rank 2 (stage 1), but forward collective 0 (tp "
                  "allreduce) runs after each compute slice");
  EXPECT_EQ(error_of([&](TrainingStepShape& s) {
              span_stages(s);
              s.after_gradients = s.forward_collectives;
              s.forward_collectives.clear();
            }),
            "no error");
}

TEST(TrainingStepLayout, GradientReductionRules) {
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.backward_collectives = {collective(CollectiveKind::kAllToAll, 64, 1)};
                  }),
                  "gradients: family 'dp' also carries backward collective 0; the buckets run beside backward");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.gradients.kind = CollectiveKind::kAllGather; }),
                  "gradients: kind allgather: gradients are reduced by allreduce or reducescatter");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.gradients.bucket_bytes = 0; }),
                  "gradients: the bucket size must not be 0");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.gradients.family = 5; }),
                  "gradients: family 5 does not exist (the shape has 2 families)");
  // No gradients: nothing about them is checked.
  EXPECT_EQ(error_of([](TrainingStepShape& s) {
              s.gradients.bytes = 0;
              s.gradients.family = 5;
            }),
            "no error");
}

TEST(TrainingStepLayout, ComputeScaleAndOptimizer) {
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.compute_scale = {1, 1}; }),
                  "compute_scale has 2 factors for 4 ranks (give one per rank, or none)");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.compute_scale = {1, 1, 0, 1}; }),
                  "compute_scale of rank 2 is 0: a factor must be positive and finite");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.compute_scale = {1, std::nan(""), 1, 1}; }),
                  "compute_scale of rank 1 is nan");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) {
                    s.compute_scale = {1, 1, 1, std::numeric_limits<double>::infinity()};
                  }),
                  "compute_scale of rank 3 is inf");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.compute_scale = {1, 1, 1e12, 1}; }),
                  "training step: rank 2: compute of 100000000 ps scaled by its compute_scale goes beyond the "
                  "clock's range");
  EXPECT_CONTAINS(error_of([](TrainingStepShape& s) { s.optimizer_ps = -1; }), "optimizer_ps is negative: -1 ps");
}

}  // namespace
}  // namespace commsim
