// commsim replay: exit status 2 on deadlocks and bad options; CSV and timeline output; the
// report and rows of each collective.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "run_cli.h"
#include "workload/chakra_writer.h"
#include "workload/trace_file.h"

namespace commsim::testing {
namespace {

const std::string kSamples = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/chakra-samples/";

TEST(CliReplay, BadInputAndDeadlocks) {
  expect_error({"replay"}, "give one of --trace FILE or --chakra PREFIX");
  expect_report({"replay", "--chakra", kSamples + "generator/one_comm_send_node"},
                "replay deadlock: 8 nodes wait on communication that never comes", "has no matching receive");
  expect_report({"replay", "--chakra", kSamples + "generator/one_comm_recv_node"},
                "replay deadlock: 8 nodes wait on communication that never comes", "has no matching send");
  expect_error({"replay", "--chakra", "/nonexistent/prefix"}, "/nonexistent/prefix.0.et");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--algorithm", "allreduce=butterfly"},
                "--algorithm 'allreduce=butterfly': unknown algorithm 'butterfly' (known: ring,");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--topology", "ring", "--npus", "4"},
                "rank");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_TO_ALL", "--algorithm", "alltoall=ring"},
                "algorithm 'ring' does not implement alltoall");
  expect_error({"replay", "--chakra", kSamples + "generator/ALL_REDUCE", "--link-tracks"}, "--link-tracks goes with --timeline");
  expect_error({"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto"), "--comm-groups", "g.json"},
                "--comm-groups goes with --chakra");
  expect_error({"replay", "--trace", source_path("workloads/allreduce-8ranks.textproto"), "--bandwidth", "1GB/s"},
                "--bandwidth needs --topology KIND");
}

TEST(CliReplay, SendAndReceiveOfDifferentSizes) {
  const std::string trace = tmp_path("size-mismatch.textproto");
  write_file(trace,
             "ranks { nodes { id: 1 send { peer: 1 size: \"1M\" tag: 3 } } }\n"
             "ranks { nodes { id: 2 name: \"r\" recv { peer: 0 size: \"1K\" tag: 3 } } }\n");
  expect_error({"replay", "--trace", trace},
                "mismatched send and receive (0 -> 1 tag 3): send (" + trace + ": rank 0: node 1) is 1048576 B, but "
                "receive (" + trace + ": rank 1: node 2 (r)) is 1024 B");
}

TEST(CliReplay, LibraryCostsApplyToEveryCollective) {
  // The sample is one 64 MiB ring AllReduce on the 8-GPU node (datasheet): 267.979 us on the wire.
  // Under nccl the closed form picks Simple there (see collective), which adds its call
  // latency and 14 steps of 3.4 us: 8.4 + 47.6 = 56 us, 323.979 us. Inside one NVLink node
  // the one-node ramp holds the call longer, as `collective` says: its time at 16 GiB,
  // 68872.80 us, x 64M / 16G over ramp(64M) = 0.65 / 0.81 is 335.258 us.
  const std::string trace = source_path("workloads/allreduce-8ranks.textproto");
  const CliResult ideal = run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100()});
  ASSERT_EQ(ideal.status, 0) << ideal.err;
  EXPECT_CONTAINS(ideal.out, "# total time 267.979 us");
  const CliResult nccl = run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library", "nccl"});
  ASSERT_EQ(nccl.status, 0) << nccl.err;
  EXPECT_CONTAINS(nccl.out, "# total time 335.258 us");
  // LL forced: 6.6 us + 14 steps of (11 x 0.6 + 0.5 us + 8 MiB at min(0.25 x 450, 141) GB/s,
  // i.e. 74.565404 us: an AllReduce's LL moves a quarter of the link) = 6.6 + 99.4 +
  // 1043.916 = 1149.916 us on the wire (LL's 32 KiB chunks make 64 MiB 11 loops of 24
  // channels x 8 ranks); LL's own ramp bound, 290196.41 us at 16 GiB, gives 1412.615 us.
  const CliResult ll =
      run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library", "nccl", "--protocol", "ll"});
  ASSERT_EQ(ll.status, 0) << ll.err;
  EXPECT_CONTAINS(ll.out, "# total time 1412.615 us");
  // The ramp off (a one-size ramp) leaves the wire's and the library's costs alone.
  const std::string no_ramp = tmp_path("h100-no-ramp.textproto");
  write_file(no_ramp, "name: \"nccl\"\none_node_ramp { size: \"16GiB\" ratio: 1 }\n");
  const CliResult off =
      run_commsim({"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library-file", no_ramp});
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_CONTAINS(off.out, "# total time 323.979 us");
  const CliResult ll_off = run_commsim(
      {"replay", "--trace", trace, "--topology-file", datasheet_h100(), "--library-file", no_ramp, "--protocol", "ll"});
  ASSERT_EQ(ll_off.status, 0) << ll_off.err;
  EXPECT_CONTAINS(ll_off.out, "# total time 1149.916 us");
  // The collective's row names the protocol each run took; busbw = 64 MiB / t x 2(8-1)/8.
  EXPECT_CONTAINS(nccl.out,
                  "\n      1     allreduce      all      8     67108864               ring   simple   24     335.258"
                  "     335.258     335.258      335.258   200.17   350.30\n");
  EXPECT_CONTAINS(ll.out, "   ring       ll   24    1412.615");
  EXPECT_CONTAINS(ideal.out, "   ring        -    1     267.979");
}

