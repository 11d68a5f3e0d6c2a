// Regression tests for bad and extreme input found by a campaign of hostile inputs: each
// gets "commsim: error: <what, where, which value>" and exit status 2, or, where the input
// is valid, the right answer; never a crash, a wrapped number or a silent default.

#include <gtest/gtest.h>

#include "base/error.h"
#include "engine/engine.h"
#include "run_cli.h"

namespace commsim::testing {
namespace {

TEST(CliExtremeInput, HugeLeafSizeIsOneLeafSwitch) {
  // It once wrapped to zero leaf switches and crashed with SIGSEGV.
  const CliResult r = run_commsim({"topo", "--topology", "hierarchical", "--nodes", "4", "--leaf-size", "4294967295"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "switches      5\n");
  EXPECT_CONTAINS(r.out, "diameter      2 hops\n");
  const std::string spec = tmp_path("huge-leaf.textproto");
  write_file(spec, R"(name: "x" builder { kind: HIERARCHICAL nodes: 4 gpus_per_node: 2 leaf_size: 4294967295
    link { bandwidth: "450GB/s" latency: "250ns" } nic { bandwidth: "50GB/s" latency: "1us" } })");
  EXPECT_EQ(run_commsim({"topo", "--topology-file", spec}).status, 0);
}

TEST(CliExtremeInput, BandwidthsOutsideTheRange) {
  expect_error({"p2p", "--topology", "ring", "--bandwidth", "1e300TB/s"},
               "--bandwidth '1e300TB/s': bandwidth inf B/s is outside the simulator's range of 1 B/s to 1e18 B/s");
  expect_error({"p2p", "--topology", "ring", "--bandwidth", "1e-300B/s"}, "1e-300 B/s is outside");
  expect_error({"p2p", "--topology", "hierarchical", "--nic-bandwidth", "1e-300B/s"}, "--nic-bandwidth");
  expect_error({"topo", "--topology", "tree", "--oversubscription", "1e-300"},
               "tree topology: oversubscription 1e-300 is outside [0.001, 1e6]");
  expect_error({"topo", "--topology", "hierarchical", "--leaf-size", "1", "--oversubscription", "1e30"},
               "hierarchical topology: oversubscription 1e+30 is outside");
}

TEST(CliExtremeInput, TimesWhoseSumsLeaveTheClock) {
  // 8e6 s is within the 100-day range; two of them on a route are not.
  expect_error({"p2p", "--topology", "ring", "--latency", "8000000s", "--src", "0", "--dst", "4"},
               "route latency: 8000000000000000000 ps + 8000000000000000000 ps is beyond the simulator's range");
  expect_error({"p2p", "--topology", "ring", "--latency", "9000000s"}, "--latency: time '9000000s' is beyond the simulator's range");
  // gamma of 8e6 s per byte on 1 KiB reduced.
  expect_error({"collective", "--gamma", "8000000s", "--size", "1K", "--algorithm", "ring"},
               "reduction time (gamma x bytes)");
  expect_error({"pipeline", "--forward-time", "8000000s", "--microbatches", "2"}, "beyond the simulator's range of 100 days");
  // A valid time close to the limit gives the right answer: 8e6 s + the transfer.
  const CliResult r = run_commsim({"p2p", "--topology-file", datasheet_h100(), "--overhead", "8000000s", "--size", "0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "8000000000000.50");  // o + 0.5 us of latency
}

TEST(CliExtremeInput, ProductsOfSizesAreChecked) {
  // 2^32 x 2^32 once wrapped to "activation 0 B per micro-batch".
  expect_error({"pipeline", "--micro-batch-size", "4294967296", "--seq-length", "4294967296"},
               "activation size (--micro-batch-size x --seq-length x --hidden-size x --dtype-bytes): "
               "4294967296 x 4294967296 B is beyond the simulator's range of 2^62 B");
  // AllToAll's data is every rank's: 8 ranks x 2^62 B.
  expect_error({"collective", "--collective", "alltoall", "--size", "4194304T"},
               "AllToAll data of all ranks (size x ranks): 4611686018427387904 x 8 B is beyond");
}

TEST(CliExtremeInput, TraceSizesAndDurationsBeyondTheRange) {
  const std::string trace = tmp_path("huge-size.textproto");
  write_file(trace, "ranks { nodes { id: 1 send { peer: 1 size: \"18446744073709551615\" } } }\n"
                    "ranks { nodes { id: 2 recv { peer: 0 size: \"18446744073709551615\" } } }\n");
  expect_error({"replay", "--trace", trace}, "18446744073709551615 B is beyond the simulator's range of 2^62 B");
  // Two computes of 60 days each on one rank: each in range, their sum is not.
  const std::string durations = tmp_path("long-computes.textproto");
  write_file(durations, "ranks { nodes { id: 1 compute { duration: \"5184000s\" } }\n"
                        "        nodes { id: 2 deps: 1 compute { duration: \"5184000s\" } } }\n");
  expect_error({"replay", "--trace", durations},
               durations + ": rank 0: node 2: simulated time: 5184000000000000000 ps + 5184000000000000000 ps");
}

TEST(CliExtremeInput, SpecFilesAreAsStrictAsTheCommandLine) {
  const std::string spec = tmp_path("ring-with-dims.textproto");
  write_file(spec, R"(name: "r" builder { kind: RING npus: 4 oversubscription: 2
    link { bandwidth: "1GB/s" latency: "1us" } })");
  expect_error({"topo", "--topology-file", spec},
               spec + ": builder.oversubscription does not apply to a ring builder (only to tree, hierarchical)");
  expect_error({"topo", "--topology", "ring", "--oversubscription", "2"},
               "--oversubscription does not apply to --topology ring (only to tree, hierarchical)");
  const std::string json = tmp_path("twice.json");
  write_file(json, R"({"name": "r", "builder": {"kind": "RING", "npus": 4, "npus": 8,
    "link": {"bandwidth": "1GB/s", "latency": "1us"}}})");
  expect_error({"topo", "--topology-file", json}, json + ": key 'npus' is given twice in 'builder'");
}

TEST(CliExtremeInput, OptionsAndCommandsAreSpelledInFull) {
  expect_error({"collective", "--topology", "ring", "--npu", "8"}, "unrecognised option '--npu'");
  expect_error({"p2p", "--siz", "1K"}, "unrecognised option '--siz'");
  expect_error({"help", "extra"}, "unknown command 'extra'");
  expect_error({"help", "p2p", "collective"}, "help takes one command name, got 2");
  const CliResult help = run_commsim({"help", "p2p"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, run_commsim({"p2p", "--help"}).out);
}

TEST(CliExtremeInput, WorkBeyondReasonIsRefusedUpFront) {
  expect_error({"topo", "--topology", "fully-connected", "--npus", "1000000"},
               "fully-connected topology: 1000000 NPUs need 499999500000 links, about 159999.8 GB of memory; "
               "the limit is 4096 NPUs");
  // Refused before the first line of output, with the estimate.
  const CliResult a2a = run_commsim({"collective", "--collective", "alltoall", "--topology", "switch", "--npus",
                                     "4096", "--size", "64M"});
  EXPECT_EQ(a2a.status, 2);
  EXPECT_EQ(a2a.out, "");
  EXPECT_CONTAINS(a2a.err, "direct alltoall on 4096 ranks with 1 chunk needs about 10.1 GB of memory");
  // The same collective in a trace: refused when the replay reaches it, naming the node.
  const std::string trace = tmp_path("alltoall-4096.pb");
  ASSERT_EQ(run_commsim({"generate", "collective", "--collective", "alltoall", "--ranks", "4096", "--output", trace})
                .status,
            0);
  expect_error({"replay", "--trace", trace, "--topology", "switch", "--npus", "4096"},
               trace + ": rank 4095: node 1 (alltoall): direct alltoall of 4096 ranks with 1 chunk needs about 10.1 GB");
  // A cluster spec scaled to 100,000 GPUs a node: one ring per GPU of a node, each through
  // all 200,000 ranks, refused before the rings are built (they once took minutes and all of
  // memory); its AllToAll has more blocks than 32-bit ids count (was an internal error).
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  const std::vector<std::string> huge = {"--topology-file", cluster, "--gpus-per-node", "100000", "--size", "1K"};
  std::vector<std::string> args = {"collective"};
  args.insert(args.end(), huge.begin(), huge.end());
  expect_error(args, "ring allreduce on 200000 ranks in 100000 rings with 1 chunk needs about 1.28e+03 GB of memory "
                     "(2e+10 rank x channel x chunk programs); the limit is 8.59 GB");
  args.insert(args.end(), {"--collective", "alltoall"});
  expect_error(args, "direct alltoall on 200000 ranks has 40000000000 blocks of data; their ids are 32-bit (at most "
                     "65535 ranks for AllToAll)");
  args = {"p2p", "--pattern", "all-pairs"};
  args.insert(args.end(), huge.begin(), huge.end());
  expect_error(args, "--pattern all-pairs: runs each of the 39999800000 pairs of 200000 NPUs alone; the limit is "
                     "4096 NPUs");
  expect_error({"collective", "--size", "1K", "--chunks", "1048576"},
               "--chunks 1048576 is more than the 1024 bytes of the smallest size: every chunk needs a byte");
  expect_error({"collective", "--size", "1G", "--chunks", "1048576", "--topology", "ring", "--npus", "1024"},
               "ring allreduce on 1024 ranks with 1048576 chunks needs about");
}

TEST(CliExtremeInput, InternalErrorsNameSourceFilesInTheProject) {
  // The message once showed the absolute path of the build machine's source tree.
  Engine engine;
  engine.schedule_at(10, [] {});
  engine.run();
  try {
    engine.schedule_at(5, [] {});
    FAIL() << "expected InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("src/engine/engine.cpp:", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace commsim::testing
