#include "workload/comm_groups_json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "chakra_test_files.h"
#include "workload/chakra_reader.h"
#include "workload/chakra_writer.h"
#include "workload/trace_file.h"

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

// Ranks 0 and 1 AllReduce in "tp0", ranks 2 and 3 in "tp1", written as a Chakra trace at
// `name` in the test's directory with its group file beside it; returns the prefix.
std::string write_tp_trace(const std::string& name) {
  const Workload w = parse_trace(R"(
      groups { name: "tp0" ranks: [0, 1] }
      groups { name: "tp1" ranks: [2, 3] }
      ranks { nodes { id: 1 collective { type: ALL_REDUCE size: "1K" group: "tp0" } } }
      ranks { nodes { id: 1 collective { type: ALL_REDUCE size: "1K" group: "tp0" } } }
      ranks { nodes { id: 1 collective { type: ALL_REDUCE size: "1K" group: "tp1" } } }
      ranks { nodes { id: 1 collective { type: ALL_REDUCE size: "1K" group: "tp1" } } })",
                                 TraceEncoding::kText, name);
  const std::string prefix = std::string(COMMSIM_TEST_TMP_DIR) + "/" + name;
  write_chakra_trace(w, prefix);
  return prefix;
}

TEST(ChakraCommGroups, GroupFileBesideTheTraceIsRead) {
  const std::string prefix = write_tp_trace("groups-beside");
  const ChakraTrace t = load_chakra_trace_and_groups(prefix, std::nullopt);
  EXPECT_EQ(t.groups_file, prefix + ".comm_groups.json");
  EXPECT_TRUE(t.groups_found_beside);
  EXPECT_EQ(t.ungrouped_collectives, 0u);
  EXPECT_EQ(t.workload.members(t.workload.ranks[3].nodes[0]), (std::vector<Rank>{2, 3}));
  // load_chakra_trace reads only a group file it is given.
  EXPECT_EQ(load_chakra_trace(prefix).groups.size(), 0u);
}

TEST(ChakraCommGroups, WithoutAGroupFileTheCollectivesThatNameAGroupAreCounted) {
  const std::string prefix = write_tp_trace("groups-missing");
  std::filesystem::remove(prefix + ".comm_groups.json");
  const ChakraTrace t = load_chakra_trace_and_groups(prefix, std::nullopt);
  EXPECT_FALSE(t.groups_file);
  EXPECT_FALSE(t.groups_found_beside);
  EXPECT_EQ(t.ungrouped_collectives, 4u);  // one on each rank
  EXPECT_EQ(t.workload.members(t.workload.ranks[3].nodes[0]), (std::vector<Rank>{0, 1, 2, 3}));
}

TEST(ChakraCommGroups, AGivenGroupFileWinsOverTheOneBeside) {
  const std::string prefix = write_tp_trace("groups-given");
  const std::string given = prefix + ".other.json";
  std::filesystem::rename(prefix + ".comm_groups.json", given);
  std::ofstream(prefix + ".comm_groups.json") << "{\"tp0\": [0, 1";  // never read
  const ChakraTrace t = load_chakra_trace_and_groups(prefix, given);
  EXPECT_EQ(t.groups_file, given);
  EXPECT_FALSE(t.groups_found_beside);
  EXPECT_EQ(t.workload.groups.size(), 2u);
}

TEST(ChakraCommGroups, MalformedGroupFileBesideTheTraceIsAnErrorNamingIt) {
  const std::string prefix = write_tp_trace("groups-malformed");
  std::ofstream(prefix + ".comm_groups.json") << "{\"tp0\": [0, 1], \"tp1\": 2}";
  EXPECT_EQ(error_of([&] { load_chakra_trace_and_groups(prefix, std::nullopt); }),
            prefix + ".comm_groups.json: group 'tp1': expected a list of ranks (the group file found beside the "
                     "trace, read as its communicator groups)");
}

TEST(ChakraCommGroups, BadJsonIsAnError) {
  EXPECT_NE(json_error("{\"tp\": [0, 1]")
                .find("groups.json: not a JSON object of communicator "
                      "groups"),
            std::string::npos);
  // Only the parser's first line: no excerpt of the JSON and caret below it.
  EXPECT_EQ(json_error("{\"tp\": [0, 1]").find('\n'), std::string::npos);
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