// tests/data/two-groups.textproto: two groups of two, then all four ranks.
const std::string kTwoGroups = source_path("tests/data/two-groups.textproto");

TEST(CliReplay, AllToAllAcrossNodesRunsOnTheP2pChannelsAsCollectiveSays) {
  // Two H100 nodes of one GPU: NCCL's AllToAll sends 512 MiB to the other node on 4 P2P
  // channels of 7.6 GB/s, held to the 25 GB/s one send to a network peer moves (half the
  // NIC) times the preset's AllToAll factor 0.923, in a replay as in `collective`.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  const std::string trace = tmp_path("a2a-2nodes.textproto");
  const CliResult made =
      run_commsim({"generate", "collective", "--collective", "alltoall", "--ranks", "2", "--size", "1G", "--output", trace});
  ASSERT_EQ(made.status, 0) << made.err;
  const CliResult replay =
      run_commsim({"replay", "--trace", trace, "--topology-file", cluster, "--nodes", "2", "--gpus-per-node", "1"});
  ASSERT_EQ(replay.status, 0) << replay.err;
  const CliResult collective = run_commsim({"collective", "--topology-file", cluster, "--nodes", "2", "--gpus-per-node",
                                            "1", "--collective", "alltoall", "--size", "1G"});
  ASSERT_EQ(collective.status, 0) << collective.err;
  // 8.4 us call + 14 us network step + 1 us of links + 2^29 B / (0.923 x 25 GB/s) = 23289.745 us.
  EXPECT_CONTAINS(replay.out, "# total time 23289.745 us\n");
  EXPECT_CONTAINS(collective.out,
                  "  1073741824    134217728  float     direct  simple    4    23289.75    46.10    23.05");
}

TEST(CliReplay, AnAllToAllInsideANodeOfAClusterRunsAtTheNodesFactor) {
  // 8 ranks of the 2-node H100 cluster preset are node 0: their AllToAll moves over NVLink
  // alone at the preset's factor inside one node, 0.96 (the node preset's), not the 0.923 of
  // calls across nodes: as on the node preset, 2777.268 us for 1 GiB (2888.57 at 0.923). The
  // cluster spec at one node runs it so in `collective` too.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  const std::string node = source_path("topologies/h100-nvswitch-node.textproto");
  const std::string trace = tmp_path("a2a-8ranks.textproto");
  const CliResult made = run_commsim(
      {"generate", "collective", "--collective", "alltoall", "--ranks", "8", "--size", "1G", "--output", trace});
  ASSERT_EQ(made.status, 0) << made.err;
  for (const std::string& spec : {cluster, node}) {
    const CliResult replay = run_commsim({"replay", "--trace", trace, "--topology-file", spec});
    ASSERT_EQ(replay.status, 0) << replay.err;
    EXPECT_CONTAINS(replay.out, "# total time 2777.268 us\n") << spec;
  }
  const std::string row = "  1073741824     33554432  float     direct  simple    8     2777.27 ";
  for (const std::vector<std::string>& where :
       {std::vector<std::string>{"--topology-file", cluster, "--nodes", "1"}, {"--topology-file", node}}) {
    std::vector<std::string> args = {"collective", "--collective", "alltoall", "--size", "1G"};
    args.insert(args.end(), where.begin(), where.end());
    const CliResult collective = run_commsim(args);
    ASSERT_EQ(collective.status, 0) << collective.err;
    EXPECT_CONTAINS(collective.out, row);
  }
}

