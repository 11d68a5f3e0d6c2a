#include "workload/trace_file.h"

#include <gtest/gtest.h>

#include "../expect_contains.h"
#include "chakra_test_files.h"
#include "workload/chakra_reader.h"
#include "workload/trace_quantities.h"

namespace commsim {
namespace {

using testing::error_of;

// The example in proto/workload.proto's header comment.
const char* const kTwoRanks = R"(
name: "two-ranks"
groups { name: "pair" ranks: [0, 1] }
ranks {  # rank 0
  nodes { id: 1 name: "fwd" compute { duration: "150us" } }
  nodes { id: 2 deps: 1 send { peer: 1 size: "1M" tag: 7 } }
  nodes { id: 3 deps: [1, 2] collective { type: ALL_REDUCE size: "64M" group: "pair" } }
}
ranks {  # rank 1
  nodes { id: 1 recv { peer: 0 size: "1M" tag: 7 } }
  nodes { id: 2 deps: 1 collective { type: ALL_REDUCE size: "64M" group: "pair" } }
}
)";

Workload parse_text(const std::string& text) {
  return parse_trace(text, TraceEncoding::kText, "t.textproto");
}

std::string text_error(const std::string& text) {
  return error_of([&] { parse_text(text); });
}

// Equal apart from the file each rank came from.
void expect_same_workload(const Workload& a, const Workload& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.groups, b.groups);
  ASSERT_EQ(a.rank_count(), b.rank_count());
  for (std::size_t r = 0; r < a.rank_count(); ++r) EXPECT_EQ(a.ranks[r].nodes, b.ranks[r].nodes);
}

WorkloadNode node_of(TraceNodeId id, NodeKind kind, std::vector<TraceNodeId> deps = {}) {
  WorkloadNode node;
  node.id = id;
  node.kind = kind;
  node.deps = std::move(deps);
  return node;
}

// One node of every kind and every field set to something other than its default.
Workload every_kind_of_node() {
  Workload w;
  w.name = "every-kind";
  w.groups = {{"odd", {1}}, {"all", {1, 0}}};
  WorkloadNode compute = node_of(10, NodeKind::kCompute);
  compute.name = "gemm";
  compute.duration_ps = 123'456'789'001;
  WorkloadNode collective = node_of(11, NodeKind::kCollective, {10});
  collective.name = "grads";
  collective.bytes = 3 * (Bytes{1} << 40) + 5;
  collective.collective = CollectiveKind::kReduceScatter;
  collective.algorithm = AlgorithmKind::kRecursiveHalving;
  collective.group = 1;
  WorkloadNode barrier = node_of(12, NodeKind::kCollective, {11, 10});
  barrier.collective = CollectiveKind::kBarrier;
  WorkloadNode send = node_of(13, NodeKind::kSend, {12});
  send.bytes = 1;
  send.peer = 1;
  send.tag = -3;
  WorkloadNode skipped = node_of(0, NodeKind::kSkipped);
  skipped.skipped_origin = "MEM_LOAD_NODE";
  w.ranks.push_back({"x", {compute, collective, barrier, send, skipped}});

  WorkloadNode recv = node_of(99, NodeKind::kRecv);
  recv.bytes = 1;
  recv.peer = 0;
  recv.tag = -3;
  WorkloadNode all_gather = node_of(100, NodeKind::kCollective, {99});
  all_gather.bytes = 64;
  all_gather.collective = CollectiveKind::kAllGather;
  WorkloadNode odd = node_of(101, NodeKind::kCollective);
  odd.bytes = 64;
  odd.collective = CollectiveKind::kAllToAll;
  odd.group = 0;
  WorkloadNode collective1 = collective;
  collective1.deps = {};
  WorkloadNode barrier1 = barrier;
  barrier1.deps = {11};
  w.ranks.push_back({"x", {recv, all_gather, odd, collective1, barrier1}});
  return w;
}

