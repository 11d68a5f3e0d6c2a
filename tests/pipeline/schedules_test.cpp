// Schedules as device programs generated action by action, against programs written out by
// hand.

#include <gtest/gtest.h>

#include <sstream>

#include "pipeline/schedules.h"

namespace commsim {
namespace {

PipelineShape one_f_one_b(std::uint32_t p, std::uint32_t m) {
  PipelineShape s;
  s.schedule = PipelineSchedule::k1F1B;
  s.stages = p;
  s.microbatches = m;
  s.forward_ps.assign(p, 100);
  s.backward_ps.assign(p, 200);
  s.activation_bytes = 64;
  return s;
}

// "F0 [send>1#0] B0 ...": compute actions by name, calls as their operations (kind, peer, tag).
std::string text(const DeviceProgram& program) {
  std::ostringstream out;
  for (const Action& a : program) {
    if (a.kind != Action::Kind::kCall) {
      out << (a.kind == Action::Kind::kForward ? "F" : "B") << a.microbatch << '/' << a.duration_ps << ' ';
      continue;
    }
    out << '[';
    for (const P2POp& op : a.ops) {
      out << (op.kind == P2POp::Kind::kSend ? "send>" : "recv<") << op.peer << '#' << op.tag << ' ';
    }
    out << "] ";
  }
  return out.str();
}

TEST(SchedulePrograms, OneFOneBOnTwoStagesAsWrittenByHand) {
  // Stage 0 warms up with one forward, then alternates; stage 1 (the last) alternates from
  // the start. Tags: (micro-batch x 2 stages + boundary 0) x 2 + 1 for a gradient.
  const SchedulePrograms programs(one_f_one_b(2, 2));
  EXPECT_EQ(text(stored_program(programs, 0)),
            "F0/100 [send>1#0 ] F1/100 [send>1#4 recv<1#1 ] B0/200 [recv<1#5 ] B1/200 ");
  EXPECT_EQ(text(stored_program(programs, 1)),
            "[recv<0#0 ] F0/100 B0/200 [send>0#1 recv<0#4 ] F1/100 B1/200 [send>0#5 ] ");
  const P2POp gradient = stored_program(programs, 1)[3].ops.at(0);
  EXPECT_EQ(gradient.bytes, 64u);
  EXPECT_EQ(describe(gradient), "gradient of micro-batch 0 between stages 0 and 1");
}

TEST(SchedulePrograms, AnyPositionIsGeneratedOnDemandWithoutTheProgramsBeforeIt) {
  // A million micro-batches on 4 stages: device 0 warms up with 3 forwards, so its compute
  // task 3 + 2i is the forward of micro-batch 3 + i and task 4 + 2i the backward of i.
  const SchedulePrograms programs(one_f_one_b(4, 1'000'000));
  EXPECT_EQ(programs.length(0), 2u * 2'000'000 + 1);
  const std::size_t i = 500'000;
  const std::optional<Action> forward = programs.at(0, 2 * (3 + 2 * i) + 1);
  ASSERT_TRUE(forward);
  EXPECT_EQ(forward->kind, Action::Kind::kForward);
  EXPECT_EQ(forward->microbatch, 3 + i);
  const std::optional<Action> backward = programs.at(0, 2 * (4 + 2 * i) + 1);
  ASSERT_TRUE(backward);
  EXPECT_EQ(backward->kind, Action::Kind::kBackward);
  EXPECT_EQ(backward->microbatch, i);
  // The last action of the last stage: the backward of the last micro-batch, then the call
  // sending its gradient to stage 2.
  const std::optional<Action> last = programs.at(3, programs.length(3) - 1);
  ASSERT_TRUE(last);
  ASSERT_EQ(last->ops.size(), 1u);
  EXPECT_EQ(describe(last->ops[0]), "gradient of micro-batch 999999 between stages 2 and 3");
  EXPECT_FALSE(programs.at(0, programs.length(0) - 1));  // stage 0 sends no gradient
}

}  // namespace
}  // namespace commsim
