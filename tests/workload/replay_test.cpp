// Trace replay: the Chakra samples against their reference numbers and against
// `commsim collective`, deadlocks found rather than hung on, and a hand-derived case.

#include "workload/replay.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "../expect_contains.h"
#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "study/collective_study.h"
#include "topology/spec_file.h"
#include "workload/chakra_reader.h"
#include "workload/generators.h"

namespace commsim {
namespace {

const std::string kSamples = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/chakra-samples/";

Topology ring(std::uint32_t npus, BandwidthBps bandwidth, TimePs latency) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = npus;
  c.link = {bandwidth, latency, LinkKind::kOther, Duplex::kFull};
  return build_topology(c);
}

std::string deadlock_of(const Workload& w, const Topology& t) {
  try {
    replay_workload(w, t, {});
  } catch (const DeadlockError& e) {
    return e.what();
  }
  return "no deadlock";
}

TEST(Replay, ChakraPipelineSampleMatchesItsReference) {
  // 4 stages, 8 micro-batches of 100 us, 1 MiB between stages over 50 * 2^30 B/s, 500 ns
  // links: (8 + 4 - 1) x 100 us + 3 x (500 ns + 2^20 B / (50 * 2^30 B/s)) = 1,160,093.75 ns.
  const Workload w = load_chakra_trace(kSamples + "pipeline-4stages-8micro-1MiB/pipe");
  const ReplayResult r = replay_workload(w, ring(4, 50.0 * (1 << 30), ps_from_ns(500)), {});
  EXPECT_EQ(r.total_ps, 1'160'093'750);
  // The critical path runs through every forward of stage 0, then down the pipeline.
  ASSERT_FALSE(r.critical_path.empty());
  EXPECT_EQ(r.critical_path.front().rank, 0u);
  EXPECT_EQ(r.critical_path.back().rank, 3u);
  EXPECT_EQ(r.critical_path.back().end_ps, r.total_ps);
}

TEST(Replay, ChakraCollectiveSamplesTakeWhatCommsimCollectiveSays) {
  const Topology node = build_topology(default_topology_config());
  for (const char* sample : {"ALL_REDUCE", "ALL_GATHER", "REDUCE_SCATTER", "ALL_TO_ALL", "BROADCAST", "BARRIER"}) {
    SCOPED_TRACE(sample);
    const Workload w = load_chakra_trace(kSamples + "generator/" + sample);
    ASSERT_EQ(w.rank_count(), 8u);
    const WorkloadNode* collective = nullptr;
    for (const WorkloadNode& n : w.ranks[0].nodes) {
      if (n.kind == NodeKind::kCollective) collective = &n;
    }
    ASSERT_NE(collective, nullptr);
    const AlgorithmKind algorithm = default_algorithm(collective->collective, node, true);
    const TimePs expected =
        simulate_collective(node, collective->collective, algorithm, collective->bytes, {}).time_ps;
    EXPECT_EQ(replay_workload(w, node, {}).total_ps, expected);
  }
  const Workload ring8 = load_chakra_trace(kSamples + "allreduce-ring8-1MiB/all_reduce");
  const Topology r8 = ring(8, 50e9, ps_from_ns(500));
  ReplayOptions ring_algorithm;
  ring_algorithm.algorithms[CollectiveKind::kAllReduce] = AlgorithmKind::kRing;
  EXPECT_EQ(replay_workload(ring8, r8, ring_algorithm).total_ps,
            simulate_collective(r8, CollectiveKind::kAllReduce, AlgorithmKind::kRing, 1 << 20, {}).time_ps);
}

TEST(Replay, ALibraryPipelinesReplayedCollectivesAsCommsimCollectiveDoes) {
  // Under NCCL's profile a Broadcast chain runs in as many chunks as the closed form says
  // pay, in a replay as in `commsim collective`: the same time to the picosecond.
  const Topology node = build_topology(default_topology_config());
  const Bytes size = Bytes{256} << 20;
  const Workload w = generate_collective({CollectiveKind::kBroadcast, 8, size, AlgorithmKind::kRing});
  ReplayOptions options;
  options.library = node.library();
  options.protocol = Protocol::kSimple;
  CollectiveStudyOptions study;
  study.library = node.library();
  study.protocol = Protocol::kSimple;
  study.pipeline_as_library = true;
  const CollectivePoint point = run_collective_point(node, CollectiveKind::kBroadcast, AlgorithmKind::kRing, size, study);
  EXPECT_GT(point.chunks, 1u);
  EXPECT_EQ(replay_workload(w, node, options).total_ps, point.sim_ps);
  // The ideal library replays one piece, as before.
  EXPECT_EQ(replay_workload(w, node, {}).total_ps,
            simulate_collective(node, CollectiveKind::kBroadcast, AlgorithmKind::kRing, size, {}).time_ps);
}

TEST(Replay, ALibraryRunsNcclsChoiceOnItsChannelsAndTreesAsCommsimCollectiveDoes) {
  // An AllReduce of every rank on 4 nodes x 4 GPUs under NCCL's profile, with no algorithm
  // asked for: the replay runs what `commsim collective` picks (NCCL's tree, chained in
  // each node, at 64 KiB; 4 rail-aligned rings at 64 MiB, where on 2 nodes the tree would
  // still win), on the same channels, tree layout, protocol and chunks: the same time to the
  // picosecond.
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 4;
  c.gpus_per_node = 4;
  const Topology cluster = build_topology(c);
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  ReplayOptions options;
  options.library = nccl;
  CollectiveStudyOptions study;
  study.library = nccl;
  study.run.channels = default_channels(cluster, nccl);
  study.pipeline_as_library = true;
  for (const auto& [size, algorithm] : {std::pair{Bytes{64} << 10, AlgorithmKind::kTree},
                                        std::pair{Bytes{64} << 20, AlgorithmKind::kRing}}) {
    const CollectivePoint point = run_collective_point(cluster, CollectiveKind::kAllReduce, std::nullopt, size, study);
    EXPECT_EQ(point.algorithm, algorithm) << size;
    const Workload w = generate_collective({CollectiveKind::kAllReduce, 16, size, std::nullopt});
    const ReplayResult r = replay_workload(w, cluster, options);
    ASSERT_EQ(r.collectives.size(), 1u);
    EXPECT_EQ(r.collectives[0].call.algorithm, algorithm) << size;
    EXPECT_EQ(r.total_ps, point.sim_ps) << size;
  }
}

TEST(Replay, LoneSendAndReceiveAreUnmatchedNotHung) {
  const Topology node = build_topology(default_topology_config());
  const std::string send = deadlock_of(load_chakra_trace(kSamples + "generator/one_comm_send_node"), node);
  // One line saying what, then one for each of the 8 ranks' lone sends.
  EXPECT_EQ(send.rfind("replay deadlock: 8 nodes wait on communication that never comes\n  ", 0), 0u) << send;
  EXPECT_EQ(std::count(send.begin(), send.end(), '\n'), 8) << send;
  EXPECT_CONTAINS(send, ".7.et: rank 7: node 119 (COMM_SEND_NODE): send");
  EXPECT_CONTAINS(send, "has no matching receive");
  const std::string recv = deadlock_of(load_chakra_trace(kSamples + "generator/one_comm_recv_node"), node);
  EXPECT_CONTAINS(recv, "has no matching send");
}

TEST(Replay, MetadataOnlyTraceReplaysInNoTime) {
  const Workload w = load_chakra_trace(kSamples + "generator/one_metadata_node_all_types");
  EXPECT_EQ(replay_workload(w, build_topology(default_topology_config()), {}).total_ps, 0);
}

WorkloadNode compute(TraceNodeId id, TimePs duration, std::vector<TraceNodeId> deps = {}) {
  WorkloadNode n;
  n.id = id;
  n.name = "c" + std::to_string(id);
  n.kind = NodeKind::kCompute;
  n.duration_ps = duration;
  n.deps = std::move(deps);
  return n;
}

WorkloadNode message(TraceNodeId id, NodeKind kind, Rank peer, Bytes bytes, std::vector<TraceNodeId> deps = {}) {
  WorkloadNode n;
  n.id = id;
  n.kind = kind;
  n.peer = peer;
  n.bytes = bytes;
  n.tag = 7;
  n.deps = std::move(deps);
  return n;
}

WorkloadNode collective(TraceNodeId id, CollectiveKind kind, Bytes bytes) {
  WorkloadNode n;
  n.id = id;
  n.kind = NodeKind::kCollective;
  n.collective = kind;
  n.bytes = bytes;
  return n;
}

Workload two_ranks(std::vector<WorkloadNode> rank0, std::vector<WorkloadNode> rank1) {
  Workload w;
  w.name = "test";
  w.ranks = {{"r0", std::move(rank0)}, {"r1", std::move(rank1)}};
  return w;
}

TEST(Replay, ALibraryDiscardsACollectiveOfNoElementsAsCommsimCollectiveDoes) {
  // An AllGather of 0 B between two ranks of the H100 node (a trace may hold one; nccl-tests
  // prints sizes below a float a rank so): under NCCL's profile the call takes no time, in a
  // replay as in `commsim collective`; under ideal the ring's one step of two 250 ns hops.
  const Topology node = build_topology(default_topology_config());
  const Workload w =
      two_ranks({collective(1, CollectiveKind::kAllGather, 0)}, {collective(1, CollectiveKind::kAllGather, 0)});
  ReplayOptions options;
  options.library = node.library();
  const ReplayResult r = replay_workload(w, node, options);
  EXPECT_EQ(r.total_ps, 0);
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_EQ(r.ranks[1].finish_ps, 0);
  CollectiveStudyOptions study;
  study.library = node.library();
  EXPECT_EQ(run_collective_point(node, CollectiveKind::kAllGather, AlgorithmKind::kRing, 0, study).sim_ps, 0);
  EXPECT_EQ(replay_workload(w, node, {}).total_ps, ps_from_ns(500));
}

TEST(Replay, ANodesWorkIsItsGroupsSizeForACollectiveAndOneElse) {
  Workload w;
  w.ranks.resize(6);
  w.groups.push_back({"g", {0, 1, 2}});
  WorkloadNode of_group, of_all, compute, skipped;
  of_group.kind = of_all.kind = NodeKind::kCollective;
  of_group.group = 0;
  skipped.kind = NodeKind::kSkipped;
  EXPECT_EQ(node_work(w, of_group), 3);
  EXPECT_EQ(node_work(w, of_all), 6);
  EXPECT_EQ(node_work(w, compute), 1);
  EXPECT_EQ(node_work(w, skipped), 0);
  w.ranks[0].nodes = {of_group, compute, skipped};
  w.ranks[1].nodes = {of_all};
  EXPECT_EQ(replay_work(w), 10);
}

TEST(Replay, ComputeSendReceiveByHand) {
  // Rank 0 computes 100 us then sends 1 MiB; rank 1 has posted its receive at 0 and then
  // computes 50 us; a second compute on rank 0, independent, waits for the first (one
  // compute at a time). Link: 100 GB/s (10 ps/B), 1 us.
  //   send posted at 100 us, arrives 100 + 1 + 10.48576 = 111.48576 us
  //   rank 1 computes until 161.48576 us; rank 0's second compute runs 100 -> 130 us
  //   exposed: rank 0 none (it computes while sending), rank 1 111.48576 us (waiting)
  const Workload w = two_ranks({compute(1, ps_from_us(100)), message(2, NodeKind::kSend, 1, 1 << 20, {1}),
                                compute(3, ps_from_us(30))},
                               {message(1, NodeKind::kRecv, 0, 1 << 20), compute(2, ps_from_us(50), {1})});
  ReplayOptions options;
  int finished = 0;  // the progress callback: once per node, of work 1 each
  options.on_node_done = [&](double work) {
    EXPECT_EQ(work, 1);
    ++finished;
  };
  const ReplayResult r = replay_workload(w, ring(2, 100e9, ps_from_us(1)), options);
  EXPECT_EQ(finished, 5);
  EXPECT_EQ(r.total_ps, 161'485'760);
  EXPECT_EQ(r.ranks[0].finish_ps, 130'000'000);
  EXPECT_EQ(r.ranks[0].compute_ps, ps_from_us(130));
  EXPECT_EQ(r.ranks[0].exposed_comm_ps, 0);
  EXPECT_EQ(r.ranks[1].exposed_comm_ps, 111'485'760);
  // Critical path: rank 0's compute, its send, rank 1's receive (fed by it), the compute.
  ASSERT_EQ(r.critical_path.size(), 4u);
  EXPECT_EQ(r.critical_path[0].rank, 0u);
  EXPECT_EQ(r.critical_path[1].index, 1u);
  EXPECT_EQ(r.critical_path[2].rank, 1u);
  EXPECT_EQ(r.critical_path[3].end_ps, 161'485'760);
}

TEST(Replay, LinkBusyMergesOverlappingFlowsOnlyWhenAsked) {
  // Rank 0 sends two 1 MiB messages at once (one busy interval of 2 flows on its link to
  // rank 1), then computes 1 ms and sends a third (an interval of its own, from 1 ms). A
  // flow is busy on its link for its bytes' time (10 ps/B), not its route's 1 us latency.
  const Workload w = two_ranks({message(1, NodeKind::kSend, 1, 1 << 20), message(2, NodeKind::kSend, 1, 1 << 20),
                                compute(3, ps_from_us(1000)), message(4, NodeKind::kSend, 1, 1 << 20, {3})},
                               {message(1, NodeKind::kRecv, 0, 1 << 20), message(2, NodeKind::kRecv, 0, 1 << 20),
                                message(3, NodeKind::kRecv, 0, 1 << 20)});
  const Topology t = ring(2, 100e9, ps_from_us(1));
  ReplayOptions options;
  options.record_timeline = true;
  const ReplayResult nodes_only = replay_workload(w, t, options);
  EXPECT_EQ(nodes_only.timeline.size(), 7u);
  EXPECT_TRUE(nodes_only.link_busy.empty());

  options.record_link_busy = true;
  const ReplayResult r = replay_workload(w, t, options);
  ASSERT_EQ(r.link_busy.size(), 2u);  // one link of the ring carries rank 0's messages
  EXPECT_EQ(r.link_busy[0].channel, r.link_busy[1].channel);
  EXPECT_EQ(r.link_busy[0].start_ps, 0);
  EXPECT_EQ(r.link_busy[0].end_ps, 2 * 10'485'760);  // the two share the link
  EXPECT_EQ(r.link_busy[0].flows, 2u);
  EXPECT_EQ(r.link_busy[1].start_ps, ps_from_us(1000));
  EXPECT_EQ(r.link_busy[1].end_ps, ps_from_us(1000) + 10'485'760);
  EXPECT_EQ(r.link_busy[1].flows, 1u);
}

TEST(Replay, CollectivesMustMatchAndBeReached) {
  const Topology t = ring(2, 100e9, ps_from_us(1));
  const std::string mismatch = deadlock_of(
      two_ranks({collective(1, CollectiveKind::kAllReduce, 1 << 20)}, {collective(1, CollectiveKind::kAllGather, 1 << 20)}), t);
  EXPECT_CONTAINS(mismatch, "mismatched collective: r1: rank 1: node 1");
  EXPECT_CONTAINS(mismatch, "is allgather of 1048576 B, but r0: rank 0: node 1");
  const std::string missing = deadlock_of(two_ranks({collective(1, CollectiveKind::kAllReduce, 1 << 20)}, {}), t);
  EXPECT_CONTAINS(missing, "allreduce of all ranks waits for rank(s) 1 that never reach it");
}

TEST(Replay, SendAndReceiveOfDifferentSizesIsAnError) {
  const Topology t = ring(2, 100e9, ps_from_us(1));
  const std::string mismatch =
      deadlock_of(two_ranks({compute(1, ps_from_us(3)), message(2, NodeKind::kSend, 1, 1 << 20, {1})},
                            {message(1, NodeKind::kRecv, 0, 1024)}),
                  t);
  EXPECT_CONTAINS(mismatch,
                  "mismatched send and receive (0 -> 1 tag 7): send (r0: rank 0: node 2) is 1048576 B, "
                  "but receive (r1: rank 1: node 1) is 1024 B");
}

TEST(Replay, ReceiveOfZeroBytesTakesASendOfAnySize) {
  // 0 bytes: the trace does not know the size (WorkloadNode::bytes); the send's moves.
  const Topology t = ring(2, 100e9, ps_from_us(1));
  const auto trace = [](Bytes received) {
    return two_ranks({message(1, NodeKind::kSend, 1, 1 << 20)}, {message(1, NodeKind::kRecv, 0, received)});
  };
  const TimePs sized = replay_workload(trace(1 << 20), t, {}).total_ps;
  EXPECT_EQ(sized, 11'485'760);  // 1 us + 2^20 B x 10 ps/B
  EXPECT_EQ(replay_workload(trace(0), t, {}).total_ps, sized);
}

TEST(Replay, WorkloadLargerThanTheTopologyIsAnInputError) {
  const Workload w = two_ranks({message(1, NodeKind::kSend, 1, 64)}, {message(1, NodeKind::kRecv, 0, 64)});
  EXPECT_THROW(replay_workload(w, build_topology([] {
                 TopologyConfig c;
                 c.kind = TopologyKind::kSwitch;
                 c.npus = 1;
                 return c;
               }()), {}),
               InputError);
}

}  // namespace
}  // namespace commsim
