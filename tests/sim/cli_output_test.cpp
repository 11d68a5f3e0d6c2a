// What commsim prints: golden outputs, hand-derived CSV values, determinism.
// Set COMMSIM_UPDATE_GOLDEN=1 to rewrite the golden files after an intended change.

#include <gtest/gtest.h>

#include "run_cli.h"

namespace commsim::testing {
namespace {

// The goldens of the default scenario were generated on the built-in default topology as it
// was then (H100 datasheet figures, no library); they run on that spec, pinned in tests/data/.

TEST(CliOutput, P2pDefaultScenarioGolden) {
  expect_golden({"p2p", "--topology-file", datasheet_h100(), "--sizes", "1:1M"}, "p2p_default.txt");
}

TEST(CliOutput, TopoSummaryGolden) {
  expect_golden({"topo", "--topology", "torus", "--dims", "4x4x4"}, "topo_torus_4x4x4.txt");
}

TEST(CliOutput, AllPairsMatrixGolden) {
  expect_golden({"p2p", "--topology-file", source_path("topologies/pcie-4gpu-box.textproto"),
                 "--pattern", "all-pairs", "--size", "64M"},
                "p2p_all_pairs_pcie.txt");
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST(CliOutput, HalfDuplexBidirectionalCsv) {
  // Two NPUs, one 100 GB/s (10 ps/B), 1 us link. Each direction alone: 1 us + 2^20 * 10 ps
  // = 11.485760 us. Half duplex, both at once: each at 50 GB/s, 1 us + 20.971520 us.
  // sim/model = 21.971520 / 11.485760 = 1.912935670; algbw = 2^20 B / 21.971520 us.
  const std::string csv = tmp_path("bidirectional.csv");
  const CliResult r = run_commsim({"p2p", "--topology", "ring", "--npus", "2", "--bandwidth",
                                   "100GB/s", "--latency", "1us", "--duplex", "half",
                                   "--pattern", "bidirectional", "--size", "1M", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = csv_rows(csv);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"pattern", "src", "dst", "size_bytes", "sim_time_us",
                                                "model_time_us", "sim_over_model", "algbw_GBps"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"bidirectional", "0", "1", "1048576", "21.971520",
                                                "11.485760", "1.912935670", "47.724327"}));
  EXPECT_EQ(rows[2][1], "1");
  EXPECT_EQ(rows[2][4], "21.971520");
}

TEST(CliOutput, ShiftContentionOnARing) {
  // shift:2 on a 4-ring: every message goes two hops the positive way (a tie), so each
  // directed channel carries two flows: 2 us + 2^20 B at 50 GB/s = 22.971520 us, against
  // the idle closed form 2 us + 2^20 B at 100 GB/s = 12.485760 us.
  const std::string csv = tmp_path("shift.csv");
  const CliResult r = run_commsim({"p2p", "--topology", "ring", "--npus", "4", "--bandwidth",
                                   "100GB/s", "--latency", "1us", "--pattern", "shift:2",
                                   "--size", "1M", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = csv_rows(csv);
  ASSERT_EQ(rows.size(), 5u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][4], "22.971520");
    EXPECT_EQ(rows[i][5], "12.485760");
  }
  EXPECT_CONTAINS(r.out, "       22.97");
}

TEST(CliOutput, SameInputGivesByteIdenticalOutput) {
  const std::vector<std::string> args{"p2p", "--topology", "tree", "--npus", "16", "--arity", "4",
                                      "--oversubscription", "2", "--pattern", "shift:5",
                                      "--sizes", "1K:16M", "--csv", tmp_path("det.csv")};
  const CliResult first = run_commsim(args);
  const std::string first_csv = read_file(tmp_path("det.csv"));
  const CliResult second = run_commsim(args);
  EXPECT_EQ(first.status, 0);
  EXPECT_EQ(first.out, second.out);
  EXPECT_EQ(first_csv, read_file(tmp_path("det.csv")));
}

TEST(CliOutput, HelpListsOptions) {
  const CliResult top = run_commsim({"--help"});
  EXPECT_EQ(top.status, 0);
  EXPECT_CONTAINS(top.out, "p2p");
  const CliResult p2p = run_commsim({"p2p", "--help"});
  EXPECT_EQ(p2p.status, 0);
  for (const char* option : {"--pattern", "--sizes", "--overhead", "--csv", "--topology-file",
                             "--duplex", "--nic-bandwidth"}) {
    EXPECT_NE(p2p.out.find(option), std::string::npos) << option;
  }
}

TEST(CliOutput, TopoShowsTheSystemAndItsLibrary) {
  // The H100 preset: its description, and the library it runs with every term.
  const CliResult r = run_commsim({"topo", "--topology-file", source_path("topologies/h100-nvswitch-node.textproto")});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* line : {
           "system        8x H100 SXM5, NVLink4 via NVSwitch, as NCCL sustains it\n",
           "library       nccl\n",
           "  ll          call 6.6 us; step NVLink 600 ns, PCIe 1 us, network 2.7 us; efficiency 0.5; max rate 141 "
           "GB/s; "
           "a ring loops by 32K a channel and rank\n",
           "  ll128       call 14 us; step NVLink 1.9 us, PCIe 2.5 us, network 4 us; efficiency 0.92; a ring loops by "
           "576000 a channel and rank\n",
           "  in-switch   call 0 ps; step NVLink 25 us, PCIe 0 ps, network 20.9 us; efficiency 0.85\n",
           "  p2p         up to 32 channels, starting on 32 halved while x ranks exceeds 32 (4 among 8 ranks), fewer "
           "below 64K a channel, doubled past 16M a channel; 4 per network peer halved while x ceil(ranks / 8) exceeds "
           "32 (4 among 8 ranks); a channel at most 20 GB/s on NVLink, 7.6 GB/s on the network; a send to a "
           "network peer at most 25 GB/s; LL up to 16K a channel\n",
           "  alltoall    bandwidth x 0.96\n",
           "  ll share    allreduce x 0.5, reduce x 0.5, allgather x 0.667, reducescatter x 0.667, broadcast x 0.667 "
           "on ll's efficiency\n",
           "  channels    a collective runs on up to 24, fewer for small sizes\n",
           "  nvls        an in-switch collective runs on 16 channels, whatever its size; an AllReduce on one switch "
           "ends two rounds of NCCL's 16-128 KiB chunks after its flows (pipeline fill)\n",
           "  nvls-tree   ranked beyond two nodes as G heads of at most 45.5 GB/s each across the network (NCCL's "
           "estimate; never a run's time)\n",
           "  plateau     a Ring/Simple AllReduce across nodes ranked at 1.4 x its latency (NCCL's estimate; never a "
           "run's time)\n",
       }) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\nin\n" << r.out;
  }
  // A calibrated spec chooses as the library it was fitted from.
  const std::string calibrated = source_path("results/validation/h100-node-calibrated.textproto");
  const CliResult fitted = run_commsim({"topo", "--topology-file", calibrated});
  ASSERT_EQ(fitted.status, 0) << fitted.err;
  EXPECT_CONTAINS(fitted.out, "library       nccl-calibrated\n");
  EXPECT_CONTAINS(fitted.out, "  estimate    chosen as library nccl would\n");
  // A library of its own algorithms lists them.
  const std::string gloo = tmp_path("gloo-node.textproto");
  write_file(gloo, R"(name: "gloo-node" library { name: "gloo" }
      builder { kind: SWITCH npus: 4 link { bandwidth: "10GB/s" latency: "1us" kind: ETHERNET } })");
  const CliResult own = run_commsim({"topo", "--topology-file", gloo});
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_CONTAINS(own.out,
                  "  algorithms  allreduce ring, allgather ring, broadcast tree, alltoall direct, barrier "
                  "dissemination; one ring or tree of all ranks, from one thread a process\n");
  EXPECT_EQ(own.out.find("plateau"), std::string::npos);  // NCCL's estimate alone has it
}

TEST(CliOutput, TopoWritesGraphviz) {
  const std::string dot = tmp_path("ring.dot");
  const CliResult r = run_commsim({"topo", "--topology", "ring", "--npus", "4", "--dot", dot});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(dot);
  EXPECT_EQ(text.rfind("graph G {", 0), 0u);
  EXPECT_CONTAINS(text, "  0 -- 1 [");
}

}  // namespace
}  // namespace commsim::testing
