// Every way a Chakra trace can be unusable is an InputError naming the file, the rank and the
// node (or the message, when the node cannot be read) — never a crash or a hang.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../expect_contains.h"
#include "chakra_test_files.h"
#include "workload/chakra_reader.h"

namespace commsim {
namespace {

using testing::chakra_file;
using testing::chakra_node;
using testing::comp_node;
using testing::error_of;

std::string error_of_files(const std::vector<ChakraFile>& files,
                           const std::optional<CommGroupFile>& groups = std::nullopt) {
  return error_of([&] { parse_chakra_trace(files, groups, "t"); });
}

std::string error_of_rank0(const std::string& bytes) { return error_of_files({{"t.0.et", bytes}}); }

std::string sample_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(ChakraBadInput, TruncatedFileNamesFileRankAndMessage) {
  // pipe.1.et ends with a 91-byte send node preceded by its one-byte length: cut 10 bytes off.
  const std::string prefix = testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe.";
  std::vector<ChakraFile> files;
  for (int r = 0; r < 4; ++r) {
    const std::string name = "pipe." + std::to_string(r) + ".et";
    files.push_back({name, sample_bytes(prefix + std::to_string(r) + ".et")});
  }
  ASSERT_EQ(files[1].bytes.size(), 1754u);
  files[1].bytes.resize(1744);
  EXPECT_CONTAINS(error_of_files(files),
                  "pipe.1.et: rank 1: message #24 (node) at byte 1662: its length 91 runs past "
                  "the end of the file (81 bytes left): the file is truncated");
}

TEST(ChakraBadInput, VarintLengthPastTheEndOfTheFile) {
  const std::string error = error_of_rank0(chakra_file({}) + testing::varint(1000) + "abcde");
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: message #1 (node) at byte 8: its length 1000 runs "
                  "past the end of the file (5 bytes left)");
}

TEST(ChakraBadInput, FileEndingInsideALengthVarint) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({}) + "\x80\x80"),
                  "t.0.et: rank 0: message #1 (node) at byte 8: the file ends inside its length "
                  "varint (truncated)");
}

TEST(ChakraBadInput, LengthVarintLongerThan64Bits) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({}) + std::string(11, '\xff')),
                  "message #1 (node) at byte 8: its length varint is longer than 64 bits");
}

TEST(ChakraBadInput, EmptyFile) {
  EXPECT_CONTAINS(error_of_rank0(""), "t.0.et: rank 0: empty file: no GlobalMetadata");
}

TEST(ChakraBadInput, MessageThatIsNotANode) {
  // 0x08 starts field 1 as a varint and then the message ends.
  EXPECT_CONTAINS(error_of_rank0(chakra_file({}) + testing::varint(1) + "\x08"),
                  "t.0.et: rank 0: message #1 (node) at byte 8: not a Chakra Node (protobuf "
                  "parse failed)");
}

TEST(ChakraBadInput, UnknownNodeType) {
  auto node = chakra_node(5, ChakraProtoMsg::COMP_NODE);
  node.set_type(static_cast<ChakraProtoMsg::NodeType>(12));
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(4, 1), node})),
                  "t.0.et: rank 0: node 5 (n5): unknown node type 12");
  node.set_type(ChakraProtoMsg::INVALID_NODE);
  EXPECT_CONTAINS(error_of_rank0(chakra_file({node})), "node 5 (n5): unknown node type 0");
}

TEST(ChakraBadInput, SendToARankOutsideTheTrace) {
  const std::string error =
      error_of_files({{"t.0.et", chakra_file({testing::p2p_node(1, true, 0, 9, 64, 0)})},
                      {"t.1.et", chakra_file({})}});
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: node 1 (n1): comm_dst 9 is outside the trace's 2 ranks "
                  "(0..1)");
}

TEST(ChakraBadInput, ReceiveFromANegativeRank) {
  const std::string error =
      error_of_rank0(chakra_file({testing::p2p_node(1, false, -1, 0, 64, 0)}));
  EXPECT_CONTAINS(error, "node 1 (n1): comm_src -1 is outside the trace's 1 ranks (0..0)");
}

TEST(ChakraBadInput, SendWhoseSourceIsNotTheFilesRank) {
  const std::string error =
      error_of_files({{"t.0.et", chakra_file({testing::p2p_node(1, true, 1, 0, 64, 0)})},
                      {"t.1.et", chakra_file({})}});
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: node 1 (n1): comm_src 1 is not the rank of this file (0)");
}

TEST(ChakraBadInput, CollectiveGroupNamingAnUnknownRank) {
  const CommGroupFile groups = parse_comm_groups_json(R"({"tp": [0, 5]})", "groups.json");
  const std::string error = error_of_files(
      {{"t.0.et", chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 64, "tp")})},
       {"t.1.et", chakra_file({})}},
      groups);
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: node 1 (n1): collective group 'tp' names rank 5, "
                  "outside the trace's 2 ranks (0..1)");
}

TEST(ChakraBadInput, CollectiveGroupWithoutTheRankRunningIt) {
  const CommGroupFile groups = parse_comm_groups_json(R"({"tp": [1]})", "groups.json");
  const std::string error = error_of_files(
      {{"t.0.et", chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 64, "tp")})},
       {"t.1.et", chakra_file({})}},
      groups);
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: node 1 (n1): collective group 'tp' does not include "
                  "rank 0, which runs the collective");
}

