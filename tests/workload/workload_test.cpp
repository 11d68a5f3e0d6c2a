#include "workload/workload.h"

#include <gtest/gtest.h>

#include "../expect_contains.h"
#include "chakra_test_files.h"
#include "workload/chakra_reader.h"
#include "workload/trace_file.h"

namespace commsim {
namespace {

using testing::error_of;

Workload pipeline() {
  return load_chakra_trace(testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe");
}

TEST(WorkloadTopologyCheck, EnoughNpusPass) {
  const Workload w = pipeline();
  EXPECT_NO_THROW(check_against_topology(w, 4));
  EXPECT_NO_THROW(check_against_topology(w, 64));  // ranks are NPUs 0..3 of a larger system
}

TEST(WorkloadTopologyCheck, SendBeyondTheTopologyIsNamed) {
  // On 3 NPUs, stage 2's first send (node 2, send_m0) goes to rank 3.
  EXPECT_CONTAINS(error_of([] { check_against_topology(pipeline(), 3); }),
                  "pipe.2.et: rank 2: node 2 (send_m0): sends to rank 3, beyond the topology's "
                  "3 NPUs (the trace has 4 ranks)");
}

TEST(WorkloadTopologyCheck, ReceiveCollectiveAndRankBeyondTheTopologyAreNamed) {
  const Workload recv =
      parse_trace("ranks { nodes { id: 1 recv { peer: 1 size: \"1\" } } } ranks {}",
                  TraceEncoding::kText, "r.textproto");
  EXPECT_CONTAINS(error_of([&] { check_against_topology(recv, 1); }),
                  "r.textproto: rank 0: node 1: receives from rank 1, beyond the topology's 1 "
                  "NPUs (the trace has 2 ranks)");
  const Workload all = load_chakra_trace(testing::kChakraSamples + "generator/ALL_REDUCE");
  EXPECT_CONTAINS(error_of([&] { check_against_topology(all, 4); }),
                  "ALL_REDUCE.0.et: rank 0: node 64 (ALL_REDUCE): collective among ranks "
                  "including 4, beyond the topology's 4 NPUs (the trace has 8 ranks)");
  const Workload idle = parse_trace("ranks {} ranks {}", TraceEncoding::kText, "i.textproto");
  EXPECT_CONTAINS(error_of([&] { check_against_topology(idle, 1); }),
                  "i.textproto: rank 1, beyond the topology's 1 NPUs (the trace has 2 ranks)");
}

TEST(WorkloadValidation, EmptyWorkloadIsAnError) {
  Workload w;
  w.name = "nothing";
  EXPECT_CONTAINS(error_of([&] { validate_workload(w); }), "nothing: the trace has no ranks");
}

TEST(WorkloadValidation, LongChainIsNotACycle) {
  // 200,000 nodes each waiting for the previous: the search must neither recurse per node
  // nor report a cycle.
  Workload w;
  w.ranks.push_back({"chain", {}});
  for (TraceNodeId id = 0; id < 200'000; ++id) {
    WorkloadNode node;
    node.id = id;
    if (id > 0) node.deps = {id - 1};
    w.ranks[0].nodes.push_back(node);
  }
  EXPECT_NO_THROW(validate_workload(w));
  w.ranks[0].nodes[0].deps = {199'999};
  const std::string error = error_of([&] { validate_workload(w); });
  EXPECT_CONTAINS(error,
                  "chain: rank 0: dependency cycle: node 0 waits for 199999, which waits "
                  "for 199998, which waits for 199997");
  EXPECT_CONTAINS(error, "which waits for ... 0 (a cycle of 200000 nodes)");
  EXPECT_LT(error.size(), 400u);
}

TEST(WorkloadValidation, NegativeDurationIsAnError) {
  Workload w;
  WorkloadNode node;
  node.id = 3;
  node.duration_ps = -1;
  w.ranks.push_back({"neg", {node}});
  EXPECT_CONTAINS(error_of([&] { validate_workload(w); }),
                  "neg: rank 0: node 3: negative duration -1 ps");
}

TEST(WorkloadValidation, BarrierWithASizeIsAnError) {
  Workload w;
  WorkloadNode node;
  node.id = 5;
  node.kind = NodeKind::kCollective;
  node.collective = CollectiveKind::kBarrier;
  node.bytes = 64;
  w.ranks.push_back({"b", {node}});
  EXPECT_CONTAINS(error_of([&] { validate_workload(w); }),
                  "b: rank 0: node 5: a barrier of 64 B: a barrier moves no data");
  w.ranks[0].nodes[0].bytes = 0;
  EXPECT_NO_THROW(validate_workload(w));
}

TEST(Workload, SimulatedDependenciesPassThroughSkippedNodes) {
  // Positions: 0 compute c1; 1 skipped s2 <- c1; 2 skipped s3 <- s2, c1; 3 compute c4 <- s3;
  // 4 compute c5 <- s3, c1, c4 (c1 twice through s3: once); 5 skipped s6 (a root);
  // 6 compute c7 <- s6, s3 (s6 passes on nothing).
  const Workload w = parse_trace(
      "ranks { nodes { id: 1 compute { duration: \"1us\" } } nodes { id: 2 deps: 1 skipped {} }"
      " nodes { id: 3 deps: [2, 1] skipped {} } nodes { id: 4 deps: 3 compute { duration: \"1us\" } }"
      " nodes { id: 5 deps: [3, 1, 4] compute { duration: \"1us\" } } nodes { id: 6 skipped {} }"
      " nodes { id: 7 deps: [6, 3] compute { duration: \"1us\" } } }",
      TraceEncoding::kText, "s.textproto");
  using Deps = std::vector<std::size_t>;
  EXPECT_EQ(simulated_dependencies(w.ranks[0]),
            (std::vector<Deps>{{}, {}, {}, {0}, {0, 3}, {}, {0}}));
}

TEST(Workload, HelpersCountIndexAndName) {
  const Workload w = pipeline();
  EXPECT_EQ(count_nodes(w, NodeKind::kCompute), 32u);
  EXPECT_EQ(count_nodes(w, NodeKind::kSend), 24u);
  EXPECT_EQ(count_nodes(w, NodeKind::kRecv), 24u);
  EXPECT_EQ(count_nodes(w, NodeKind::kSkipped), 0u);
  const auto index = index_by_id(w.ranks[1]);
  EXPECT_EQ(index.size(), w.ranks[1].nodes.size());
  for (const auto& [id, i] : index) EXPECT_EQ(w.ranks[1].nodes[i].id, id);
  EXPECT_EQ(node_context(w, 1, w.ranks[1].nodes[0]).substr(w.ranks[1].source.size()),
            ": rank 1: node 0 (recv_m0)");
  EXPECT_EQ(node_kind_name(NodeKind::kSkipped), "skipped");
}

}  // namespace
}  // namespace commsim