TEST(CliReplay, EachCollectiveWithItsGroupAlgorithmTimeAndBandwidth) {
  // On a ring of 4 at 100 GB/s (10 ps a byte) and 1 us a link, with nothing contending:
  //   left  ring AllReduce 1 MiB, p 2: 2 x (1 + 5.24288 us)  = 12.48576 us, at 0 and 12.48576 us
  //   right ring AllGather 4 MiB, p 2: 1 + 20.97152 us       = 21.97152 us, at 10 us (rank 2's compute)
  //   all   ring AllReduce 4 MiB, p 4: 6 x (1 + 10.48576 us) = 68.91456 us, at 31.97152 us
  // algbw = S / t: 1 MiB / 12.48576 us = 83.981752 GB/s (busbw x 2(2-1)/2 = 1); 4 MiB /
  // 21.97152 us = 190.897307 (busbw x 1/2 = 95.448654); 4 MiB / 68.91456 us = 60.862378
  // (busbw x 2(4-1)/4 = 91.293567).
  const std::string& trace = kTwoGroups;
  const std::string csv = tmp_path("two-groups-collectives.csv");
  const std::string json = tmp_path("two-groups-collectives.json");
  const CliResult r = run_commsim({"replay", "--trace", trace, "--topology", "ring", "--npus", "4", "--bandwidth",
                                   "100GB/s", "--latency", "1us", "--collectives-csv", csv, "--collectives-json", json});
  ASSERT_EQ(r.status, 0) << r.err;
  // One row per (collective, group, size, algorithm, protocol, channels), the most total time
  // first.
  EXPECT_CONTAINS(r.out,
                  "# collectives: 4 run, 3 distinct (collective, group, size, algorithm, protocol, channels), "
                  "the most total time first\n");
  const std::string rows =
      "      1     allreduce      all      4      4194304               ring        -    1      68.915      68.915      "
      "68.915       68.915    60.86    91.29\n"
      "      2     allreduce     left      2      1048576               ring        -    1      12.486      12.486      "
      "12.486       24.972    83.98    83.98\n"
      "      1     allgather    right      2      4194304               ring        -    1      21.972      21.972      "
      "21.972       21.972   190.90    95.45\n";
  EXPECT_CONTAINS(r.out, rows);
  // Each collective in the order it started, named by its group's first member's node.
  EXPECT_EQ(read_file(csv),
            "index,rank,node,name,collective,group,ranks,size_bytes,algorithm,protocol,channels,start_us,time_us,"
            "algbw_GBps,busbw_GBps\n"
            "0,0,1,ar1,allreduce,left,2,1048576,ring,-,1,0.000000,12.485760,83.981752,83.981752\n"
            "1,2,2,ag,allgather,right,2,4194304,ring,-,1,10.000000,21.971520,190.897307,95.448654\n"
            "2,0,2,ar2,allreduce,left,2,1048576,ring,-,1,12.485760,12.485760,83.981752,83.981752\n"
            "3,0,3,all,allreduce,all,4,4194304,ring,-,1,31.971520,68.914560,60.862378,91.293567\n");
  const std::string lines = read_file(json);
  EXPECT_EQ(lines.substr(0, lines.find('\n') + 1),
            "{\"index\":0,\"rank\":0,\"node\":1,\"name\":\"ar1\",\"collective\":\"allreduce\",\"group\":\"left\","
            "\"ranks\":2,\"size_bytes\":1048576,\"algorithm\":\"ring\",\"protocol\":null,\"channels\":1,\"start_us\":0.000000,"
            "\"time_us\":12.485760,\"algbw_GBps\":83.981752,\"busbw_GBps\":83.981752}\n");
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 4);
}

