// The sweep's points: their order, what is left out, and what a row says of its topology.

#include "study/sweep.h"

#include <gtest/gtest.h>

#include <cmath>

#include "study_test_support.h"
#include "topology/placement.h"
#include "topology/spec_file.h"

namespace commsim::testing {
namespace {

TopologyConfig config(TopologyKind kind, std::uint32_t npus) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  return c;
}

TEST(Sweep, PointsInTopologyLibraryCollectiveAlgorithmSizeOrder) {
  SweepPlan plan;
  plan.topologies = {config(TopologyKind::kRing, 4), config(TopologyKind::kSwitch, 4)};
  plan.libraries = {LibraryProfile{}};
  plan.collectives = {CollectiveKind::kAllReduce};
  plan.algorithms = {"direct", "ring"};  // direct: AllReduce on a switch only
  plan.sizes = {1024, 4096};
  const std::vector<SweepPoint> points = sweep_points(plan);
  // ring-4: ring x 2 sizes; switch-4: direct x 2, ring x 2.
  ASSERT_EQ(points.size(), 6u);
  for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].index, i);
  EXPECT_EQ(points[0].topology, 0u);
  EXPECT_EQ(points[0].algorithm, AlgorithmKind::kRing);
  EXPECT_EQ(points[1].size, 4096u);
  EXPECT_EQ(points[2].topology, 1u);
  EXPECT_EQ(points[2].algorithm, AlgorithmKind::kDirect);
  EXPECT_EQ(points[4].algorithm, AlgorithmKind::kRing);
  // One point run on its own topology is the collective study's point there.
  const CollectivePoint p = run_sweep_point(plan, points[5]);
  CollectiveStudyOptions options;
  const CollectivePoint q =
      run_collective_point(build_topology(plan.topologies[1]), CollectiveKind::kAllReduce, AlgorithmKind::kRing, 4096, options);
  EXPECT_EQ(p.sim_ps, q.sim_ps);
  EXPECT_EQ(p.model_s, q.model_s);
}

TEST(Sweep, APointsWorkIsItsMessagesAndItsLinks) {
  // Work = messages x cbrt(flows in flight) + links. Ring AllReduce on ring-8: 8 ranks x
  // 2(8-1) steps of one message, 8 in flight: 112 x 2 + 8 = 232. Direct AllToAll on
  // switch-8: 8 x 7 messages all in flight: 56 x cbrt(56) + 8. NCCL's choice on the NVLS
  // switch of the default node (NVLS at 1 GiB): 2 x 8 flows in the switch: 16 x cbrt(16) + 8.
  SweepPlan plan;
  plan.topologies = {config(TopologyKind::kRing, 8), config(TopologyKind::kSwitch, 8), default_topology_config()};
  plan.libraries = {LibraryProfile{}, library_by_name("nccl", "test")};
  const auto work = [&](std::size_t t, std::size_t library, CollectiveKind kind, AlgorithmChoice algorithm, Bytes size) {
    SweepPoint point;
    point.topology = t;
    point.library = library;
    point.kind = kind;
    point.algorithm = algorithm;
    point.size = size;
    return sweep_point_work(plan, point, build_topology(plan.topologies[t]));
  };
  EXPECT_DOUBLE_EQ(work(0, 0, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1 << 20), 232);
  EXPECT_DOUBLE_EQ(work(1, 0, CollectiveKind::kAllToAll, AlgorithmKind::kDirect, 1 << 20), 56 * std::cbrt(56.0) + 8);
  EXPECT_DOUBLE_EQ(work(2, 1, CollectiveKind::kAllReduce, std::nullopt, 1 << 30), 16 * std::cbrt(16.0) + 8);
  // NCCL pipelines a chain Broadcast in C chunks (least_time_chunks), and the work counts
  // them: on ring-8 the estimate reads rank 0's one step of one send for each of the 8
  // ranks, 8 C messages, 8 in flight: 8 C x 2 + 8.
  CollectiveStudyOptions nccl;
  nccl.library = plan.libraries[1];
  nccl.pipeline_as_library = true;
  const std::size_t chunks = plan_collective_point(build_topology(plan.topologies[0]), CollectiveKind::kBroadcast,
                                                   AlgorithmKind::kRing, 64 << 20, nccl)
                                 .run.chunks;
  EXPECT_GT(chunks, 1u);
  EXPECT_DOUBLE_EQ(work(0, 1, CollectiveKind::kBroadcast, AlgorithmKind::kRing, 64 << 20),
                   16.0 * static_cast<double>(chunks) + 8);
  // A pipeline of 8 stages, 8 micro-batches, one model chunk: 2 x 64 transfers, 8 stages.
  plan.pipeline = PipelineAxes{};
  SweepPoint stage_point;
  stage_point.size = 1 << 20;
  EXPECT_DOUBLE_EQ(sweep_point_work(plan, stage_point, build_topology(plan.topologies[0])), 128 * 2 + 8);
}

TEST(Sweep, ALibraryDrivenByOneThreadBoundsEveryPoint) {
  // A library whose system has one thread drive 8 GPUs (a spec's gpus_per_thread): a sweep's
  // 8-NPU switch AllReduce of 1 KiB takes the thread's 2.1 + 8 x 5.26 = 44.18 us on its one
  // channel, as `collective --gpus-per-thread 8` does, above the call's own 22.0 us.
  SweepPlan plan;
  plan.topologies = {config(TopologyKind::kSwitch, 8)};
  LibraryProfile driven = library_by_name("nccl", "test");
  driven.gpus_per_thread = 8;
  plan.libraries = {driven, library_by_name("nccl", "test")};
  plan.collectives = {CollectiveKind::kAllReduce};
  plan.algorithms = {"nccl"};
  plan.sizes = {1024};
  const std::vector<SweepPoint> points = sweep_points(plan);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(run_sweep_point(plan, points[0]).sim_ps, ps_from_ns(44180));
  EXPECT_LT(run_sweep_point(plan, points[1]).sim_ps, ps_from_ns(30000));
}