TEST(TraceFile, HandWrittenTextTraceLoads) {
  const Workload w = parse_text(kTwoRanks);
  EXPECT_EQ(w.name, "two-ranks");
  ASSERT_EQ(w.groups.size(), 1u);
  EXPECT_EQ(w.groups[0], (CommGroup{"pair", {0, 1}}));
  ASSERT_EQ(w.rank_count(), 2u);
  const auto& r0 = w.ranks[0].nodes;
  ASSERT_EQ(r0.size(), 3u);
  EXPECT_EQ(r0[0].kind, NodeKind::kCompute);
  EXPECT_EQ(r0[0].name, "fwd");
  EXPECT_EQ(r0[0].duration_ps, ps_from_us(150));
  EXPECT_EQ(r0[1].kind, NodeKind::kSend);
  EXPECT_EQ(r0[1].peer, std::optional<Rank>(1));
  EXPECT_EQ(r0[1].bytes, 1u << 20);
  EXPECT_EQ(r0[1].tag, 7);
  EXPECT_EQ(r0[1].deps, std::vector<TraceNodeId>{1});
  EXPECT_EQ(r0[2].kind, NodeKind::kCollective);
  EXPECT_EQ(r0[2].collective, CollectiveKind::kAllReduce);
  EXPECT_EQ(r0[2].bytes, 64u << 20);
  EXPECT_EQ(r0[2].group, std::optional<std::size_t>(0));
  EXPECT_FALSE(r0[2].algorithm);
  EXPECT_EQ(r0[2].deps, (std::vector<TraceNodeId>{1, 2}));
  EXPECT_EQ(w.ranks[1].nodes[0].kind, NodeKind::kRecv);
  EXPECT_EQ(w.ranks[1].source, "t.textproto");
}

TEST(TraceFile, EncodingFollowsTheFileName) {
  EXPECT_EQ(trace_encoding_for("a/b.textproto"), TraceEncoding::kText);
  EXPECT_EQ(trace_encoding_for("b.pbtxt"), TraceEncoding::kText);
  EXPECT_EQ(trace_encoding_for("b.pb"), TraceEncoding::kBinary);
  EXPECT_EQ(trace_encoding_for("b.textproto.bin"), TraceEncoding::kBinary);
}

TEST(TraceFile, EveryFieldRoundTripsThroughBinaryAndText) {
  const Workload original = every_kind_of_node();
  ASSERT_NO_THROW(validate_workload(original));
  for (const TraceEncoding encoding : {TraceEncoding::kBinary, TraceEncoding::kText}) {
    SCOPED_TRACE(encoding == TraceEncoding::kText ? "text" : "binary");
    const Workload back = parse_trace(serialize_trace(original, encoding), encoding, "rt");
    expect_same_workload(back, original);
  }
}

