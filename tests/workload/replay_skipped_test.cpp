// Replay of skipped nodes (Chakra METADATA nodes, memory nodes without a duration): they
// pass their dependencies on and never run, so a trace replays exactly as it would
// without them, and no node runs twice.

#include <gtest/gtest.h>

#include "chakra_test_files.h"
#include "topology/spec_file.h"
#include "workload/chakra_reader.h"
#include "workload/chakra_writer.h"
#include "workload/replay.h"
#include "same_replay.h"
#include "workload/trace_file.h"

namespace commsim {
namespace {

using testing::expect_same_replay;

Workload text_trace(const std::string& text) {
  return parse_trace(text, TraceEncoding::kText, "t.textproto");
}

ReplayResult replay(const Workload& w) {
  return replay_workload(w, build_topology(default_topology_config()), {});
}

TEST(ReplaySkipped, DependentListedAfterASkippedRootRunsOnce) {
  // The skipped node used to finish inside the start-up loop and release node 55, which the
  // loop then found ready again: two 5 us computes queued per pass, growing without end.
  const Workload w =
      text_trace("ranks { nodes { id: 54 skipped { } } nodes { id: 55 deps: 54 compute { duration: \"5us\" } } }");
  const ReplayResult r = replay(w);
  EXPECT_EQ(r.total_ps, ps_from_us(5));
  EXPECT_EQ(r.ranks[0].compute_ps, ps_from_us(5));
  ASSERT_EQ(r.critical_path.size(), 1u);
  EXPECT_EQ(r.critical_path[0].index, 1u);
}

// Rank 0 computes 2 us and sends 1 MiB to rank 1, which computes 1 us, receives and
// computes 1 us more; `through` is what the send and the receive depend on.
std::string send_recv_trace(const std::string& skipped0, const std::string& skipped1,
                            const std::string& through) {
  return "ranks {\n"
         "  nodes { id: 1 compute { duration: \"2us\" } }\n" + skipped0 +
         "  nodes { id: 3 deps: " + through + " send { peer: 1 size: \"1M\" tag: 7 } }\n"
         "}\n"
         "ranks {\n"
         "  nodes { id: 1 compute { duration: \"1us\" } }\n" + skipped1 +
         "  nodes { id: 3 deps: " + through + " recv { peer: 0 size: \"1M\" tag: 7 } }\n"
         "  nodes { id: 4 deps: 3 compute { duration: \"1us\" } }\n"
         "}\n";
}

TEST(ReplaySkipped, SkippedNodeBetweenSendAndReceiveDependencies) {
  // Used to be reported as a deadlock: the receive was posted twice and one stayed unmatched.
  const ReplayResult with = replay(text_trace(send_recv_trace(
      "  nodes { id: 2 deps: 1 skipped { origin: \"METADATA_NODE\" } }\n",
      "  nodes { id: 2 deps: 1 skipped { origin: \"MEM_LOAD_NODE\" } }\n", "2")));
  const ReplayResult without = replay(text_trace(send_recv_trace("", "", "1")));
  expect_same_replay(with, without);
  // The send leaves at 2 us and takes alpha + 1 MiB / 450 GB/s on the H100 node.
  EXPECT_GT(without.total_ps, ps_from_us(3));
  EXPECT_EQ(with.ranks[1].compute_ps, ps_from_us(2));
}

TEST(ReplaySkipped, ChainsOfSkippedNodesPassDependenciesOn) {
  // compute 3 us -> skipped -> skipped -> compute 4 us: 7 us. Listed in reverse file order,
  // so each node comes before what it depends on.
  const Workload chain = text_trace(
      "ranks { nodes { id: 4 deps: 3 compute { duration: \"4us\" } } nodes { id: 3 deps: 2 skipped { } }"
      " nodes { id: 2 deps: 1 skipped { } } nodes { id: 1 compute { duration: \"3us\" } } }");
  EXPECT_EQ(replay(chain).total_ps, ps_from_us(7));
  EXPECT_EQ(replay(chain).ranks[0].compute_ps, ps_from_us(7));
  // A chain of skipped nodes from no dependency at all leaves its end ready at once.
  const Workload roots = text_trace(
      "ranks { nodes { id: 1 skipped { } } nodes { id: 2 deps: 1 skipped { } }"
      " nodes { id: 3 deps: [1, 2] skipped { } } nodes { id: 4 deps: 3 compute { duration: \"5us\" } } }");
  EXPECT_EQ(replay(roots).total_ps, ps_from_us(5));
}

TEST(ReplaySkipped, LongChainOfSkippedNodesIsResolvedWithoutRecursion) {
  Workload w{"chain", {{"chain", {}}}, {}};
  constexpr TraceNodeId kChain = 100'000;
  for (TraceNodeId id = 1; id <= kChain; ++id) {
    WorkloadNode n;
    n.id = id;
    n.kind = NodeKind::kSkipped;
    if (id > 1) n.deps.push_back(id - 1);
    w.ranks[0].nodes.push_back(n);
  }
  WorkloadNode last;
  last.id = kChain + 1;
  last.duration_ps = ps_from_us(5);
  last.deps.push_back(kChain);
  w.ranks[0].nodes.push_back(last);
  validate_workload(w);
  EXPECT_EQ(replay(w).total_ps, ps_from_us(5));
}

TEST(ReplaySkipped, SkippedNodeWaitsForEveryComputeItDependsOn) {
  // Computes of 2 us and 3 us run one after the other (one compute at a time): the skipped
  // node joining them passes on both, so the send leaves at 5 us, behind the second.
  const std::string rank1 = "ranks { nodes { id: 1 recv { peer: 0 size: \"1M\" tag: 7 } } }";
  const std::string computes =
      "ranks { nodes { id: 1 compute { duration: \"2us\" } } nodes { id: 2 compute { duration: \"3us\" } }";
  const ReplayResult with = replay(text_trace(
      computes + " nodes { id: 3 deps: [1, 2] skipped { } } nodes { id: 4 deps: 3 send { peer: 1 size: \"1M\" tag: 7 } } }" +
      rank1));
  const ReplayResult without = replay(text_trace(
      computes + " nodes { id: 4 deps: [2, 1] send { peer: 1 size: \"1M\" tag: 7 } } }" + rank1));
  expect_same_replay(with, without);
  // Compute 1, compute 2 (which waited for it), the send (ends with its receive, and is
  // found first).
  ASSERT_EQ(with.critical_path.size(), 3u);
  EXPECT_EQ(with.critical_path[1].index, 1u);
  EXPECT_EQ(with.critical_path[2].start_ps, ps_from_us(5));
}

TEST(ReplaySkipped, ChainOfOneMemberCollectivesWithSkippedNodesBetween) {
  // A collective of a one-rank group has nothing to send and finishes at once: 10,000 of
  // them, each behind a skipped node, must neither recurse per node nor run one twice.
  Workload w{"solo", {{"solo", {}}}, {{"self", {0}}}};
  TraceNodeId id = 1;
  for (int i = 0; i < 10'000; ++i, id += 2) {
    WorkloadNode skipped;
    skipped.id = id;
    skipped.kind = NodeKind::kSkipped;
    if (id > 1) skipped.deps.push_back(id - 1);
    WorkloadNode allreduce;
    allreduce.id = id + 1;
    allreduce.kind = NodeKind::kCollective;
    allreduce.bytes = 1024;
    allreduce.group = 0;
    allreduce.deps.push_back(id);
    w.ranks[0].nodes.push_back(skipped);
    w.ranks[0].nodes.push_back(allreduce);
  }
  WorkloadNode compute;
  compute.id = id;
  compute.duration_ps = ps_from_us(5);
  compute.deps.push_back(id - 1);
  w.ranks[0].nodes.push_back(compute);
  validate_workload(w);
  EXPECT_EQ(replay(w).total_ps, ps_from_us(5));
}

// A Chakra rank given as real nodes with their dependencies. With `metadata`, every real
// node instead depends on a METADATA node, which depends on a second one (a chain), which
// depends on the real dependencies and on a METADATA root; a METADATA sink waits for every
// real node. The METADATA nodes are listed after the real nodes that depend on them.
std::string chakra_rank(std::vector<ChakraProtoMsg::Node> real, bool metadata) {
  if (!metadata) return testing::chakra_file(real);
  std::vector<ChakraProtoMsg::Node> nodes{testing::chakra_node(9000, ChakraProtoMsg::METADATA_NODE)};
  std::vector<ChakraProtoMsg::Node> after;
  auto sink = testing::chakra_node(9001, ChakraProtoMsg::METADATA_NODE);
  for (ChakraProtoMsg::Node& node : real) {
    const std::vector<std::uint64_t> deps(node.data_deps().begin(), node.data_deps().end());
    auto inner = testing::chakra_node(node.id() + 2000, ChakraProtoMsg::METADATA_NODE, deps);
    inner.add_ctrl_deps(9000);
    after.push_back(inner);
    after.push_back(testing::chakra_node(node.id() + 1000, ChakraProtoMsg::METADATA_NODE, {node.id() + 2000}));
    node.clear_data_deps();
    node.add_ctrl_deps(node.id() + 1000);
    sink.add_data_deps(node.id());
    nodes.push_back(node);
  }
  nodes.insert(nodes.end(), after.begin(), after.end());
  nodes.push_back(sink);
  return testing::chakra_file(nodes);
}

std::vector<ChakraFile> chakra_two_ranks(bool metadata) {
  using testing::comp_node;
  auto send = testing::p2p_node(2, true, 0, 1, 1 << 20, 3);
  send.add_data_deps(1);
  auto allreduce0 = testing::coll_node(4, ChakraProtoMsg::ALL_REDUCE, 1 << 20);
  allreduce0.add_data_deps(3);
  auto allreduce1 = testing::coll_node(3, ChakraProtoMsg::ALL_REDUCE, 1 << 20);
  allreduce1.add_data_deps(2);
  return {{"t.0.et", chakra_rank({comp_node(1, 10), send, comp_node(3, 5, {1}), allreduce0}, metadata)},
          {"t.1.et", chakra_rank({testing::p2p_node(1, false, 0, 1, 1 << 20, 3), comp_node(2, 10, {1}), allreduce1},
                                 metadata)}};
}

TEST(ReplaySkipped, ChakraTraceFullOfMetadataNodesReplaysAsWithout) {
  const Workload plain = parse_chakra_trace(chakra_two_ranks(false), std::nullopt, "plain");
  const Workload full = parse_chakra_trace(chakra_two_ranks(true), std::nullopt, "metadata");
  // Per rank: a root and a sink, and two per real node (4 on rank 0, 3 on rank 1).
  EXPECT_EQ(count_nodes(plain, NodeKind::kSkipped), 0u);
  EXPECT_EQ(count_nodes(full, NodeKind::kSkipped), 2u + 8u + 2u + 6u);
  const ReplayResult a = replay(plain);
  const ReplayResult b = replay(full);
  expect_same_replay(a, b);
  // Rank 1 waits for the 1 MiB from rank 0 (sent at 10 us), computes 10 us, then the
  // AllReduce: well past 20 us.
  EXPECT_GT(a.total_ps, ps_from_us(20));
  // The skipped nodes round-trip through both writers, and replay the same again.
  const Workload again = parse_trace(serialize_trace(full, TraceEncoding::kBinary), TraceEncoding::kBinary, "t.pb");
  EXPECT_EQ(count_nodes(again, NodeKind::kSkipped), count_nodes(full, NodeKind::kSkipped));
  expect_same_replay(replay(again), b);
  const Workload chakra = parse_chakra_trace(
      {{"w.0.et", serialize_chakra_rank(full, 0)}, {"w.1.et", serialize_chakra_rank(full, 1)}}, std::nullopt, "w");
  EXPECT_EQ(count_nodes(chakra, NodeKind::kSkipped), count_nodes(full, NodeKind::kSkipped));
  expect_same_replay(replay(chakra), b);
}

TEST(ReplaySkipped, TimelineLeavesSkippedNodesOut) {
  const Workload w = parse_chakra_trace(chakra_two_ranks(true), std::nullopt, "metadata");
  ReplayOptions options;
  options.record_timeline = true;
  const ReplayResult r = replay_workload(w, build_topology(default_topology_config()), options);
  EXPECT_EQ(r.timeline.size(), 7u);
  for (const ReplayedNode& n : r.timeline) {
    EXPECT_NE(w.ranks[n.rank].nodes[n.index].kind, NodeKind::kSkipped);
  }
}

}  // namespace
}  // namespace commsim
