#include "workload/chakra_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "../expect_contains.h"
#include "chakra_test_files.h"

namespace commsim {
namespace {

using testing::kChakraSamples;

const std::string kGenerator = kChakraSamples + "generator/";

// Every prefix in generator/ (the files are <prefix>.<rank>.et), found by listing the folder
// so that a sample added later is covered too.
std::set<std::string> generator_prefixes() {
  std::set<std::string> prefixes;
  for (const auto& entry : std::filesystem::directory_iterator(kGenerator)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".et") continue;
    const std::string stem = entry.path().stem().string();  // "ALL_REDUCE.0"
    prefixes.insert(stem.substr(0, stem.rfind('.')));
  }
  return prefixes;
}

TEST(ChakraReader, EveryGeneratorSampleLoads) {
  const auto prefixes = generator_prefixes();
  EXPECT_GE(prefixes.size(), 14u);  // the 14 the README lists
  for (const std::string& prefix : prefixes) {
    SCOPED_TRACE(prefix);
    Workload w;
    EXPECT_NO_THROW(w = load_chakra_trace(kGenerator + prefix));
    EXPECT_EQ(w.rank_count(), 8u);
    EXPECT_EQ(w.name, prefix);
  }
}

TEST(ChakraReader, CollectiveSamplesHoldOneCollectiveOfTheRightKindAndSizeOnEveryRank) {
  // generator/README: one collective node of 1 MiB each, the barrier without a size.
  struct Case {
    const char* prefix;
    CollectiveKind kind;
    Bytes bytes;
  };
  for (const Case& c : std::vector<Case>{
           {"generator/ALL_REDUCE", CollectiveKind::kAllReduce, 1 << 20},
           {"generator/ALL_GATHER", CollectiveKind::kAllGather, 1 << 20},
           {"generator/REDUCE_SCATTER", CollectiveKind::kReduceScatter, 1 << 20},
           {"generator/ALL_TO_ALL", CollectiveKind::kAllToAll, 1 << 20},
           {"generator/BROADCAST", CollectiveKind::kBroadcast, 1 << 20},
           {"generator/BARRIER", CollectiveKind::kBarrier, 0},
           {"allreduce-ring8-1MiB/all_reduce", CollectiveKind::kAllReduce, 1048576},
       }) {
    SCOPED_TRACE(c.prefix);
    const Workload w = load_chakra_trace(kChakraSamples + c.prefix);
    ASSERT_EQ(w.rank_count(), 8u);
    for (Rank r = 0; r < 8; ++r) {
      ASSERT_EQ(w.ranks[r].nodes.size(), 1u);
      const WorkloadNode& node = w.ranks[r].nodes[0];
      EXPECT_EQ(node.kind, NodeKind::kCollective);
      EXPECT_EQ(node.collective, c.kind);
      EXPECT_EQ(node.bytes, c.bytes);
      EXPECT_FALSE(node.group);  // no group file: all ranks
      EXPECT_EQ(w.members(node).size(), 8u);
      EXPECT_TRUE(node.deps.empty());
      EXPECT_EQ(w.ranks[r].source, kChakraSamples + c.prefix + "." + std::to_string(r) + ".et");
    }
  }
}

TEST(ChakraReader, LoneSendAndReceiveKeepAnUnknownPeer) {
  // The generator writes these nodes with tensor_size 1024 and no comm_* attributes: they
  // load, and replay reports them as unmatched.
  for (const auto& [prefix, kind] : {std::pair{"one_comm_send_node", NodeKind::kSend},
                                     std::pair{"one_comm_recv_node", NodeKind::kRecv}}) {
    SCOPED_TRACE(prefix);
    const Workload w = load_chakra_trace(kGenerator + prefix);
    for (const RankTrace& rank : w.ranks) {
      ASSERT_EQ(rank.nodes.size(), 1u);
      EXPECT_EQ(rank.nodes[0].kind, kind);
      EXPECT_FALSE(rank.nodes[0].peer);
      EXPECT_EQ(rank.nodes[0].bytes, 1024u);
      EXPECT_EQ(rank.nodes[0].tag, 0);
    }
  }
}

TEST(ChakraReader, ComputeNodesTakeTheirDurationAndKeepTheirDependencies) {
  const Workload one = load_chakra_trace(kGenerator + "one_comp_node");
  ASSERT_EQ(one.ranks[3].nodes.size(), 1u);
  EXPECT_EQ(one.ranks[3].nodes[0].kind, NodeKind::kCompute);
  EXPECT_EQ(one.ranks[3].nodes[0].duration_ps, ps_from_us(5));

  const Workload dependent = load_chakra_trace(kGenerator + "two_comp_nodes_dependent");
  const RankTrace& rank0 = dependent.ranks[0];
  ASSERT_EQ(rank0.nodes.size(), 2u);
  EXPECT_TRUE(rank0.nodes[0].deps.empty());
  EXPECT_EQ(rank0.nodes[1].deps, std::vector<TraceNodeId>{rank0.nodes[0].id});

  const Workload independent = load_chakra_trace(kGenerator + "two_comp_nodes_independent");
  ASSERT_EQ(independent.ranks[0].nodes.size(), 2u);
  EXPECT_TRUE(independent.ranks[0].nodes[1].deps.empty());
}

TEST(ChakraReader, MemoryAndMetadataNodesWithoutDurationAreSkippedAndCounted) {
  for (const auto& [prefix, origin] : {std::pair{"one_remote_mem_load_node", "MEM_LOAD_NODE"},
                                       std::pair{"one_remote_mem_store_node", "MEM_STORE_NODE"},
                                       std::pair{"one_metadata_node_all_types", "METADATA_NODE"}}) {
    SCOPED_TRACE(prefix);
    const Workload w = load_chakra_trace(kGenerator + prefix);
    EXPECT_EQ(count_nodes(w, NodeKind::kSkipped), 8u);
    EXPECT_EQ(w.ranks[0].nodes.at(0).skipped_origin, origin);
  }
}

TEST(ChakraReader, MemoryNodeWithADurationIsCompute) {
  auto load = testing::chakra_node(1, ChakraProtoMsg::MEM_LOAD_NODE);
  load.set_duration_micros(7);
  const Workload w = parse_chakra_trace({{"m.0.et", testing::chakra_file({load})}}, {}, "m");
  EXPECT_EQ(w.ranks[0].nodes[0].kind, NodeKind::kCompute);
  EXPECT_EQ(w.ranks[0].nodes[0].duration_ps, ps_from_us(7));
}

TEST(ChakraReader, PipelineSampleHasTheExpectedNodes) {
  // README: 4 stages, 8 micro-batches; a stage receives 1 MiB from the previous one
  // (except stage 0), computes 100 us, sends 1 MiB to the next (except stage 3); tag = micro-batch.
  const Workload w = load_chakra_trace(kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe");
  ASSERT_EQ(w.rank_count(), 4u);
  for (Rank r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    const RankTrace& rank = w.ranks[r];
    std::size_t computes = 0, sends = 0, recvs = 0;
    std::set<std::int64_t> send_tags, recv_tags;
    for (const WorkloadNode& node : rank.nodes) {
      switch (node.kind) {
        case NodeKind::kCompute:
          ++computes;
          EXPECT_EQ(node.duration_ps, ps_from_us(100));
          break;
        case NodeKind::kSend:
          ++sends;
          EXPECT_EQ(node.peer, std::optional<Rank>(r + 1));
          EXPECT_EQ(node.bytes, 1u << 20);
          send_tags.insert(node.tag);
          break;
        case NodeKind::kRecv:
          ++recvs;
          EXPECT_EQ(node.peer, std::optional<Rank>(r - 1));
          EXPECT_EQ(node.bytes, 1u << 20);
          recv_tags.insert(node.tag);
          break;
        default: ADD_FAILURE() << "unexpected " << node_kind_name(node.kind);
      }
    }
    EXPECT_EQ(computes, 8u);
    EXPECT_EQ(sends, r < 3 ? 8u : 0u);
    EXPECT_EQ(recvs, r > 0 ? 8u : 0u);
    EXPECT_EQ(rank.nodes.size(), r == 0 || r == 3 ? 16u : 24u);
    const std::set<std::int64_t> micro_batches{0, 1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(send_tags, r < 3 ? micro_batches : std::set<std::int64_t>{});
    EXPECT_EQ(recv_tags, r > 0 ? micro_batches : std::set<std::int64_t>{});
  }
}

TEST(ChakraReader, DataAndControlDependenciesAreMergedWithoutRepeats) {
  auto node = testing::comp_node(3, 1, {1, 2});
  node.add_ctrl_deps(2);
  node.add_ctrl_deps(1);
  node.add_ctrl_deps(0);
  const Workload w = parse_chakra_trace(
      {{"d.0.et", testing::chakra_file({testing::comp_node(0, 1), testing::comp_node(1, 1),
                                        testing::comp_node(2, 1), node})}},
      {}, "d");
  EXPECT_EQ(w.ranks[0].nodes[3].deps, (std::vector<TraceNodeId>{1, 2, 0}));
}

TEST(ChakraReader, IntegerAttributesOfAnyIntegerTypeAreAccepted) {
  // Rank 1 receives 4096 bytes from rank 0 with tag 9, each attribute of another type.
  auto recv = testing::chakra_node(1, ChakraProtoMsg::COMM_RECV_NODE);
  auto* src = recv.add_attr();
  src->set_name("comm_src");
  src->set_uint64_val(0);
  auto* size = recv.add_attr();
  size->set_name("comm_size");
  size->set_sfixed64_val(4096);
  auto* tag = recv.add_attr();
  tag->set_name("comm_tag");
  tag->set_sint32_val(9);
  auto* dst = recv.add_attr();
  dst->set_name("comm_dst");
  dst->set_fixed32_val(1);
  const Workload w = parse_chakra_trace(
      {{"a.0.et", testing::chakra_file({testing::p2p_node(1, true, 0, 1, 4096, 9)})},
       {"a.1.et", testing::chakra_file({recv})}},
      {}, "a");
  const WorkloadNode& r = w.ranks[1].nodes[0];
  EXPECT_EQ(r.peer, std::optional<Rank>(0));
  EXPECT_EQ(r.bytes, 4096u);
  EXPECT_EQ(r.tag, 9);
}

TEST(ChakraReader, ReduceScatterBlockIsReduceScatter) {
  const Workload w = parse_chakra_trace(
      {{"r.0.et",
        testing::chakra_file({testing::coll_node(1, ChakraProtoMsg::REDUCE_SCATTER_BLOCK, 64)})}},
      {}, "r");
  EXPECT_EQ(w.ranks[0].nodes[0].collective, CollectiveKind::kReduceScatter);
}

TEST(ChakraReader, MissingRankZeroIsAnError) {
  const std::string error = testing::error_of([] { load_chakra_trace(kGenerator + "NO_SUCH"); });
  EXPECT_CONTAINS(error, "NO_SUCH.0.et: cannot open Chakra trace");
}

}  // namespace
}  // namespace commsim