TEST(ChakraBadInput, ProcessGroupMissingFromTheGroupFile) {
  const CommGroupFile groups = parse_comm_groups_json(R"({"dp": [0]})", "groups.json");
  EXPECT_CONTAINS(
      error_of_files(
          {{"t.0.et", chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 64, "tp")})}},
          groups),
      "t.0.et: rank 0: node 1 (n1): pg_name 'tp' is not a group of groups.json");
}

TEST(ChakraBadInput, DependencyOnAMissingNode) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(1, 1), comp_node(2, 1, {1, 42})})),
                  "t.0.et: rank 0: node 2 (n2): depends on node 42, which rank 0 does not have");
}

TEST(ChakraBadInput, DependencyCycleNamesItsNodes) {
  // 1 waits for 3, 3 for 2, 2 for 1.
  const std::string error = error_of_rank0(chakra_file(
      {comp_node(1, 1, {3}), comp_node(2, 1, {1}), comp_node(3, 1, {2}), comp_node(4, 1)}));
  EXPECT_CONTAINS(error,
                  "t.0.et: rank 0: dependency cycle: node 1 (n1) waits for 3 (n3), which "
                  "waits for 2 (n2), which waits for 1 (n1)");
}

TEST(ChakraBadInput, NodeDependingOnItself) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(7, 1, {7})})),
                  "t.0.et: rank 0: dependency cycle: node 7 (n7) depends on itself");
}

TEST(ChakraBadInput, DuplicateNodeId) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(7, 1), comp_node(7, 2)})),
                  "t.0.et: rank 0: node 7 (n7): node id 7 is used twice");
}

TEST(ChakraBadInput, GatherAndScatterAreRejected) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(1, ChakraProtoMsg::GATHER, 64)})),
                  "t.0.et: rank 0: node 1 (n1): comm_type GATHER (3) is not supported");
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(1, ChakraProtoMsg::SCATTER, 64)})),
                  "comm_type SCATTER (4) is not supported");
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(
                      1, static_cast<ChakraProtoMsg::CollectiveCommType>(42), 64)})),
                  "node 1 (n1): comm_type 42 is unknown");
}

TEST(ChakraBadInput, CollectiveWithoutTypeOrSize) {
  auto untyped = chakra_node(1, ChakraProtoMsg::COMM_COLL_NODE);
  EXPECT_CONTAINS(error_of_rank0(chakra_file({untyped})),
                  "node 1 (n1): COMM_COLL_NODE without a comm_type attribute");
  testing::add_int64(untyped, "comm_type", ChakraProtoMsg::ALL_REDUCE);
  EXPECT_CONTAINS(error_of_rank0(chakra_file({untyped})),
                  "node 1 (n1): COMM_COLL_NODE without a comm_size attribute");
}

TEST(ChakraBadInput, BarrierWithASize) {
  // Chakra's generator writes comm_size 0 on a BARRIER (the sample loads); any other size is
  // data a barrier does not move.
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(7, ChakraProtoMsg::BARRIER, 64)})),
                  "t.0.et: rank 0: node 7 (n7): a barrier of 64 B: a barrier moves no data");
  EXPECT_EQ(error_of_rank0(chakra_file({testing::coll_node(7, ChakraProtoMsg::BARRIER, 0)})), "no error");
}

TEST(ChakraBadInput, AttributeOfTheWrongType) {
  auto node = chakra_node(1, ChakraProtoMsg::COMM_COLL_NODE);
  testing::add_int64(node, "comm_type", ChakraProtoMsg::ALL_REDUCE);
  auto* size = node.add_attr();
  size->set_name("comm_size");
  size->set_string_val("1M");
  EXPECT_CONTAINS(error_of_rank0(chakra_file({node})),
                  "node 1 (n1): attribute comm_size holds string_val, expected an integer");
}

TEST(ChakraBadInput, NegativeSize) {
  EXPECT_CONTAINS(
      error_of_rank0(chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, -4)})),
      "node 1 (n1): comm_size -4 is negative");
}

TEST(ChakraBadInput, CollectiveOnSomeDimensionsOnly) {
  auto node = testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 64);
  auto* dims = node.add_attr();
  dims->set_name("involved_dim");
  dims->mutable_bool_list()->add_values(true);
  dims->mutable_bool_list()->add_values(false);
  EXPECT_CONTAINS(error_of_rank0(chakra_file({node})),
                  "node 1 (n1): involved_dim restricts the collective to some topology dimensions");
}

TEST(ChakraBadInput, SizesBeyondTheRange) {
  // comm_size is an int64: 2^62 + 1 is valid for Chakra but beyond what commsim simulates.
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE,
                                                                 (std::int64_t{1} << 62) + 1)})),
                  "node 1 (n1): comm_size: 4611686018427387905 B is beyond the simulator's range of 2^62 B");
  EXPECT_CONTAINS(error_of_rank0(chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, INT64_MAX)})),
                  "comm_size: 9223372036854775807 B is beyond");
}

TEST(ChakraBadInput, DurationBeyondTheClock) {
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(1, 1ull << 60)})),
                  "node 1 (n1): duration_micros 1152921504606846976 is beyond the simulator's "
                  "range of 100 days");
  // 100 days = 8.64e12 us is the last duration in range.
  EXPECT_CONTAINS(error_of_rank0(chakra_file({comp_node(1, 8'640'000'000'001)})),
                  "duration_micros 8640000000001 is beyond");
}

}  // namespace
}  // namespace commsim