TEST(Sweep, RankOrdersAreAnAxisInsideTheLibrary) {
  SweepPlan plan;
  plan.topologies = {config(TopologyKind::kRing, 8)};
  plan.libraries = {LibraryProfile{}};
  plan.rank_orders = {"linear", "random:1"};
  plan.collectives = {CollectiveKind::kAllReduce};
  plan.algorithms = {"ring"};
  plan.sizes = {1 << 20};
  const std::vector<SweepPoint> points = sweep_points(plan);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[1].rank_order, 1u);
  // In rank order the ring runs at its closed form; scattered over the physical ring, the
  // logical ring's neighbours are several hops apart and share links: slower than the
  // formula, which sees only the bottleneck of one route.
  const CollectivePoint linear = run_sweep_point(plan, points[0]);
  const CollectivePoint scattered = run_sweep_point(plan, points[1]);
  EXPECT_NEAR(*linear.sim_over_model, 1.0, 1e-6);
  EXPECT_GT(*scattered.sim_over_model, 1.5);
  CollectiveStudyOptions options;
  options.run.npu_of_rank = parse_rank_order("random:1", 8);
  const CollectivePoint q = run_collective_point(build_topology(plan.topologies[0]), CollectiveKind::kAllReduce,
                                                 AlgorithmKind::kRing, 1 << 20, options);
  EXPECT_EQ(scattered.sim_ps, q.sim_ps);
  // A rank order that names NPUs a topology lacks is an error before any point runs.
  plan.rank_orders = {"random:1", "no-such-file"};
  EXPECT_CONTAINS(input_error_of([&] { sweep_points(plan); }), "no-such-file");
}

TEST(Sweep, OversubscribedTreesAreNamedApart) {
  TopologyConfig c = config(TopologyKind::kTree, 16);
  EXPECT_EQ(topology_facts(build_topology(c)).name, "tree-16");
  c.oversubscription = {4};
  EXPECT_EQ(topology_facts(build_topology(c)).name, "tree-16-os4");
  c.arity = 4;
  c.oversubscription = {2, 1.5};
  EXPECT_EQ(topology_facts(build_topology(c)).name, "tree-16-k4-os2-1.5");
}

TEST(Sweep, EmptyListsAndAlgorithmsThatApplyNowhereAreErrors) {
  SweepPlan plan;
  plan.topologies = {config(TopologyKind::kRing, 4)};
  plan.libraries = {LibraryProfile{}};
  plan.collectives = {CollectiveKind::kAllReduce};
  plan.sizes = {1024};
  EXPECT_CONTAINS(input_error_of([&] { sweep_points(plan); }), "a sweep needs at least one algorithm");
  plan.algorithms = {"direct"};
  EXPECT_CONTAINS(input_error_of([&] { sweep_points(plan); }), "--algorithm direct applies to none");
  plan.topologies = {config(TopologyKind::kRing, 1)};
  plan.algorithms = {"all"};
  EXPECT_CONTAINS(input_error_of([&] { sweep_points(plan); }), "the sweep has no points");
}

TEST(Sweep, ARowSaysEveryParameterOfItsTopology) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 4;
  const TopologyFacts facts = topology_facts(build_topology(c));
  EXPECT_EQ(facts.kind, "hierarchical");
  EXPECT_EQ(facts.npus, 8u);
  EXPECT_EQ(facts.shape, "4x2");
  ASSERT_TRUE(facts.link && facts.nic);
  EXPECT_EQ(facts.link->bandwidth_Bps, c.link.bandwidth_Bps);
  EXPECT_EQ(facts.nic->bandwidth_Bps, c.nic.bandwidth_Bps);
  CollectivePoint p;
  p.algorithm = AlgorithmKind::kHierarchical;
  p.size = 1024;
  p.sim_ps = 2'500'000;
  p.model_s = 2.5e-6;
  p.sim_over_model = 1;
  p.channels = 3;
  EXPECT_EQ(sweep_csv_row(7, facts, {"nccl", "random:1", 2'000'000}, CollectiveKind::kAllGather, p),
            "7," + facts.name + ",hierarchical,8,4x2,450.000,0.250,50.000,1.000,nccl,random:1,2.000,allgather,hierarchical,-,3,1024,"
            "2.500000,2.500000,1.000000000,0.000000,0.000000,0.000000");
  // The same row as JSON: names as keys, numbers as numbers, "-" as null.
  EXPECT_EQ(sweep_json_row(sweep_csv_header(), sweep_csv_row(7, facts, {"nccl", "random:1", 2'000'000}, CollectiveKind::kAllGather, p)),
            "{\"point\":7,\"topology\":\"" + facts.name + "\",\"kind\":\"hierarchical\",\"npus\":8,\"shape\":\"4x2\","
            "\"link_GBps\":450.000,\"link_latency_us\":0.250,\"nic_GBps\":50.000,\"nic_latency_us\":1.000,"
            "\"library\":\"nccl\",\"rank_order\":\"random:1\",\"overhead_us\":2.000,\"collective\":\"allgather\",\"algorithm\":\"hierarchical\",\"protocol\":null,\"channels\":3,"
            "\"size_bytes\":1024,\"sim_time_us\":2.500000,\"model_time_us\":2.500000,\"sim_over_model\":1.000000000,"
            "\"lower_bound_us\":0.000000,\"algbw_GBps\":0.000000,\"busbw_GBps\":0.000000}");
}

}  // namespace
}  // namespace commsim::testing
