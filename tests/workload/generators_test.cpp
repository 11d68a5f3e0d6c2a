// Workload generators and the Chakra writer: shapes, hand-derived replay times, agreement
// with simulate_collective and simulate_pipeline, and the round trip generate -> write ->
// read -> replay in commsim binary, commsim text and Chakra ET.

#include "workload/generators.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../expect_contains.h"
#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "pipeline/pipeline_sim.h"
#include "same_replay.h"
#include "topology/spec_file.h"
#include "workload/chakra_reader.h"
#include "workload/chakra_writer.h"
#include "workload/replay.h"
#include "workload/trace_file.h"

namespace commsim {
namespace {

using testing::expect_same_replay;

std::string tmp(const std::string& name) { return std::string(COMMSIM_TEST_TMP_DIR) + "/" + name; }

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

Topology ring(std::uint32_t npus, BandwidthBps bandwidth, TimePs latency) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = npus;
  c.link = {bandwidth, latency, LinkKind::kOther, Duplex::kFull};
  return build_topology(c);
}

ReplayOptions ring_allreduce() {
  ReplayOptions o;
  o.algorithms[CollectiveKind::kAllReduce] = AlgorithmKind::kRing;
  return o;
}

// Write, read back, compare the workload and its replay, in all three encodings.
void expect_round_trip(const Workload& w, const std::string& file, const Topology& topology,
                       const ReplayOptions& options = {}) {
  const ReplayResult original = replay_workload(w, topology, options);
  std::vector<std::pair<std::string, Workload>> copies;
  write_trace_file(w, tmp(file + ".pb"));
  copies.emplace_back("binary", load_trace_file(tmp(file + ".pb")));
  write_trace_file(w, tmp(file + ".textproto"));
  copies.emplace_back("text", load_trace_file(tmp(file + ".textproto")));
  const std::string prefix = tmp("chakra-" + file);
  for (Rank r = 0; r <= w.rank_count(); ++r) std::filesystem::remove(chakra_rank_path(prefix, r));
  const ChakraWriteResult written = write_chakra_trace(w, prefix);
  EXPECT_EQ(written.rank_files.size(), w.rank_count());
  EXPECT_EQ(written.groups_file.has_value(), !w.groups.empty());
  copies.emplace_back("chakra", load_chakra_trace(prefix, written.groups_file));
  for (const auto& [format, copy] : copies) {
    SCOPED_TRACE(file + " via " + format);
    EXPECT_EQ(copy.groups, w.groups);
    ASSERT_EQ(copy.rank_count(), w.rank_count());
    for (std::size_t r = 0; r < w.rank_count(); ++r) EXPECT_EQ(copy.ranks[r].nodes, w.ranks[r].nodes);
    expect_same_replay(replay_workload(copy, topology, options), original);
  }
  EXPECT_EQ(copies[0].second.name, w.name);
  EXPECT_EQ(copies[2].second.name, "chakra-" + file);  // Chakra keeps no name: the prefix's
}

PipelineShape pipeline_shape(PipelineSchedule schedule, TimePs forward, TimePs backward, Bytes activation) {
  PipelineShape s;
  s.schedule = schedule;
  s.stages = 4;
  s.microbatches = 8;
  s.virtual_stages = schedule == PipelineSchedule::kInterleaved ? 2 : 1;
  s.forward_ps.assign(4, forward);
  s.backward_ps.assign(4, backward);
  s.activation_bytes = activation;
  return s;
}

// ---- collective --------------------------------------------------------------------------

TEST(GenerateCollective, ReplaysAsCommsimCollective) {
  const Topology node = build_topology(default_topology_config());
  for (const CollectiveKind kind : all_collectives()) {
    SCOPED_TRACE(std::string(collective_name(kind)));
    // 1000 B: nccl-tests rounds it to 992 B (a multiple of 8 ranks x 4 B) for AllGather,
    // ReduceScatter and AllToAll, to 1000 B for the others, 0 for Barrier.
    const Workload w = generate_collective({kind, 8, 1000, std::nullopt});
    ASSERT_EQ(w.rank_count(), 8u);
    ASSERT_EQ(w.ranks[5].nodes.size(), 1u);
    const WorkloadNode& n = w.ranks[5].nodes[0];
    EXPECT_EQ(n.bytes, nccl_size(kind, 1000, 8));
    EXPECT_FALSE(n.group.has_value());
    const TimePs expected =
        simulate_collective(node, kind, default_algorithm(kind, node, true), n.bytes, {}).time_ps;
    EXPECT_EQ(replay_workload(w, node, {}).total_ps, expected);
  }
}

TEST(GenerateCollective, ChosenAlgorithmIsKept) {
  const Topology node = build_topology(default_topology_config());
  const Workload w = generate_collective({CollectiveKind::kAllReduce, 8, 64 << 20, AlgorithmKind::kRing});
  EXPECT_EQ(w.ranks[0].nodes[0].algorithm, AlgorithmKind::kRing);
  EXPECT_EQ(replay_workload(w, node, {}).total_ps,
            simulate_collective(node, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 64 << 20, {}).time_ps);
}

TEST(GenerateCollective, BadShapes) {
  EXPECT_CONTAINS(error_of([] { generate_collective({CollectiveKind::kAllReduce, 1, 1024, std::nullopt}); }),
                  "ranks must be at least 2, got 1");
  EXPECT_CONTAINS(error_of([] { generate_collective({CollectiveKind::kAllGather, 8, 31, std::nullopt}); }),
                  "size 31 B is less than one 4-byte element per rank for allgather on 8 ranks");
  EXPECT_EQ(generate_collective({CollectiveKind::kBarrier, 4, 0, std::nullopt}).ranks[3].nodes[0].bytes, 0u);
}

// ---- DDP ---------------------------------------------------------------------------------

TEST(GenerateDdp, BucketsFillInBackwardOrderUntilTheCapIsReached) {
  DdpShape s;
  s.layers = 8;
  s.layer_bytes = 10 << 20;
  s.bucket_bytes = 25 << 20;  // 30 MiB >= 25 MiB closes a bucket: 3 layers each
  using Buckets = std::vector<std::vector<std::uint32_t>>;
  EXPECT_EQ(ddp_buckets(s), (Buckets{{7, 6, 5}, {4, 3, 2}, {1, 0}}));
  s.first_bucket_bytes = 1 << 20;  // PyTorch's rebuilt first bucket: one layer
  EXPECT_EQ(ddp_buckets(s), (Buckets{{7}, {6, 5, 4}, {3, 2, 1}, {0}}));
  s.first_bucket_bytes.reset();
  s.bucket_bytes = 20 << 20;  // exactly two layers
  EXPECT_EQ(ddp_buckets(s), (Buckets{{7, 6}, {5, 4}, {3, 2}, {1, 0}}));
  s.bucket_bytes = Bytes{1} << 40;  // never full: one bucket at the end
  EXPECT_EQ(ddp_buckets(s), (Buckets{{7, 6, 5, 4, 3, 2, 1, 0}}));
  s.layer_bytes = 0;
  EXPECT_CONTAINS(error_of([&] { ddp_buckets(s); }), "gradient size of a layer must not be 0");
  s.layer_bytes = 1;
  s.layers = 0;
  EXPECT_CONTAINS(error_of([&] { ddp_buckets(s); }), "layers must be at least 1");
  s.layers = 1;
  s.bucket_bytes = 0;
  EXPECT_CONTAINS(error_of([&] { ddp_buckets(s); }), "bucket size must not be 0");
}

TEST(GenerateDdp, NodesAndDependencies) {
  DdpShape s;
  s.ranks = 3;
  s.layers = 3;
  s.forward_ps = ps_from_us(10);
  s.backward_ps = ps_from_us(20);
  s.layer_bytes = 100;
  s.bucket_bytes = 200;
  s.optimizer_ps = ps_from_us(5);
  const Workload w = generate_ddp(s);
  ASSERT_EQ(w.rank_count(), 3u);
  EXPECT_TRUE(w.groups.empty());
  const std::vector<WorkloadNode>& n = w.ranks[2].nodes;
  // fwd0 fwd1 fwd2 bwd2 bwd1 bwd0, allreduce {2, 1} after bwd1, allreduce {0} after bwd0
  // and the first allreduce, optimizer after both.
  ASSERT_EQ(n.size(), 9u);
  EXPECT_EQ(n[0].name, "fwd0");
  EXPECT_TRUE(n[0].deps.empty());
  EXPECT_EQ(n[3].name, "bwd2");
  EXPECT_EQ(n[3].deps, std::vector<TraceNodeId>{3});
  EXPECT_EQ(n[6].name, "allreduce bucket 0 (layers 2-1)");
  EXPECT_EQ(n[6].bytes, 200u);
  EXPECT_EQ(n[6].deps, std::vector<TraceNodeId>{5});
  EXPECT_EQ(n[7].name, "allreduce bucket 1 (layer 0)");
  EXPECT_EQ(n[7].bytes, 100u);
  EXPECT_EQ(n[7].deps, (std::vector<TraceNodeId>{6, 7}));
  EXPECT_EQ(n[8].name, "optimizer");
  EXPECT_EQ(n[8].deps, (std::vector<TraceNodeId>{7, 8}));
  s.ranks = 1;
  EXPECT_CONTAINS(error_of([&] { generate_ddp(s); }), "ranks must be at least 2, got 1");
}

TEST(GenerateDdp, BucketsHideCommunicationBehindBackward) {
  // 2 ranks on a 2-NPU ring, links of 100 GB/s (beta = 1e-11 s/B) and 1 us (alpha). 4 layers:
  // forward 50 us, backward 100 us each; 5 MB (5e6 B) of gradients per layer. Ring AllReduce
  // of n bytes on p = 2 ranks: 2(p-1) alpha + 2(p-1)/p n beta = 2 us + n x 1e-11 s.
  //
  // Buckets of 2 layers (cap 1e7 B), n = 1e7 B: each AllReduce takes 2 + 100 = 102 us.
  //   forwards 0-200 us; bwd3 200-300, bwd2 300-400: bucket {3, 2} ready, AllReduce 400-502
  //   under bwd1 (400-500) and bwd0 (500-600): nothing exposed;
  //   bucket {1, 0} ready at 600 (the first AllReduce is done), AllReduce 600-702, exposed.
  //   Finish 702 us, exposed communication 102 us.
  // One bucket (cap never reached), n = 2e7 B: AllReduce 600 -> 600 + 2 + 200 = 802 us, all
  //   of it exposed: 202 us.
  // Compute is 4 x 50 + 4 x 100 = 600 us either way.
  const Topology topology = ring(2, 100e9, ps_from_us(1));
  DdpShape s;
  s.ranks = 2;
  s.layers = 4;
  s.forward_ps = ps_from_us(50);
  s.backward_ps = ps_from_us(100);
  s.layer_bytes = 5'000'000;
  s.bucket_bytes = 10'000'000;
  const ReplayResult bucketed = replay_workload(generate_ddp(s), topology, ring_allreduce());
  s.bucket_bytes = 1'000'000'000;
  const ReplayResult at_end = replay_workload(generate_ddp(s), topology, ring_allreduce());
  EXPECT_EQ(bucketed.total_ps, ps_from_us(702));
  EXPECT_EQ(at_end.total_ps, ps_from_us(802));
  for (Rank r = 0; r < 2; ++r) {
    EXPECT_EQ(bucketed.ranks[r].compute_ps, ps_from_us(600));
    EXPECT_EQ(bucketed.ranks[r].exposed_comm_ps, ps_from_us(102));
    EXPECT_EQ(at_end.ranks[r].exposed_comm_ps, ps_from_us(202));
  }
}

// ---- pipeline ----------------------------------------------------------------------------

TEST(GeneratePipeline, ConvertsTheDeviceProgram) {
  // 1F1B, 2 stages, 2 micro-batches. Stage 0's program: F0, call{send act 0}, F1,
  // call{send act 1, recv grad 0}, B0, call{recv grad 1}, B1 (stage 0 sends no gradient).
  // Its nodes: 1 F0, 2 send act 0, 3 F1, 4 send act 1, 5 recv grad 0, 6 B0, 7 recv grad 1, 8 B1.
  PipelineShape s = pipeline_shape(PipelineSchedule::k1F1B, ps_from_us(100), ps_from_us(200), 64);
  s.stages = 2;
  s.microbatches = 2;
  s.forward_ps.resize(2);
  s.backward_ps.resize(2);
  const Workload w = generate_pipeline(s);
  ASSERT_EQ(w.rank_count(), 2u);
  const std::vector<WorkloadNode>& n = w.ranks[0].nodes;
  ASSERT_EQ(n.size(), 8u);
  EXPECT_EQ(n[0].name, "F0");
  EXPECT_EQ(n[1].kind, NodeKind::kSend);
  EXPECT_EQ(n[1].peer, Rank{1});
  EXPECT_EQ(n[1].bytes, 64u);
  EXPECT_EQ(n[1].deps, std::vector<TraceNodeId>{1});  // after the compute that made it
  EXPECT_EQ(n[2].name, "F1");
  EXPECT_EQ(n[2].deps, std::vector<TraceNodeId>{1});  // the send does not block
  EXPECT_EQ(n[4].kind, NodeKind::kRecv);
  EXPECT_EQ(n[4].deps, std::vector<TraceNodeId>{3});  // posted when the device gets there
  EXPECT_EQ(n[5].name, "B0");
  EXPECT_EQ(n[5].deps, std::vector<TraceNodeId>{5});  // waits for its input
  // The receive and the send it matches carry the same tag.
  const std::vector<WorkloadNode>& last = w.ranks[1].nodes;
  const auto send = std::find_if(last.begin(), last.end(), [&](const WorkloadNode& x) {
    return x.kind == NodeKind::kSend && x.name == "send " + n[4].name.substr(5);
  });
  ASSERT_NE(send, last.end());
  EXPECT_EQ(send->tag, n[4].tag);
}

TEST(GeneratePipeline, ReplaysAsSimulatePipeline) {
  // The conversion follows simulate_pipeline's overlapped mode with o = 0, so the replay takes
  // exactly as long, with free communication (where 1F1B and GPipe take the closed form
  // (m + p - 1)(tf + tb) = 11 x 300 us) and with real transfers (24 MB over 450 GB/s links of
  // 250 ns, where P2P waits and contention make the times differ from the closed form).
  struct Case {
    Bytes activation;
    TimePs latency;
  };
  for (const Case c : {Case{0, 0}, Case{24'000'000, ps_from_ns(250)}}) {
    const Topology topology = ring(4, 450e9, c.latency);
    for (const PipelineSchedule schedule :
         {PipelineSchedule::kGPipe, PipelineSchedule::k1F1B, PipelineSchedule::kInterleaved}) {
      SCOPED_TRACE(std::string(schedule_name(schedule)) + ", activation " + std::to_string(c.activation));
      const PipelineShape shape = pipeline_shape(schedule, ps_from_us(100), ps_from_us(200), c.activation);
      PipelineRunOptions options;
      options.mode = P2PMode::kOverlapped;
      const PipelineResult expected = simulate_pipeline(topology, make_pipeline_programs(shape), options);
      const ReplayResult replayed = replay_workload(generate_pipeline(shape), topology, {});
      EXPECT_EQ(replayed.total_ps, expected.step_ps);
      for (std::uint32_t d = 0; d < 4; ++d) {
        EXPECT_EQ(replayed.ranks[d].finish_ps, expected.devices[d].finish_ps) << "stage " << d;
        EXPECT_EQ(replayed.ranks[d].compute_ps, expected.devices[d].busy_ps) << "stage " << d;
      }
      if (c.activation == 0 && schedule != PipelineSchedule::kInterleaved) {
        EXPECT_EQ(replayed.total_ps, ps_from_us(3300));
      }
    }
  }
}

// ---- data + pipeline -----------------------------------------------------------------------

TEST(GenerateDdpPipeline, StagesAllReduceAcrossReplicas) {
  // D = 2 replicas of a 1F1B pipeline of P = 2 stages, m = 2 micro-batches, forward 100 us,
  // backward 200 us, free P2P (0 B, no latency), on a 4-NPU ring of 100 GB/s.
  // Stage 1 runs F0 100-200, B0 200-400, F1 400-500, B1 500-700; stage 0 runs F0 0-100,
  // F1 100-200, B0 400-600, B1 700-900. Each stage's 1e7 B gradients are AllReduced by a ring
  // of 2 (ranks s and 2 + s, two hops apart): 2 steps of 5e6 B at 1e11 B/s = 100 us. So
  // stage 1 (ranks 1, 3) finishes at 700 + 100 + 50 (optimizer) = 850 us, stage 0 (ranks 0,
  // 2) at 900 + 100 + 50 = 1050 us; the two AllReduces (700-800, 900-1000) do not meet.
  DdpPipelineShape s;
  s.replicas = 2;
  s.pipeline = pipeline_shape(PipelineSchedule::k1F1B, ps_from_us(100), ps_from_us(200), 0);
  s.pipeline.stages = 2;
  s.pipeline.microbatches = 2;
  s.pipeline.forward_ps.resize(2);
  s.pipeline.backward_ps.resize(2);
  s.gradient_bytes = 10'000'000;
  s.optimizer_ps = ps_from_us(50);
  const Workload w = generate_ddp_pipeline(s);
  ASSERT_EQ(w.rank_count(), 4u);
  EXPECT_EQ(w.groups, (std::vector<CommGroup>{{"stage0", {0, 2}}, {"stage1", {1, 3}}}));
  // Replica 1's stage 0 (rank 2) sends to its own stage 1 (rank 3).
  for (const WorkloadNode& n : w.ranks[2].nodes) {
    if (n.kind == NodeKind::kSend || n.kind == NodeKind::kRecv) {
      EXPECT_EQ(n.peer, Rank{3}) << n.name;
    }
  }
  const ReplayResult r = replay_workload(w, ring(4, 100e9, 0), {});
  EXPECT_EQ(r.total_ps, ps_from_us(1050));
  EXPECT_EQ(r.ranks[0].finish_ps, ps_from_us(1050));
  EXPECT_EQ(r.ranks[2].finish_ps, ps_from_us(1050));
  EXPECT_EQ(r.ranks[1].finish_ps, ps_from_us(850));
  EXPECT_EQ(r.ranks[3].finish_ps, ps_from_us(850));

  s.replicas = 1;
  EXPECT_CONTAINS(error_of([&] { generate_ddp_pipeline(s); }), "replicas must be at least 2, got 1");
  s.replicas = 2;
  s.gradient_bytes = 0;
  EXPECT_CONTAINS(error_of([&] { generate_ddp_pipeline(s); }), "gradient size of a stage must not be 0");
}

TEST(GenerateDdpPipeline, GroupNamesSortAsStages) {
  DdpPipelineShape s;
  s.pipeline = pipeline_shape(PipelineSchedule::kGPipe, ps_from_us(1), ps_from_us(2), 8);
  s.pipeline.stages = 12;
  s.pipeline.forward_ps.assign(12, ps_from_us(1));
  s.pipeline.backward_ps.assign(12, ps_from_us(2));
  s.gradient_bytes = 1024;
  const Workload w = generate_ddp_pipeline(s);
  ASSERT_EQ(w.groups.size(), 12u);
  EXPECT_EQ(w.groups[0].name, "stage00");
  EXPECT_EQ(w.groups[11].name, "stage11");
  EXPECT_TRUE(std::is_sorted(w.groups.begin(), w.groups.end(),
                             [](const CommGroup& a, const CommGroup& b) { return a.name < b.name; }));
}

// ---- round trip ----------------------------------------------------------------------------

TEST(GeneratorRoundTrip, EveryGeneratorInEveryFormat) {
  const Topology node = build_topology(default_topology_config());
  expect_round_trip(generate_collective({CollectiveKind::kAllToAll, 8, 1 << 20, std::nullopt}), "alltoall", node);
  for (const PipelineSchedule schedule : {PipelineSchedule::k1F1B, PipelineSchedule::kInterleaved}) {
    expect_round_trip(generate_pipeline(pipeline_shape(schedule, ps_from_us(1000), ps_from_us(2000), 24'000'000)),
                      "pipeline-" + std::string(schedule_name(schedule)), node);
  }
  DdpShape ddp;
  ddp.layers = 10;
  ddp.forward_ps = ps_from_us(300);
  ddp.backward_ps = ps_from_us(600);
  ddp.layer_bytes = 10 << 20;
  ddp.optimizer_ps = ps_from_us(100);
  expect_round_trip(generate_ddp(ddp), "ddp", node, ring_allreduce());
  DdpPipelineShape both;
  both.pipeline = pipeline_shape(PipelineSchedule::k1F1B, ps_from_us(1000), ps_from_us(2000), 24'000'000);
  both.gradient_bytes = 256 << 20;
  expect_round_trip(generate_ddp_pipeline(both), "ddp-pipeline", node);
}

// ---- Chakra writer -------------------------------------------------------------------------

TEST(ChakraWriter, RefusesWhatChakraCannotHold) {
  DdpShape s;
  s.ranks = 2;
  s.layers = 1;
  s.forward_ps = ps_from_ns(1500);
  s.layer_bytes = 1024;
  EXPECT_CONTAINS(error_of([&] { serialize_chakra_rank(generate_ddp(s), 0); }),
                  ": rank 0: node 1 (fwd0): cannot be written as Chakra: compute time 1500000 ps is not a "
                  "whole number of microseconds");
  s.forward_ps = ps_from_us(1);
  s.algorithm = AlgorithmKind::kRing;
  EXPECT_CONTAINS(error_of([&] { serialize_chakra_rank(generate_ddp(s), 1); }),
                  "rank 1: node 3 (allreduce bucket 0 (layer 0)): cannot be written as Chakra: collective "
                  "algorithm 'ring'");
  Workload p2p = generate_pipeline(pipeline_shape(PipelineSchedule::kGPipe, ps_from_us(1), ps_from_us(1), 8));
  p2p.ranks[0].nodes[1].tag = std::int64_t{1} << 31;
  EXPECT_CONTAINS(error_of([&] { serialize_chakra_rank(p2p, 0); }), "comm_tag 2147483648 does not fit Chakra's int32");
  Workload unnamed = generate_collective({CollectiveKind::kAllReduce, 2, 1024, std::nullopt});
  unnamed.groups = {{"", {0, 1}}};
  EXPECT_CONTAINS(error_of([&] { comm_groups_json(unnamed); }), "group #0 has no name");
}

TEST(ChakraWriter, RefusesToLeaveAStaleRankFileBehind) {
  const Workload w = generate_collective({CollectiveKind::kAllReduce, 2, 1024, std::nullopt});
  const std::string prefix = tmp("stale");
  std::ofstream(chakra_rank_path(prefix, 2)) << "old";
  EXPECT_CONTAINS(error_of([&] { write_chakra_trace(w, prefix); }),
                  "stale.2.et: exists and would be read as rank 2 of this trace of 2 ranks");
  std::filesystem::remove(chakra_rank_path(prefix, 2));
  EXPECT_EQ(write_chakra_trace(w, prefix).rank_files.back(), prefix + ".1.et");
  EXPECT_CONTAINS(error_of([&] { write_chakra_trace(w, tmp("no-such-dir/x")); }),
                  "no-such-dir/x.0.et: No such file or directory");
}

TEST(ChakraWriter, AFailedWriteRemovesEveryFileOfTheTrace) {
  Workload w = generate_collective({CollectiveKind::kAllReduce, 2, 1024, std::nullopt});
  w.groups = {{"all", {0, 1}}};
  const std::string prefix = tmp("unwritable-groups");
  // The group file, written last, cannot be: a directory stands in its place.
  std::filesystem::remove_all(chakra_groups_path(prefix));
  std::filesystem::create_directory(chakra_groups_path(prefix));
  EXPECT_CONTAINS(error_of([&] { write_chakra_trace(w, prefix); }),
                  "cannot write " + chakra_groups_path(prefix) + ": Is a directory");
  EXPECT_FALSE(std::filesystem::exists(chakra_rank_path(prefix, 0)));
  EXPECT_FALSE(std::filesystem::exists(chakra_rank_path(prefix, 1)));
  std::filesystem::remove(chakra_groups_path(prefix));
}

TEST(ChakraWriter, GroupFileIsTheJsonTheReaderTakes) {
  Workload w = generate_collective({CollectiveKind::kAllReduce, 3, 1024, std::nullopt});
  w.groups = {{"a \"quoted\" name", {2, 0}}, {"b", {1}}};
  EXPECT_EQ(comm_groups_json(w), "{\n  \"a \\\"quoted\\\" name\": [2, 0],\n  \"b\": [1]\n}\n");
  EXPECT_EQ(parse_comm_groups_json(comm_groups_json(w), "groups.json").groups, w.groups);
}

}  // namespace
}  // namespace commsim
