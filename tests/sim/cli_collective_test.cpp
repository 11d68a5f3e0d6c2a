// commsim collective: bad input, nccl-tests conventions, golden output.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

#include "base/collectives.h"
#include "run_cli.h"

namespace commsim::testing {
namespace {

CliResult expect_exit_2(const std::vector<std::string>& args, const std::string& fragment) {
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.err.rfind("commsim: error: ", 0), 0u) << r.err;
  EXPECT_CONTAINS(r.err, fragment);
  return r;
}

TEST(CliCollective, BadInput) {
  expect_exit_2({"collective", "--collective", "allscatter"}, "--collective: unknown collective 'allscatter'");
  expect_exit_2({"collective", "--algorithm", "butterfly"}, "--algorithm: unknown algorithm 'butterfly'");
  expect_exit_2({"collective", "--algorithm", "dimensional"},
                "algorithm 'dimensional' needs a mesh or torus, not topology 'h100-nvswitch-node'");
  expect_exit_2({"collective", "--collective", "alltoall", "--algorithm", "ring"},
                "algorithm 'ring' does not implement alltoall");
  expect_exit_2({"collective", "--topology", "ring", "--algorithm", "direct"},
                "algorithm 'direct' runs allreduce only on a switch or fully-connected topology");
  expect_exit_2({"collective", "--chunks", "0"}, "--chunks: '0' is out of range");
  expect_exit_2({"collective", "--gpus-per-thread", "0"}, "--gpus-per-thread: '0' is out of range");
  expect_exit_2({"collective", "--gamma", "-1ps"}, "--gamma: time must not be negative");
  expect_exit_2({"collective", "--root", "3"}, "--root applies to broadcast and reduce only");
  expect_exit_2({"collective", "--collective", "broadcast", "--root", "8"}, "--root: '8' is out of range");
  expect_exit_2({"collective", "--collective", "barrier", "--size", "1M"}, "do not apply to barrier");
  expect_exit_2({"collective", "--topology", "ring", "--npus", "1"}, "needs at least 2 NPUs");
  expect_exit_2({"collective", "--rank-order", "random:x"}, "--rank-order random:SEED");

  const std::string repeated = tmp_path("repeated_rank.txt");
  write_file(repeated, "0 1 2 3\n4 5 5 7\n");
  expect_exit_2({"collective", "--rank-order", repeated}, repeated + ":2: NPU 5 is repeated (first on line 2)");
  const std::string short_file = tmp_path("short_rank_order.txt");
  write_file(short_file, "0 1 2\n");
  expect_exit_2({"collective", "--rank-order", short_file}, "lists 3 NPUs for 8 ranks");
  const std::string out_of_range = tmp_path("rank_out_of_range.txt");
  write_file(out_of_range, "0 1 2 3 4 5 6 8\n");
  expect_exit_2({"collective", "--rank-order", out_of_range}, out_of_range + ":1: NPU of rank 7");
}

std::vector<std::string> csv_line(const std::string& text, std::size_t line) {
  std::istringstream in(text);
  std::string row;
  for (std::size_t i = 0; i <= line; ++i) std::getline(in, row);
  std::vector<std::string> cells;
  std::istringstream fields(row);
  for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
  return cells;
}

TEST(CliCollective, BusBandwidthFollowsNcclTests) {
  // AllReduce on 8 ranks: busbw = algbw x 2(8-1)/8 = algbw x 14/8.
  const std::string csv = tmp_path("allreduce.csv");
  const CliResult r =
      run_commsim({"collective", "--topology-file", datasheet_h100(), "--algorithm", "ring", "--size", "64M", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  // The rows of commsim sweep: point,topology,kind,npus,shape,link_GBps,link_latency_us,
  // nic_GBps,nic_latency_us,library,rank_order,overhead_us,collective,algorithm,protocol,
  // channels,size_bytes,sim_time_us,model_time_us,sim_over_model,lower_bound_us,algbw_GBps,
  // busbw_GBps.
  const auto header = csv_line(read_file(csv), 0);
  ASSERT_EQ(header.size(), 23u);
  EXPECT_EQ(header[17], "sim_time_us");
  const auto row = csv_line(read_file(csv), 1);
  ASSERT_EQ(row.size(), 23u);
  EXPECT_EQ((std::vector<std::string>(row.begin(), row.begin() + 17)),
            (std::vector<std::string>{"0", "h100-nvswitch-node", "switch", "8", "8", "450.000", "0.250", "-",
                                      "-", "ideal", "linear", "0.000", "allreduce", "ring", "-", "1", "67108864"}));
  EXPECT_NEAR(std::stod(row[22]) / std::stod(row[21]), 14.0 / 8, 1e-5);
  // Ring on the NVSwitch node: 14 steps of 0.5 us + 2 x 7/8 x 64 MiB / 450 GB/s. At 450 GB/s
  // a transfer is not a whole number of picoseconds; each of the 14 steps rounds to the
  // clock's 1 ps, so the two agree within 14 ps.
  EXPECT_NEAR(std::stod(row[17]), 14 * 0.5 + 1.75 * 67108864 / 450e9 * 1e6, 14e-6);
  EXPECT_NEAR(std::stod(row[19]), 1.0, 1e-8);

  // AllGather's size is the gathered output, rounded down to p floats as nccl-tests does.
  const CliResult ag = run_commsim({"collective", "--collective", "allgather", "--algorithm", "ring",
                                    "--size", "1000", "--csv", csv});
  ASSERT_EQ(ag.status, 0) << ag.err;
  EXPECT_EQ(csv_line(read_file(csv), 1)[16], "992");
  EXPECT_CONTAINS(ag.out, "         992           31  float");
}

// The golden of the default scenario was generated on the built-in default topology as it
// was then (H100 datasheet figures, no library); it runs on that spec, pinned in tests/data/.

TEST(CliCollective, DefaultScenarioGolden) {
  expect_golden({"collective", "--topology-file", datasheet_h100(), "--sizes", "1K:16M"}, "collective_allreduce_h100.txt");
}

TEST(CliCollective, IdealLibraryIsTheWireAlone) {
  // --library ideal adds nothing: byte for byte the output without it.
  const CliResult r =
      run_commsim({"collective", "--topology-file", datasheet_h100(), "--sizes", "1K:16M", "--library", "ideal"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, read_file(source_path("tests/golden/collective_allreduce_h100.txt")));
}

TEST(CliCollective, NpusOfAOneNodeSpecAreItsGpus) {
  // 4 of the H100 node's GPUs, as a table of 4 ranks on one node measures them: --npus 4 is
  // --gpus-per-node 4 there, byte for byte.
  const std::string node = source_path("topologies/h100-nvswitch-node.textproto");
  const CliResult npus = run_commsim({"collective", "--topology-file", node, "--npus", "4", "--sizes", "1M:1G"});
  ASSERT_EQ(npus.status, 0) << npus.err;
  EXPECT_CONTAINS(npus.out, "allreduce, 4 ranks on h100-nvswitch-node (switch, 4 NPUs)");
  const CliResult gpus = run_commsim({"collective", "--topology-file", node, "--gpus-per-node", "4", "--sizes", "1M:1G"});
  ASSERT_EQ(gpus.status, 0) << gpus.err;
  EXPECT_EQ(npus.out, gpus.out);
}

TEST(CliCollective, AThreadDrivingEightGpusIssuesACallPerChannelItRunsOn) {
  // nccl-tests -g 8 on the A100 node: one thread launches 8 kernels a call, 2.1 + 8 x (4.95 +
  // 0.31 a channel) us: 44.18 us on the one channel NCCL runs a 32 KiB ring LL AllReduce on,
  // above the call's own 22.96 us; 61.54 us on 8 channels at 256 KiB; 101.22 us on all 24 at
  // 1 MiB, where NCCL's estimate keeps to ring LL: 15 + 1.75 n / 60 GB/s = 45.6 us against its
  // tree's (a chain through the 8 GPUs and back) under LL128, 14 + 14 x 1.25 us + 2 n / (240
  // GB/s x 0.92 x 7/9 x 0.6) = 51.9 us, 0.6 its Tree correction at 1 MiB (without it 43.7 us,
  // and the tree). The closed form alike.
  const CliResult r = run_commsim({"collective", "--topology-file", source_path("topologies/a100-nvswitch-node.textproto"),
                                   "--sizes", "32K:1M", "--gpus-per-thread", "8"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "# one thread drives 8 GPUs (nccl-tests -g 8): a call takes at least 41.7 us + 2.48 us per "
                  "channel it runs on\n");
  EXPECT_CONTAINS(
      r.out,
      "       32768         8192  float       ring      ll    1       44.18     0.74     1.30       44.18     "
      "1.0000");
  EXPECT_CONTAINS(r.out, "      262144        65536  float       ring      ll    8       61.54");
  EXPECT_CONTAINS(r.out, "     1048576       262144  float       ring      ll   24      101.22");
  // A library file with more channels than NCCL has: commsim: error, exit 2, before any work.
  const std::string too_many = tmp_path("too-many-channels.textproto");
  write_file(too_many, "name: \"nccl\"\ncollective_channels: 65\n");
  expect_error({"collective", "--library-file", too_many, "--gpus-per-thread", "8"},
               "collective_channels: 65 is more than NCCL's 64");
  write_file(too_many, "name: \"nccl\"\nnvls_channels: 65\n");
  expect_error({"collective", "--library-file", too_many}, "nvls_channels: 65 is more than NCCL's 64");
  // So is --channels past 64 under such a library; under ideal it only counts rings.
  expect_error({"collective", "--library", "nccl", "--channels", "65"},
               "--channels 65: library nccl runs a call on at most 64 channels");
  EXPECT_EQ(run_commsim({"collective", "--library", "ideal", "--channels", "65", "--size", "1K"}).status, 0);
  // send/recv of the 2080 Ti pair driven by one thread (-g 2): at least 10 us.
  const CliResult p2p = run_commsim({"p2p", "--topology-file", source_path("topologies/pcie-2080ti-pair-no-p2p.textproto"),
                                     "--pattern", "shift:1", "--size", "8", "--gpus-per-thread", "2"});
  ASSERT_EQ(p2p.status, 0) << p2p.err;
  EXPECT_CONTAINS(p2p.out, "           8      ll    1        10.00");
}

TEST(CliCollective, ASpecSaysHowManyGpusAThreadDrives) {
  // The A100 node preset, `gpus_per_thread: 8` in its library block, runs as
  // --gpus-per-thread 8 does on the same node without it: the same table, 44.18 us at
  // 32 KiB; --gpus-per-thread 1 (a process a GPU) overrides it, leaving the call's own
  // 22.96 us above one thread's 2.1 + 5.26 us.
  const std::string driven = source_path("topologies/a100-nvswitch-node.textproto");
  const std::string preset = tmp_path("a100-a-process-a-gpu.textproto");
  std::string text = read_file(driven);
  const std::string library = "library { name: \"nccl-ampere\" gpus_per_thread: 8 }";
  ASSERT_NE(text.find(library), std::string::npos);
  text.replace(text.find(library), library.size(), "library { name: \"nccl-ampere\" }");
  write_file(preset, text);
  const CliResult flag =
      run_commsim({"collective", "--topology-file", preset, "--sizes", "32K:1M", "--gpus-per-thread", "8"});
  const CliResult spec = run_commsim({"collective", "--topology-file", driven, "--sizes", "32K:1M"});
  ASSERT_EQ(spec.status, 0) << spec.err;
  EXPECT_EQ(spec.out, flag.out);
  EXPECT_CONTAINS(spec.out, "       32768         8192  float       ring      ll    1       44.18");
  const CliResult one =
      run_commsim({"collective", "--topology-file", driven, "--size", "32K", "--gpus-per-thread", "1"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_CONTAINS(one.out, "# one thread drives 1 GPU (nccl-tests -g 1)");
  EXPECT_CONTAINS(one.out, "       32768         8192  float       ring      ll    1       22.96");
  // topo names it among the profile's terms; send/recv takes it alike.
  const CliResult topo = run_commsim({"topo", "--topology-file", driven});
  ASSERT_EQ(topo.status, 0) << topo.err;
  EXPECT_CONTAINS(topo.out, "  driven      one host thread launches each call on 8 GPUs (as nccl-tests -g 8");
  const CliResult p2p_flag =
      run_commsim({"p2p", "--topology-file", preset, "--pattern", "shift:1", "--size", "8", "--gpus-per-thread", "8"});
  const CliResult p2p_spec = run_commsim({"p2p", "--topology-file", driven, "--pattern", "shift:1", "--size", "8"});
  ASSERT_EQ(p2p_spec.status, 0) << p2p_spec.err;
  EXPECT_EQ(p2p_spec.out, p2p_flag.out);
}

TEST(CliCollective, AChannelOfACollectiveMovesAtMostItsRateAcrossTheNetwork) {
  // Two nodes of 8 H100s, 8 NICs of 48.5 GB/s: NCCL runs a ring AllGather of 1 GiB on 16
  // channels, 2 a NIC, each at most 20 GB/s across the network (Hopper's, nccl issue 1221),
  // so 320 GB/s where the NICs carry 388: 8.4 us + 15 x (14 + 1) us + 15/16 GiB / 320 GB/s =
  // 3379.13 us, the simulator's 8 rings (2 channels each, 40 GB/s) as the closed form. With 4
  // GPUs a node a channel needs 12.1 GB/s and the NICs bound it: 4 x 48.5 = 194 GB/s.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  const std::vector<std::string> ring{"--collective", "allgather",  "--size", "1G",       "--algorithm",
                                      "ring",         "--protocol", "simple", "--verbose"};
  std::vector<std::string> eight{"collective", "--topology-file", cluster};
  eight.insert(eight.end(), ring.begin(), ring.end());
  const CliResult r = run_commsim(eight);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "  1073741824     16777216  float  simple   16     3379.13   317.76   297.90     3379.13     1.0000");
  EXPECT_CONTAINS(r.out, "# all-gather: 15 x 15 us + 1006632960 B / 320 GB/s");
  // LL128's lines cross the network as they are, flags and all: of data a channel moves
  // 120/128 of its 20 GB/s, 300 GB/s on the 16 channels. Its 8 loops make each NVLink hop
  // wait 8 x 1.9 us, but a step's network hop, 4 us + 2 x 500 ns of wire and its slower
  // bytes, ends last: 14 us + 15 x 5 us + 15/16 GiB / 300 GB/s = 3444.44 us, as simulated.
  std::vector<std::string> ll128 = eight;
  ll128[std::find(ll128.begin(), ll128.end(), "simple") - ll128.begin()] = "ll128";
  const std::string ll128_out = run_commsim(ll128).out;
  EXPECT_CONTAINS(ll128_out, "# all-gather: 15 x 5 us + 1006632960 B / 300 GB/s");
  EXPECT_CONTAINS(ll128_out,
                  "  1073741824     16777216  float   ll128   16     3444.44   311.73   292.25     3444.44     1.0000");
  std::vector<std::string> four = eight;
  four.insert(four.end(), {"--gpus-per-node", "4"});
  EXPECT_CONTAINS(run_commsim(four).out, "# all-gather: 7 x 15 us + 939524096 B / 194 GB/s");
  // A library block's own rate replaces the built-in's: 16 x 10 GB/s.
  const std::string slower = tmp_path("hopper-slower-channels.textproto");
  write_file(slower, "name: \"nccl-hopper-multinode\"\nnet_channel_rate: \"10GB/s\"\ncollective_channels: 16\n");
  std::vector<std::string> with_file = eight;
  with_file.insert(with_file.end(), {"--library-file", slower});
  const CliResult s10 = run_commsim(with_file);
  ASSERT_EQ(s10.status, 0) << s10.err;
  EXPECT_CONTAINS(s10.out, "# all-gather: 15 x 15 us + 1006632960 B / 160 GB/s");
  EXPECT_CONTAINS(run_commsim({"topo", "--topology-file", cluster}).out,
                  "  net channel a collective's channel (ring, tree, chain) moves at most 20 GB/s across the network");
}

TEST(CliCollective, ALibraryDiscardsACollectiveOfNoElements) {
  // AllGather of 16 B on 8 ranks is 0 floats a rank: NCCL returns before it launches anything
  // (src/enqueue.cc), so under the node's library the call takes no time, even with one thread
  // driving the 8 GPUs; 32 B (a float a rank) runs ring LL: 6.6 + 7 x (0.6 + 0.5) = 14.3 us.
  // Under ideal the zero-byte ring still takes its 7 steps' wire latency, 7 x 0.5 us.
  const CliResult r = run_commsim(
      {"collective", "--collective", "allgather", "--sizes", "16:32", "--verbose", "--gpus-per-thread", "8"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "           0            0  float       ring      ll    1        0.00     0.00     0.00        0.00");
  EXPECT_CONTAINS(r.out, "# model at 0 B:\n# no elements: library nccl discards the call, which takes no time\n");
  EXPECT_CONTAINS(
      r.out, "          32            1  float       ring      ll    1       44.18");  // the thread's 2.1 + 8 x 5.26
  const CliResult ideal = run_commsim(
      {"collective", "--collective", "allgather", "--size", "16", "--library", "ideal", "--algorithm", "ring"});
  ASSERT_EQ(ideal.status, 0) << ideal.err;
  EXPECT_CONTAINS(ideal.out, "           0            0  float        3.50");
}

TEST(CliCollective, NcclLibraryShowsTheProtocolOfEachSize) {
  const CliResult r = run_commsim(
      {"collective", "--topology-file", datasheet_h100(), "--algorithm", "ring", "--library", "nccl", "--sizes", "1K:1G"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# library: nccl, protocol auto (the fastest by the library's estimate)");
  EXPECT_CONTAINS(r.out, "+ L_call");
  // 1 KiB on 8 GPUs: LL, 6.6 us + 14 x (0.6 us + 0.5 us of NVSwitch hops) + 14 x 128 B at
  // min(0.25 x 450, 141) GB/s (an AllReduce's LL moves a quarter of the link) = 22.0 + 0.0159
  // = 22.02 us.
  EXPECT_CONTAINS(r.out, "        1024          256  float      ll    1       22.02");
  EXPECT_CONTAINS(r.out, "  1073741824    268435456  float  simple");
  const CliResult forced = run_commsim({"collective", "--topology-file", datasheet_h100(), "--algorithm", "ring",
                                        "--library", "nccl", "--protocol", "LL128", "--size", "1K"});
  EXPECT_CONTAINS(forced.out, "float   ll128");
  const CliResult verbose = run_commsim({"collective", "--algorithm", "ring", "--size", "1K", "--verbose"});
  EXPECT_CONTAINS(verbose.out,
                  "# library nccl, ll: call 6.6 us; step NVLink 600 ns, PCIe 1 us, network 2.7 us; "
                  "efficiency 0.25; max rate 141 GB/s; a ring loops by 32K a channel and rank\n");
  EXPECT_CONTAINS(verbose.out, "\n# library call: 1 x 6.6 us");
  // Every line of the report that is not a table row is a # comment, verbose ones too.
  std::istringstream lines(verbose.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(line[line.find_first_not_of(' ')]))) << line;  // a row
  }
  // A library that really costs 100 us more per LL call but keeps NCCL's estimate runs LL
  // at 1 KiB, as NCCL would, at the real cost: 100 us more than the 22.02 above.
  const std::string slow_ll = tmp_path("slow-ll-library.textproto");
  const auto ll = [](const std::string& call) {
    return "protocols { protocol: LL call_latency: \"" + call +
           "\" nvlink_step: \"0.6us\" pcie_step: \"1us\" net_step: \"2.7us\" efficiency: 0.5 "
           "max_bandwidth: \"141GB/s\" }\n";
  };
  const std::string simple =
      "protocols { protocol: SIMPLE call_latency: \"8.4us\" nvlink_step: \"3.4us\" pcie_step: \"5.7us\" "
      "net_step: \"14us\" efficiency: 1 }\n";
  const std::string quarter = "ll_share { collective: \"allreduce\" factor: 0.5 }\n";
  write_file(slow_ll, "name: \"slow-ll\"\n" + ll("106.6us") + simple + quarter + "estimate { name: \"nccl-estimate\"\n" +
                          ll("6.6us") + simple + quarter + "}\n");
  const CliResult estimated = run_commsim({"collective", "--topology-file", datasheet_h100(), "--algorithm", "ring",
                                           "--library-file", slow_ll, "--size", "1K", "--verbose"});
  ASSERT_EQ(estimated.status, 0) << estimated.err;
  EXPECT_CONTAINS(estimated.out, "        1024          256  float      ll    1      122.02");
  EXPECT_CONTAINS(estimated.out, "# chosen by the estimate of library nccl-estimate\n");
  expect_error({"collective", "--library", "mpich"},
               "--library: unknown library 'mpich' (known: ideal, nccl, nccl-volta, nccl-ampere, nccl-blackwell, "
               "nccl-hopper-multinode, nccl-ampere-multinode, nccl-blackwell-multinode, gloo)");
  expect_error({"collective", "--topology", "switch", "--protocol", "ll"},
               "--protocol ll: the ideal library has no protocols (give --library nccl)");
  expect_error({"collective", "--library", "nccl", "--protocol", "fast"}, "--protocol: unknown protocol 'fast'");
}

TEST(CliCollective, NcclAlgorithmIsWhatNcclWouldPick) {
  // Under a library profile the default is --algorithm nccl: per size, the (algorithm,
  // protocol) of least closed-form time. On 8 GPUs at 450 GB/s the ring under LL costs
  // 6.6 + 14 x (0.6 + 0.5) = 22.0 us + 1.75 n / 112.5 GB/s (a quarter of the link); under Simple 8.4 + 14 x (3.4 +
  // 0.5) = 63.0 us + 1.75 n / 450 GB/s; LL128 14 + 14 x (1.9 + 0.5) = 47.6 us + 1.75 n /
  // 414 GB/s. LL wins to 2 MiB, LL128 from 4 to 32 MiB, Simple from 64 MiB on. At 1 GiB the
  // ring runs 3 loops of 24 channels x 8 ranks x 2 MiB, its 14 steps waiting 3.4 us each
  // loop: 2 x 14 x 3.4 = 95.2 us above NCCL's one-loop estimate of 4238.66 us.
  // NCCL's formula alone: the library without its one-node ramp (a single size turns it off).
  const std::string no_ramp = tmp_path("nccl-without-ramp.textproto");
  write_file(no_ramp, "name: \"nccl\"\none_node_ramp { size: \"16GiB\" ratio: 1 }\n");
  const CliResult r = run_commsim({"collective", "--topology-file", datasheet_h100(), "--library-file", no_ramp, "--sizes", "1M:1G"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# algorithm nccl: model of the algorithm NCCL would pick");
  EXPECT_CONTAINS(r.out, "     1048576       262144  float       ring      ll   24       38.31");
  EXPECT_CONTAINS(r.out, "  1073741824    268435456  float       ring  simple   24     4333.86");
  // The same choice on request, and the protocol may still be forced: under Simple the ring,
  // 8.4 + 14 x (3.4 + 0.5) us + 1.75 n / 450 GB/s = 67.08 us at 1 MiB, beats NCCL's tree,
  // on one node a chain through its 8 GPUs and back, 14 steps of 4.0 + 0.5 us.
  const CliResult forced = run_commsim({"collective", "--topology-file", datasheet_h100(), "--library", "nccl",
                                        "--algorithm", "nccl", "--protocol", "simple", "--size", "1M"});
  EXPECT_CONTAINS(forced.out, "float       ring  simple   24       67.08");
}

TEST(CliCollective, GlooRunsItsOwnRingFromOneThread) {
  // Gloo on 2 nodes of 8 H100s: one ring of the 16 ranks (no rings at once through the
  // GPUs of a node), its own AllReduce algorithm. 2(p-1) = 30 steps of 177 us and the ring's
  // slowest hop, node 0's GPU 7 to node 1's GPU 0 (4 hops, 1.5 us), and 2 x 15/16 x 16 MiB
  // at 1.159 GB/s: 30 x 178.5 us + 31457280 B / 1.159 GB/s = 5355 + 27141.74 = 32496.74 us.
  const CliResult r = run_commsim({"collective", "--topology-file", source_path("topologies/h100-ib-cluster.textproto"),
                                   "--nodes", "2", "--library", "gloo", "--size", "16M"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "rings at once 1");
  EXPECT_CONTAINS(r.out, "# algorithm nccl: model of the algorithm gloo runs (its own for the collective");
  EXPECT_CONTAINS(r.out, "    16777216      4194304  float       ring  simple    1    32496.74");
}

TEST(CliCollective, OneNodeRampBoundsACallByItsTimeAtTheLastSize) {
  // On one NVLink node a call takes at least its time at 16 GiB scaled to its size, over
  // SimAI's ramp there (nvlink_ratio.csv, one machine: 0.55 at 32 MiB over 0.81 at 16 GiB).
  // The H100 node's ring AllGather under Simple: 41575.71 us at 16 GiB (the run's closed
  // form), so at 32 MiB at least 41575.71 / 512 / (0.55 / 0.81) = 119.59 us, above the
  // formula's 8.4 + 7 x (3.4 + 0.5) + 7/8 x 32 MiB / 370.8 GB/s = 35.7 + 79.18 = 114.88 us;
  // at 16 GiB itself the formula alone.
  const std::string node = source_path("topologies/h100-nvswitch-node.textproto");
  const std::vector<std::string> ring = {"collective", "--topology-file", node, "--collective", "allgather",
                                         "--algorithm", "ring", "--protocol", "simple"};
  auto at = [&](const char* size) {
    std::vector<std::string> args = ring;
    args.insert(args.end(), {"--size", size});
    const CliResult r = run_commsim(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  };
  const std::string top = at("16G");
  EXPECT_CONTAINS(top, " 17179869184    536870912  float  simple   24    41575.71");
  const std::string mid = at("32M");
  EXPECT_CONTAINS(mid, "    33554432      1048576  float  simple   24      119.59");
  EXPECT_CONTAINS(mid, "1.0000");  // sim and model alike
  std::vector<std::string> verbose = ring;
  verbose.insert(verbose.end(), {"--size", "32M", "--verbose"});
  const CliResult why = run_commsim(verbose);
  EXPECT_CONTAINS(why.out,
                  "# one-node ramp: a call takes at least its time at 16G scaled to 33554432 B, over 0.679: "
                  "119.59 us\n");
  // Below the ramp's first size (16 MiB), or with the ramp off: the formula alone, 35.7 us +
  // 7/8 x 8 MiB / 370.8 GB/s = 55.50 us at 8 MiB.
  const std::string small = at("8M");
  EXPECT_CONTAINS(small, "     8388608       262144  float  simple   24       55.50");
  const std::string no_ramp = tmp_path("no-ramp.textproto");
  write_file(no_ramp, "name: \"nccl\"\none_node_ramp { size: \"16GiB\" ratio: 1 }\n");
  std::vector<std::string> off = ring;
  off.insert(off.end(), {"--library-file", no_ramp, "--size", "32M", "--verbose"});
  const CliResult formula = run_commsim(off);
  EXPECT_CONTAINS(formula.out, "    33554432      1048576  float  simple   24      114.88");
  EXPECT_EQ(formula.out.find("one-node ramp"), std::string::npos) << formula.out;  // nor says it bounds
  EXPECT_EQ(run_commsim({"topo", "--topology-file", node, "--library-file", no_ramp}).out.find("one node"),
            std::string::npos);
  // topo lists the ramp among the profile's terms.
  const CliResult named = run_commsim({"topo", "--topology-file", node});
  EXPECT_CONTAINS(named.out,
                  "  one node    a collective on NVLink alone takes at least its time at 16G scaled to its "
                  "size and divided by the ramp: 16M 0.556, 32M 0.679, 64M 0.802");
  // A ramp out of order, or a ratio past 1: commsim: error, exit 2.
  write_file(no_ramp, "name: \"nccl\"\none_node_ramp { size: \"1G\" ratio: 0.5 } one_node_ramp { size: \"1M\" ratio: 1 }\n");
  expect_error({"collective", "--library-file", no_ramp},
               no_ramp + ".one_node_ramp[1].size (1M) is not above the size before it: give sizes in increasing order");
  write_file(no_ramp, "name: \"nccl\"\none_node_ramp { size: \"1G\" ratio: 1.5 }\n");
  expect_error({"collective", "--library-file", no_ramp}, "one_node_ramp[0].ratio must be in (0, 1], got 1.5");
  write_file(no_ramp,
             "name: \"nccl\"\nestimate { name: \"nccl\" one_node_ramp { size: \"1G\" ratio: 0.5 } }\n");
  expect_error({"collective", "--library-file", no_ramp},
               no_ramp + ".estimate.one_node_ramp: an estimate has no ramp (NCCL's ranking knows none)");
}

TEST(CliCollective, NcclRanksItsTreeByItsOwnEstimate) {
  // NCCL ranks its tree by the fill's latency and the bytes at the steady rate (tuning.cc);
  // 64 nodes of 8 Hopper GPUs run TREE/LL128 at 16 MiB and NVLS_TREE from 32 MiB
  // (NCCL_DEBUG=INFO in NVIDIA/nccl issue 1752: "AllReduce: 16777216 Bytes -> Algo TREE proto
  // LL128", "33554432 Bytes -> Algo NVLS_TREE proto SIMPLE"). Ranked by the run's form with
  // its fill, the tree lost to NVLS-tree from 1 MiB; by NCCL's it keeps to 8 MiB.
  const CliResult r = run_commsim({"collective", "--topology-file", source_path("topologies/h100-ib-cluster.textproto"),
                                   "--nodes", "64", "--sizes", "1M:32M"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* row : {"     1048576       262144  float       tree   ll128   16",
                          "     8388608      2097152  float       tree   ll128   16",
                          "    33554432      8388608  float  nvls-tree  simple   16"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }
}

TEST(CliCollective, NcclRunsItsTreeAcrossNodesOfOneGpu) {
  // One H100 a node, 32 MiB (n): NCCL's estimates of its two best, both LL128 (a step's
  // latency the whole hop's). Ring: 14 us + 2(N-1) x 4 us + 2 (N-1)/N n / (0.92 x 48.5 GB/s);
  // tree: 14 us + 2D x 8.5 us + 2n / (0.8625 x 48.5 GB/s x 0.9), 2n through the busiest NIC,
  // D = log2 N, 0.9 NCCL's Tree correction for LL128 at 32 MiB:
  //   16 nodes: ring 1,544 us, tree 1,865 us: ring;
  //   64 nodes: ring 1,999 us, tree 1,899 us: the tree, pipelined (before, one GPU a node ran
  //   the double binary tree in one piece, which NCCL's estimate never chose).
  for (const auto& [nodes, row] : {std::pair{"16", "    33554432      8388608  float       ring   ll128   16"},
                                   {"64", "    33554432      8388608  float       tree   ll128   16"}}) {
    const CliResult r =
        run_commsim({"collective", "--topology-file", source_path("topologies/h100-ib-cluster.textproto"), "--nodes",
                     nodes, "--gpus-per-node", "1", "--size", "32M"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_CONTAINS(r.out, row);
  }
}

TEST(CliCollective, ACountOfGpusScalesAClusterSpecToWholeNodes) {
  // --npus 80 on a cluster of 8 GPUs a node is --nodes 10, as a measured table's rank count
  // says it; with --gpus-per-node 4, 20 nodes of 4.
  const std::string cluster = source_path("topologies/h100-ib-cluster.textproto");
  for (const auto& [npus, nodes, per_node] : {std::tuple{"80", "10", "8"}, {"80", "20", "4"}}) {
    const std::vector<std::string> common = {"collective", "--topology-file", cluster, "--sizes", "1M:1G"};
    std::vector<std::string> by_count = common, by_nodes = common;
    by_count.insert(by_count.end(), {"--npus", npus});
    if (std::string(per_node) != "8") by_count.insert(by_count.end(), {"--gpus-per-node", per_node});
    by_nodes.insert(by_nodes.end(), {"--nodes", nodes, "--gpus-per-node", per_node});
    const CliResult counted = run_commsim(by_count), scaled = run_commsim(by_nodes);
    ASSERT_EQ(counted.status, 0) << counted.err;
    EXPECT_EQ(counted.out, scaled.out);
    EXPECT_CONTAINS(counted.out, std::string("80 ranks on h100-ib-cluster (hierarchical, ") + nodes + " nodes x " +
                                     per_node + " GPUs");
  }
}

TEST(CliCollective, SaysWhyNcclLeavesNvlsOutOnTwoGpus) {
  // 2 GPUs of the H100 node: rings, and a header line says why; 8: NVLS, no such line.
  const std::string node = source_path("topologies/h100-nvswitch-node.textproto");
  const CliResult two = run_commsim({"collective", "--topology-file", node, "--gpus-per-node", "2", "--size", "1G"});
  ASSERT_EQ(two.status, 0) << two.err;
  EXPECT_CONTAINS(two.out,
                  "# NVLS: not NCCL's choice with 2 GPUs or fewer a node (ncclNvlsInit turns it off); "
                  "--algorithm nvls runs it\n");
  EXPECT_CONTAINS(two.out, "  1073741824    268435456  float       ring ");
  const CliResult eight = run_commsim({"collective", "--topology-file", node, "--size", "1G"});
  ASSERT_EQ(eight.status, 0) << eight.err;
  EXPECT_EQ(eight.out.find("# NVLS:"), std::string::npos);
  EXPECT_CONTAINS(eight.out, "  1073741824    268435456  float       nvls ");
}

TEST(CliCollective, EachRowSaysTheChannelsItRunsOn) {
  // As NCCL_DEBUG=INFO's channel{Lo..Hi}: a ring LL AllReduce on 8 ranks runs on one channel
  // per 512 threads x 64 B = 32 KiB (1 at 32 KiB, 8 at 256 KiB), all 24 of the H100
  // communicator from 768 KiB; NVLS on its own 16 (NVLS_NCHANNELS_SM90) at any size.
  const CliResult r = run_commsim({"collective", "--sizes", "32K:64M"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "       32768         8192  float       ring      ll    1 ");
  EXPECT_CONTAINS(r.out, "      131072        32768  float       ring      ll    4 ");
  EXPECT_CONTAINS(r.out, "      262144        65536  float       ring      ll    8 ");
  EXPECT_CONTAINS(r.out, "     1048576       262144  float       nvls  simple   16 ");
  EXPECT_CONTAINS(r.out, "    67108864     16777216  float       nvls  simple   16 ");
  // --channels 4 caps the communicator (NCCL_MAX_CTAS=4), NVLS's too; and a thread driving
  // 8 A100s launches 4 channels a GPU at 256 KiB, not 8: 2.1 + 8 x (4.95 + 4 x 0.31) =
  // 51.62 us, not 61.54.
  const CliResult capped = run_commsim({"collective", "--sizes", "64K:64M", "--channels", "4"});
  ASSERT_EQ(capped.status, 0) << capped.err;
  EXPECT_CONTAINS(capped.out, "       65536        16384  float       ring      ll    2 ");
  EXPECT_CONTAINS(capped.out, "    67108864     16777216  float       nvls  simple    4 ");
  const CliResult thread = run_commsim({"collective", "--topology-file", source_path("topologies/a100-nvswitch-node.textproto"),
                                        "--size", "256K", "--gpus-per-thread", "8", "--channels", "4"});
  ASSERT_EQ(thread.status, 0) << thread.err;
  EXPECT_CONTAINS(thread.out, "      262144        65536  float       ring      ll    4       51.62");
}

TEST(CliP2p, NcclLibraryIsOneCallPerSendRecv) {
  // 1 KiB one-way on the switch of 8 GPUs (450 GB/s, two hops of 250 ns), on 1 channel (a
  // channel carries at least 64 KiB) and under LL's 16 KiB per channel: 6.6 + 0.6 + 0.5 us +
  // 1024 B at min(0.5 x 450, 141, 1 x 20) GB/s = 7.7 + 0.0512 = 7.75 us.
  const CliResult r = run_commsim({"p2p", "--library", "nccl", "--topology", "switch", "--size", "1K"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "        1024      ll    1         7.75");
  // 1 MiB is over LL's threshold: Simple, 8.4 + 3.4 + 0.5 us + 1 MiB at 4 x 20 GB/s = 25.41 us.
  const CliResult simple = run_commsim({"p2p", "--library", "nccl", "--topology", "switch", "--size", "1M"});
  EXPECT_CONTAINS(simple.out, "     1048576  simple    4        25.41");
  EXPECT_CONTAINS(r.out, "1.0000");
  expect_error({"p2p", "--library", "nccl", "--library-file", "x"}, "give either --library or --library-file, not both");
  // Only commands that run rings take --channels: elsewhere it would be silently ignored.
  expect_error({"p2p", "--channels", "4"}, "unrecognised option '--channels'");
}

TEST(CliCollective, VerifyAndVerboseReport) {
  const CliResult r = run_commsim({"collective", "--collective", "reducescatter", "--algorithm", "ring",
                                   "--size", "1M", "--verify", "--verbose", "--gamma", "100GB/s"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# data check: every rank ends with the data reducescatter defines");
  EXPECT_CONTAINS(r.out, "# model at 1048576 B:");
  EXPECT_CONTAINS(r.out, "gamma: 10 ps/B");
}

TEST(CliCollective, AllAlgorithmsNamesTheFastest) {
  const CliResult r = run_commsim({"collective", "--collective", "alltoall", "--algorithm", "all", "--size", "1M"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "# algorithm pairwise");
  EXPECT_CONTAINS(r.out, "# fastest algorithm at each size");
  EXPECT_CONTAINS(r.out, "direct");
}

// Each row of `collective --csv` at `args`: its algorithm and sim/model.
std::vector<std::pair<std::string, double>> algorithm_and_ratio(std::vector<std::string> args) {
  const std::string csv = tmp_path("preset-agreement.csv");
  args.insert(args.begin(), "collective");
  args.insert(args.end(), {"--sizes", "4K:256M", "--quiet", "--csv", csv});
  const CliResult r = run_commsim(args);
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<std::pair<std::string, double>> rows;
  std::istringstream lines(read_file(csv));
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    const auto row = csv_line(line, 0);
    rows.emplace_back(row.at(13), std::stod(row.at(19)));
  }
  EXPECT_EQ(rows.size(), 17u);  // 4 KiB, 8 KiB, ... 256 MiB
  return rows;
}

TEST(CliCollective, ShippedPresetsRunAtTheirClosedFormOnAnIdleNetwork) {
  // Every shipped system under its own library, NCCL's choice at every size from 4 KiB to
  // 256 MiB, every collective: on an idle network the simulator is the closed form (1e-6:
  // the clock's picoseconds), so sim/model means contention alone; the rail-aligned chains
  // of Broadcast and Reduce across nodes and NCCL's trees with their chunks too, each at its
  // channel's fixed rate. A cluster of one node runs its rings round one cycle, in step, as a
  // node's preset does.
  const std::vector<std::vector<std::string>> presets{
      {"--topology-file", source_path("topologies/h100-nvswitch-node.textproto")},
      {"--topology-file", source_path("topologies/a100-nvswitch-node.textproto")},
      {"--topology-file", source_path("topologies/b200-nvswitch-node.textproto")},
      {"--topology-file", source_path("topologies/pcie-2080ti-pair-no-p2p.textproto")},
      {"--topology-file", source_path("topologies/h100-ib-cluster.textproto"), "--nodes", "1"},
      {"--topology-file", source_path("topologies/h100-ib-cluster.textproto"), "--nodes", "2"},
      {"--topology-file", source_path("topologies/h100-ib-cluster.textproto"), "--nodes", "3", "--gpus-per-node", "4"},
      {"--topology-file", source_path("topologies/a100-ib-cluster.textproto"), "--nodes", "2"},
      {"--topology-file", source_path("topologies/b200-ib-cluster.textproto"), "--nodes", "2"},
  };
  for (const std::vector<std::string>& preset : presets) {
    for (const CollectiveKind kind :
         {CollectiveKind::kAllReduce, CollectiveKind::kAllGather, CollectiveKind::kReduceScatter,
          CollectiveKind::kAllToAll, CollectiveKind::kBroadcast, CollectiveKind::kReduce}) {
      std::vector<std::string> args = preset;
      args.insert(args.end(), {"--collective", std::string(collective_name(kind))});
      SCOPED_TRACE(args[1] + " " + args.back());
      for (const auto& [algorithm, ratio] : algorithm_and_ratio(args)) EXPECT_NEAR(ratio, 1.0, 1e-6) << algorithm;
    }
  }
}

TEST(CliCollective, HelpPrintsTheTableTheSimulatorAndModelRead) {
  // One line per algorithm: its name, then the collectives base/collectives.h says it
  // implements.
  const CliResult r = run_commsim({"collective", "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const AlgorithmKind a : all_algorithms()) {
    const std::string name(algorithm_name(a));
    const std::string line = "\n  " + name + std::string(20 - name.size(), ' ') +
                             collective_names(implemented_collectives(a)) + "\n";
    EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  }
}

}  // namespace
}  // namespace commsim::testing