TEST(TraceFile, FilesRoundTripInBothEncodings) {
  const Workload original = parse_text(kTwoRanks);
  for (const char* name : {"/two_ranks.pb", "/two_ranks.textproto"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(COMMSIM_TEST_TMP_DIR) + name;
    write_trace_file(original, path);
    const Workload back = load_trace_file(path);
    expect_same_workload(back, original);
    EXPECT_EQ(back.ranks[0].source, path);
  }
}

TEST(TraceFile, ChakraPipelineRoundTripsThroughOurFormat) {
  const Workload chakra =
      load_chakra_trace(testing::kChakraSamples + "pipeline-4stages-8micro-1MiB/pipe");
  for (const TraceEncoding encoding : {TraceEncoding::kBinary, TraceEncoding::kText}) {
    expect_same_workload(parse_trace(serialize_trace(chakra, encoding), encoding, "p"), chakra);
  }
}

TEST(TraceFile, WriterRefusesASendWithoutAPeer) {
  const Workload lone = load_chakra_trace(testing::kChakraSamples + "generator/one_comm_send_node");
  EXPECT_CONTAINS(error_of([&] { serialize_trace(lone, TraceEncoding::kBinary); }),
                  "one_comm_send_node.0.et: rank 0: node 112 (COMM_SEND_NODE): cannot be written "
                  "as a commsim trace: the trace it came from gives no peer rank");
}

TEST(TraceFile, DurationsAndSizesAreExact) {
  EXPECT_EQ(parse_trace_duration("150us", "d"), 150 * kPsPerUs);
  EXPECT_EQ(parse_trace_duration("1.5ms", "d"), 1'500'000'000);
  EXPECT_EQ(parse_trace_duration("1234ps", "d"), 1234);
  EXPECT_EQ(parse_trace_duration("0", "d"), 0);
  // The range ends at 100 days = 8.64e18 ps (base/units.h), exactly.
  EXPECT_EQ(parse_trace_duration("8640000000000000000ps", "d"), kMaxTimePs);
  EXPECT_EQ(parse_trace_duration("8640000s", "d"), kMaxTimePs);
  EXPECT_EQ(parse_trace_duration("8639999999ms", "d"), 8'639'999'999 * kPsPerMs);
  EXPECT_EQ(format_trace_duration(150 * kPsPerUs), "150us");
  EXPECT_EQ(format_trace_duration(2 * kPsPerSecond), "2s");
  EXPECT_EQ(format_trace_duration(INT64_MAX), "9223372036854775807ps");
  EXPECT_EQ(format_trace_duration(0), "0");
  EXPECT_EQ(parse_trace_size("4611686018427387904", "s"), kMaxBytes);  // 2^62
  EXPECT_CONTAINS(error_of([] { parse_trace_size("4611686018427387905", "s"); }),
                  "s: 4611686018427387905 B is beyond the simulator's range of 2^62 B");
  EXPECT_CONTAINS(error_of([] { parse_trace_size("18446744073709551615", "s"); }), "beyond");
  EXPECT_CONTAINS(error_of([] { parse_trace_duration("8640000000000000001ps", "d"); }),
                  "d: time '8640000000000000001ps' is beyond the simulator's range of 100 days");
  EXPECT_EQ(parse_trace_size("1M", "s"), 1u << 20);
  EXPECT_EQ(parse_trace_size("1MB", "s"), 1'000'000u);
  EXPECT_CONTAINS(error_of([] { parse_trace_duration("9223372036854776s", "d"); }),
                  "d: time '9223372036854776s' is beyond the simulator's range of 100 days");
  EXPECT_CONTAINS(error_of([] { parse_trace_duration("5 parsecs", "d"); }),
                  "d: unknown time unit in '5 parsecs'");
  EXPECT_CONTAINS(error_of([] { parse_trace_duration("-5us", "d"); }),
                  "d: time must not be negative");
}

TEST(TraceBadInput, SyntaxErrorNamesTheLine) {
  EXPECT_CONTAINS(text_error("name: \"x\"\nranks {\n  nodes { id: 1 colour: 3 }\n}\n"),
                  "t.textproto: line 3, column");
}

TEST(TraceBadInput, BinaryGarbage) {
  EXPECT_CONTAINS(error_of([] { parse_trace("\x08", TraceEncoding::kBinary, "t.pb"); }),
                  "t.pb: not a binary commsim trace (protobuf parse failed)");
}

TEST(TraceBadInput, UnreadableFile) {
  EXPECT_CONTAINS(error_of([] { load_trace_file("/no/such/trace.pb"); }),
                  "/no/such/trace.pb: cannot open trace file");
}

TEST(TraceBadInput, NoRanks) {
  EXPECT_CONTAINS(text_error("name: \"x\""), "t.textproto: the trace has no ranks");
}

TEST(TraceBadInput, BarrierWithASize) {
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 collective { type: BARRIER size: \"1K\" } } }"),
                  "t.textproto: rank 0: node 4: a barrier of 1024 B: a barrier moves no data, so its "
                  "size (collective.size, Chakra's comm_size) must be absent or 0");
  // "0" is no size: it is what a barrier read from Chakra (comm_size 0) is written back as.
  EXPECT_EQ(parse_text("ranks { nodes { id: 4 collective { type: BARRIER size: \"0\" } } }").ranks[0].nodes[0].bytes,
            0u);
}

TEST(TraceBadInput, NodeWithoutAKind) {
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 name: \"a\" } }"),
                  "t.textproto: rank 0: node 4 (a): the node has no kind");
}