TEST(CliReplay, PipelineSampleCsvAndTimeline) {
  const std::string csv = tmp_path("replay.csv");
  const std::string timeline = tmp_path("replay.json");
  const CliResult r = run_commsim({"replay", "--chakra", kSamples + "pipeline-4stages-8micro-1MiB/pipe", "--topology",
                                   "ring", "--npus", "4", "--bandwidth", "50GiB/s", "--latency", "500ns", "--csv", csv,
                                   "--timeline", timeline, "--link-tracks"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# total time 1160.094 us");
  // Stage 0 computes 8 x 100 us and sends its last activation: 800 + 20.03125 us, of which
  // the last send is exposed.
  const std::string rows = read_file(csv);
  EXPECT_EQ(rows.substr(0, rows.find('\n', rows.find('\n') + 1) + 1),
            "rank,finish_time_us,compute_us,exposed_comm_us\n0,820.031250,800.000000,20.031250\n");
  const std::string json = read_file(timeline);
  EXPECT_NE(json.find("\"name\": \"fwd_m0\", \"cat\": \"compute\""), std::string::npos) << json.substr(0, 800);
  EXPECT_CONTAINS(json, "\"name\": \"npu0 -> npu1\"");
  EXPECT_CONTAINS(json, "\"cat\": \"link\"");
}

// The two-group trace as a Chakra trace, with PREFIX.comm_groups.json beside it.
std::string write_two_groups_chakra(const std::string& name) {
  const std::string prefix = tmp_path(name);
  write_chakra_trace(load_trace_file(kTwoGroups), prefix);
  return prefix;
}

const std::vector<std::string> kRing4{"--topology", "ring", "--npus", "4", "--bandwidth", "100GB/s", "--latency", "1us"};

std::vector<std::string> replay_chakra(const std::string& prefix, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"replay", "--chakra", prefix};
  args.insert(args.end(), kRing4.begin(), kRing4.end());
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliReplay, ChakraGroupFileBesideTheTraceIsFoundAndSaid) {
  const std::string prefix = write_two_groups_chakra("two-groups-beside");
  const std::string chakra_csv = tmp_path("two-groups-beside.csv");
  const CliResult r = run_commsim(replay_chakra(prefix, {"--collectives-csv", chakra_csv}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_CONTAINS(r.out,
                  "\n# communicator groups: " + prefix + ".comm_groups.json (found beside the trace), 2 groups\n");
  // The same collectives as the trace in commsim's format, group by group.
  const std::string own_csv = tmp_path("two-groups-own.csv");
  std::vector<std::string> own{"replay", "--trace", kTwoGroups, "--collectives-csv", own_csv};
  own.insert(own.end(), kRing4.begin(), kRing4.end());
  ASSERT_EQ(run_commsim(own).status, 0);
  EXPECT_EQ(read_file(chakra_csv), read_file(own_csv));
  EXPECT_NE(read_file(chakra_csv).find("\n1,2,2,ag,allgather,right,2,4194304,ring,-,1,10.000000,21.971520,"),
            std::string::npos);

  // A file given with --comm-groups is read instead, and named without "found".
  const std::string given = tmp_path("two-groups-given.json");
  std::filesystem::copy_file(prefix + ".comm_groups.json", given, std::filesystem::copy_options::overwrite_existing);
  write_file(prefix + ".comm_groups.json", "not JSON");
  const CliResult g = run_commsim(replay_chakra(prefix, {"--comm-groups", given}));
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_CONTAINS(g.out, "\n# communicator groups: " + given + ", 2 groups\n");
}

TEST(CliReplay, ChakraCollectivesThatNameGroupsWithoutAGroupFileAreWarnedOf) {
  const std::string prefix = write_two_groups_chakra("two-groups-without");
  std::filesystem::remove(prefix + ".comm_groups.json");
  // Six collectives name a group (ar1 and ar2 on ranks 0 and 1, ag on ranks 2 and 3). Taken
  // to span all ranks, rank 0's first (AllReduce of 1 MiB) meets rank 2's first (AllGather of
  // 4 MiB): the warning says why the replay then fails.
  const CliResult r = run_commsim(replay_chakra(prefix));
  EXPECT_EQ(r.status, 2);
  const std::string warning = "commsim: warning: " + prefix +
                              ": 6 collectives name a process group (pg_name), but no group file was given "
                              "(--comm-groups) or found at " +
                              prefix + ".comm_groups.json: every collective is taken to span all ranks\n";
  EXPECT_EQ(r.err.substr(0, warning.size()), warning) << r.err;
  EXPECT_CONTAINS(r.err, "\ncommsim: error: mismatched collective: ");

  // A trace whose collectives name no group is replayed without a word.
  const std::string plain_prefix = tmp_path("all-ranks");
  write_chakra_trace(parse_trace("ranks { nodes { id: 1 collective { type: ALL_REDUCE size: \"1K\" } } }\n"
                                 "ranks { nodes { id: 1 collective { type: ALL_REDUCE size: \"1K\" } } }\n",
                                 TraceEncoding::kText, "all-ranks"),
                     plain_prefix);
  const CliResult plain = run_commsim({"replay", "--chakra", plain_prefix});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  EXPECT_CONTAINS(plain.out, "\n# communicator groups: none\n");
}

TEST(CliReplay, MalformedGroupFileBesideTheTraceIsAnErrorNamingIt) {
  const std::string prefix = write_two_groups_chakra("two-groups-malformed");
  write_file(prefix + ".comm_groups.json", "{\"left\": [0, 1], \"right\": [2,");
  expect_error(replay_chakra(prefix), prefix + ".comm_groups.json: not a JSON object of communicator groups");
  write_file(prefix + ".comm_groups.json", "{\"left\": [0, 1]}");  // no "right", which rank 2 names
  expect_error(replay_chakra(prefix), "pg_name 'right' is not a group of " + prefix + ".comm_groups.json");
}

}  // namespace
}  // namespace commsim::testing
