// The simulated training step against the closed form: never below the compute, never above
// the bound with nothing overlapped, shorter than it where buckets overlap the backward, and
// a straggler's delay as derived.

#include "study/training_step_sim.h"

#include <gtest/gtest.h>

#include "study/training_search.h"
#include "study_test_support.h"
#include "topology/builders.h"
#include "topology/spec_file.h"

namespace commsim::testing {
namespace {

// L 2, h 1024, a 16, plain MLP 4096, V 1000 (26.3 M parameters), 512 tokens a sequence,
// 8 micro-batches of one sequence per DP rank, 100 TFLOP/s.
TrainingAnalysisOptions small_gpt(std::uint32_t dp, std::uint32_t tp, std::uint32_t pp) {
  TrainingAnalysisOptions o;
  ModelShape& m = o.setup.model;
  m.layers = 4;
  m.hidden = 1024;
  m.ffn_hidden = 4096;
  m.heads = 16;
  m.vocab = 1000;
  m.mlp = MlpKind::kPlain;
  o.setup.parallel = {};
  o.setup.parallel.dp = dp;
  o.setup.parallel.tp = tp;
  o.setup.parallel.pp = pp;
  o.setup.batch = {8ull * dp, 1, 512};
  o.tflops = 100;
  return o;
}

Topology two_nodes_of_four() {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  return build_topology(c);
}

SimulatedStep simulate(const Topology& t, const TrainingAnalysisOptions& o, StepSimulationOptions s = {}) {
  return simulate_training_step(t, o, analyze_training(t, o), s);
}

TEST(TrainingStepSimulation, ReportsTheLayoutRankByRankThenTheReplayNodeByNode) {
  // 8 ranks laid out, 1..8 of 8, before the first node of the replay finishes; then every
  // node with its work: 1 a compute or send, 2 a collective of a group of 2 (tp 2, dp 2),
  // summing to the total work given with each.
  const Topology t = two_nodes_of_four();
  std::vector<std::pair<std::size_t, std::size_t>> ranks;
  std::vector<double> work;
  std::size_t total_nodes = 0;
  double total_work = 0;
  StepSimulationOptions s;
  s.on_layout_progress = [&](std::size_t done, std::size_t total) {
    EXPECT_TRUE(work.empty());
    ranks.emplace_back(done, total);
  };
  s.on_progress = [&](double w, std::size_t nodes, double all) {
    work.push_back(w);
    total_nodes = nodes;
    total_work = all;
  };
  const SimulatedStep step = simulate(t, small_gpt(2, 2, 2), s);
  ASSERT_EQ(ranks.size(), 8u);
  for (std::size_t i = 0; i < ranks.size(); ++i) EXPECT_EQ(ranks[i], std::pair(i + 1, std::size_t{8}));
  EXPECT_EQ(work.size(), step.nodes);
  EXPECT_EQ(total_nodes, step.nodes);
  double sum = 0;
  for (const double w : work) {
    EXPECT_TRUE(w == 1 || w == 2) << w;
    sum += w;
  }
  EXPECT_EQ(sum, total_work);
  EXPECT_GT(total_work, static_cast<double>(step.nodes));  // collectives weigh more
}

TEST(TrainingStepSimulation, BetweenTheComputeAndTheBound) {
  const Topology t = two_nodes_of_four();
  for (const auto& [dp, tp, pp] : {std::tuple{8u, 1u, 1u}, {2u, 2u, 2u}, {1u, 4u, 2u}, {4u, 2u, 1u}}) {
    SCOPED_TRACE("dp " + std::to_string(dp) + " tp " + std::to_string(tp) + " pp " + std::to_string(pp));
    const TrainingAnalysisOptions o = small_gpt(dp, tp, pp);
    const TrainingAnalysis a = analyze_training(t, o);
    const SimulatedStep s = simulate_training_step(t, o, a, {});
    EXPECT_GE(s.step_ps, ps_from_seconds(a.compute_s) - 100);  // each slice rounds to the ps
    EXPECT_LE(seconds_from_ps(s.step_ps), a.step_bound_s);
    EXPECT_EQ(s.step_ps, s.compute_ps + s.exposed_ps);  // the last rank computes or waits
  }
}

TEST(TrainingStepSimulation, TensorParallelAllReducesOnAnNvSwitchRunNvlsInBothForms) {
  // An H100 node, tp 8: the tensor-parallel group is on a switch that reduces, so NCCL's
  // choice for its AllReduces is NVLS in the closed form, and the simulated step runs them
  // so: with no other traffic, its tensor-parallel exposure is their closed form, and the
  // step the bound.
  const Topology t = load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto");
  TrainingAnalysisOptions o = small_gpt(1, 8, 1);
  o.library = t.library();
  const TrainingAnalysis a = analyze_training(t, o);
  const DimensionCost* tp = nullptr;
  for (const DimensionCost& d : a.dimensions) {
    if (d.dimension == ParallelDim::kTp) tp = &d;
  }
  ASSERT_NE(tp, nullptr);
  for (const CostedTraffic& c : tp->operations) EXPECT_EQ(c.algorithm, AlgorithmKind::kNvls) << c.entry.what;
  const SimulatedStep s = simulate_training_step(t, o, a, {});
  EXPECT_NEAR(seconds_from_ps(s.step_ps), a.step_bound_s, 1e-9);  // nothing to overlap: compute + tp
  for (const auto& [dim, exposed_ps] : s.exposed_by_dimension) {
    if (dim == ParallelDim::kTp) {
      EXPECT_NEAR(seconds_from_ps(exposed_ps), tp->time_per_step_s, 1e-9);
    }
  }
}

TEST(TrainingStepSimulation, BucketsOverlapTheBackward) {
  // Data parallelism alone on 8 GPUs, 4 layers, 8 micro-batches: the bound adds the whole
  // gradient AllReduce R to the compute T_c. Gradients are ready over the last micro-batch's
  // backward, B = T_c / 8 x 2/3, one layer (a quarter of it) after another, and 4 MiB
  // buckets start as they fill: all but the first quarter of B can hide reduction, so
  //   T_c + R - B < step < T_c + R - B / 2.
  const Topology t = two_nodes_of_four();
  const TrainingAnalysisOptions o = small_gpt(8, 1, 1);
  const TrainingAnalysis a = analyze_training(t, o);
  StepSimulationOptions small_buckets;
  small_buckets.bucket_bytes = Bytes{4} << 20;
  const SimulatedStep s = simulate_training_step(t, o, a, small_buckets);
  ASSERT_EQ(a.dimensions.size(), 1u);
  const double reduce_s = a.dimensions[0].time_per_step_s;
  const double last_backward_s = a.compute_s / 8 * 2 / 3;
  EXPECT_GT(seconds_from_ps(s.step_ps), a.compute_s + reduce_s - last_backward_s);
  EXPECT_LT(seconds_from_ps(s.step_ps), a.compute_s + reduce_s - last_backward_s / 2);
  EXPECT_NEAR(a.step_bound_s, a.compute_s + reduce_s, 1e-12);
  ASSERT_EQ(s.exposed_by_dimension.size(), 1u);
  EXPECT_EQ(s.exposed_by_dimension[0].first, ParallelDim::kDp);
  EXPECT_EQ(s.exposed_by_dimension[0].second, s.exposed_ps);
}

TEST(TrainingStepSimulation, AStragglerOfFactorTwoAddsItsCompute) {
  // dp 2 on two GPUs of a node. Rank 1 computes twice as long: rank 0 waits for it at every
  // bucket, and the last bucket starts when rank 1's backward ends, 2 T_c after the start
  // instead of T_c, and takes as long as before. So the step grows by exactly T_c, rank 1's
  // compute (within a picosecond per compute node of rounding).
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = 2;
  const Topology t = build_topology(c);
  const TrainingAnalysisOptions o = small_gpt(2, 1, 1);
  const SimulatedStep even = simulate(t, o);
  StepSimulationOptions slow;
  slow.stragglers = {{1, 2.0}};
  const SimulatedStep straggled = simulate(t, o, slow);
  EXPECT_NEAR(static_cast<double>(straggled.step_ps - even.step_ps), static_cast<double>(even.compute_ps), 100);
  EXPECT_EQ(straggled.last_rank, 0u);  // rank 0 ends with rank 1, at the last bucket; lowest first
  EXPECT_CONTAINS(input_error_of([&] {
                    slow.stragglers = {{2, 2.0}};
                    simulate(t, o, slow);
                  }),
                  "--straggler 2: the job has ranks 0 to 1");
}

TEST(TrainingSearchProgress, CountsEverySimulatedSplitOnTheCallingThread) {
  // 8 GPUs of the small model: every split that fits and is simulated is reported once, in
  // order, against the number that fit; the table's simulated rows are exactly those.
  const Topology t = two_nodes_of_four();
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  const TrainingSearch search = search_training(
      t, small_gpt(8, 1, 1), {}, {}, 2, 2, [&](std::size_t done, std::size_t at_most) { calls.emplace_back(done, at_most); });
  std::size_t simulated = 0;
  for (const SearchRow& r : search.rows) simulated += r.simulated.has_value();
  ASSERT_EQ(calls.size(), simulated);
  ASSERT_GE(simulated, 2u);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].first, i + 1);
    EXPECT_EQ(calls[i].second, search.rows.size());  // every row fits: the rows are those that fit
  }
}

}  // namespace
}  // namespace commsim::testing
