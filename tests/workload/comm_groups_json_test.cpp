#include "workload/comm_groups_json.h"

#include <gtest/gtest.h>

#include "chakra_test_files.h"
#include "workload/chakra_reader.h"

namespace commsim {
namespace {

using testing::error_of;

std::string json_error(const std::string& json) {
  return error_of([&] { parse_comm_groups_json(json, "groups.json"); });
}

TEST(ChakraCommGroups, JsonGroupsAreSortedByName) {
  const CommGroupFile file = parse_comm_groups_json(R"({"tp1": [2, 3], "tp0": [0, 1]})", "g.json");
  EXPECT_EQ(file.source, "g.json");
  ASSERT_EQ(file.groups.size(), 2u);
  EXPECT_EQ(file.groups[0], (CommGroup{"tp0", {0, 1}}));
  EXPECT_EQ(file.groups[1], (CommGroup{"tp1", {2, 3}}));
}

TEST(ChakraCommGroups, CollectiveRunsAmongItsProcessGroup) {
  // Ranks 0 and 1 all-reduce in "tp0", ranks 2 and 3 in "tp1".
  const CommGroupFile groups =
      parse_comm_groups_json(R"({"tp0": [0, 1], "tp1": [2, 3]})", "g.json");
  std::vector<ChakraFile> files;
  for (Rank r = 0; r < 4; ++r) {
    files.push_back({"t." + std::to_string(r) + ".et",
                     testing::chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 1024,
                                                              r < 2 ? "tp0" : "tp1")})});
  }
  const Workload w = parse_chakra_trace(files, groups, "t");
  EXPECT_EQ(w.groups, groups.groups);
  EXPECT_EQ(w.members(w.ranks[0].nodes[0]), (std::vector<Rank>{0, 1}));
  EXPECT_EQ(w.members(w.ranks[3].nodes[0]), (std::vector<Rank>{2, 3}));
}

TEST(ChakraCommGroups, WithoutAGroupFileACollectiveSpansAllRanks) {
  const Workload w = parse_chakra_trace(
      {{"t.0.et",
        testing::chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 8, "x")})},
       {"t.1.et",
        testing::chakra_file({testing::coll_node(1, ChakraProtoMsg::ALL_REDUCE, 8, "x")})}},
      std::nullopt, "t");
  EXPECT_FALSE(w.ranks[0].nodes[0].group);
  EXPECT_EQ(w.members(w.ranks[0].nodes[0]), (std::vector<Rank>{0, 1}));
}

TEST(ChakraCommGroups, BadJsonIsAnError) {
  EXPECT_NE(json_error("{\"tp\": [0, 1]")
                .find("groups.json: not a JSON object of communicator "
                      "groups"),
            std::string::npos);
  EXPECT_NE(json_error("[0, 1]").find("groups.json: not a JSON object"), std::string::npos);
  EXPECT_NE(json_error(R"({"tp": 3})").find("groups.json: group 'tp': expected a list of ranks"),
            std::string::npos);
  EXPECT_NE(json_error(R"({"tp": [0, "1"]})").find("group 'tp': ranks must be numbers"),
            std::string::npos);
  EXPECT_NE(json_error(R"({"tp": [0, -1]})").find("group 'tp': rank -1 is not a whole number >= 0"),
            std::string::npos);
  EXPECT_NE(json_error(R"({"tp": [1.5]})").find("group 'tp': rank 1.5 is not a whole number"),
            std::string::npos);
  EXPECT_NE(json_error(R"({"": [0]})").find("groups.json: a group has an empty name"),
            std::string::npos);
  // A group named twice is two different claims (protobuf's Struct refuses a repeated key).
  EXPECT_NE(json_error(R"({"tp": [0, 1], "tp": [2, 3]})").find("Repeated map key: 'tp'"), std::string::npos);
  EXPECT_NE(error_of([] {
              load_comm_groups_file("/no/such/groups.json");
            }).find("/no/such/groups.json: cannot open communicator group file"),
            std::string::npos);
}

}  // namespace
}  // namespace commsim