TEST(TraceBadInput, MissingOrBadFields) {
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 compute {} } }"),
                  "t.textproto: rank 0: node 4: compute.duration is missing");
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 compute { duration: \"5\" } } }"),
                  "node 4: compute.duration: time needs a unit: '5'");
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 collective { size: \"1M\" } } }"),
                  "node 4: collective.type is missing");
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 collective { type: ALL_GATHER } } }"),
                  "node 4: collective.size is missing");
  EXPECT_CONTAINS(
      text_error("ranks { nodes { id: 4 collective { type: BARRIER algorithm: \"rign\" } } }"),
      "node 4: collective.algorithm: unknown algorithm 'rign' (did you mean 'ring'?) (known: ring, ring-bidir,");
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 send { size: \"1\" } } }"),
                  "node 4: send.peer is missing");
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 recv { peer: 0 size: \"1Q\" } } }"),
                  "node 4: recv.size: unknown size unit in '1Q'");
}

TEST(TraceBadInput, UnknownCollectiveTypeInABinaryTrace) {
  // Field 5 (collective) holding field 1 (type) = 99: an enum value the schema lacks.
  const std::string node = std::string("\x08\x04\x2a\x02\x08\x63", 6);
  const std::string rank = "\x0a" + std::string(1, static_cast<char>(node.size())) + node;
  const std::string trace = "\x22" + std::string(1, static_cast<char>(rank.size())) + rank;
  EXPECT_CONTAINS(error_of([&] { parse_trace(trace, TraceEncoding::kBinary, "t.pb"); }),
                  "t.pb: rank 0: node 4: collective.type 99 is unknown");
}

TEST(TraceBadInput, SendToARankOutsideTheTrace) {
  EXPECT_CONTAINS(text_error("ranks { nodes { id: 4 send { peer: 2 size: \"1\" } } } ranks {}"),
                  "t.textproto: rank 0: node 4: send peer 2 is outside the trace's 2 ranks (0..1)");
}

TEST(TraceBadInput, GroupProblems) {
  EXPECT_CONTAINS(
      text_error("ranks { nodes { id: 4 collective { type: BARRIER group: \"g\" } } }"),
      "t.textproto: rank 0: node 4: collective.group 'g' is not declared in the trace's groups");
  EXPECT_CONTAINS(text_error("groups { name: \"g\" ranks: [0, 3] }\n"
                             "ranks { nodes { id: 4 collective { type: BARRIER group: \"g\" } } }"),
                  "t.textproto: rank 0: node 4: collective group 'g' names rank 3, outside the "
                  "trace's 1 ranks (0..0)");
  EXPECT_CONTAINS(text_error("groups { name: \"g\" ranks: [0, 0] }\n"
                             "ranks { nodes { id: 4 collective { type: BARRIER group: \"g\" } } }"),
                  "node 4: collective group 'g' names rank 0 twice");
  EXPECT_CONTAINS(text_error("groups { name: \"g\" }\n"
                             "ranks { nodes { id: 4 collective { type: BARRIER group: \"g\" } } }"),
                  "node 4: collective group 'g' has no ranks");
  EXPECT_CONTAINS(text_error("groups { name: \"g\" } groups { name: \"g\" } ranks {}"),
                  "t.textproto: groups[1]: group name 'g' is used twice");
  EXPECT_CONTAINS(text_error("groups { ranks: 0 } ranks {}"),
                  "t.textproto: groups[0].name is missing");
}

TEST(TraceBadInput, DependencyProblems) {
  EXPECT_CONTAINS(
      text_error("ranks {}\nranks { nodes { id: 4 deps: 5 compute { duration: \"1us\" } } }"),
      "t.textproto: rank 1: node 4: depends on node 5, which rank 1 does not have");
  EXPECT_CONTAINS(text_error("ranks {\n"
                             "  nodes { id: 1 name: \"a\" deps: 2 compute { duration: \"1us\" } }\n"
                             "  nodes { id: 2 name: \"b\" deps: 1 compute { duration: \"1us\" } }\n"
                             "}"),
                  "t.textproto: rank 0: dependency cycle: node 1 (a) waits for 2 (b), which "
                  "waits for 1 (a)");
}

}  // namespace
}  // namespace commsim
