// commsim topo --import-nvidia-smi: a spec that loads back, and every bad input an error
// with nothing written.

#include <gtest/gtest.h>

#include <filesystem>

#include "run_cli.h"

namespace commsim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kHgxH100 = source_path("tests/data/nvidia-smi-topo-hgx-h100-8nic.txt");
const std::string kSixGpu = source_path("tests/data/nvidia-smi-topo-pcie-6gpu-2socket.txt");

TEST(CliImport, WritesASpecThatLoadsBack) {
  const std::string spec = tmp_path("imported-h100.textproto");
  fs::remove(spec);
  const CliResult r = run_commsim({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "h100", "--output", spec});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "NPUs          8\n");
  EXPECT_CONTAINS(r.out, "peer access   all pairs\n");
  EXPECT_CONTAINS(r.out, "spec          " + spec + "\n");
  EXPECT_EQ(read_file(spec).rfind("# Imported from " + kHgxH100, 0), 0u);

  const CliResult loaded = run_commsim({"topo", "--topology-file", spec});
  ASSERT_EQ(loaded.status, 0) << loaded.err;
  // The same summary, less the line naming the written file.
  EXPECT_EQ(loaded.out + "spec          " + spec + "\n", r.out);
  // And it runs: a collective on the imported node.
  EXPECT_EQ(run_commsim({"collective", "--topology-file", spec, "--size", "1M"}).status, 0);
}

TEST(CliImport, SummaryListsPairsWithoutPeerAccess) {
  const std::string spec = tmp_path("imported-6gpu.textproto");
  const CliResult r = run_commsim({"topo", "--import-nvidia-smi", kSixGpu, "--gpu", "2080ti", "--output", spec});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "peer access   none for 13 of 15 pairs: gpu0-gpu2, gpu0-gpu3, gpu0-gpu4, gpu0-gpu5, "
                  "gpu1-gpu2, gpu1-gpu3, ...\n");
  // The GPUs' NCCL profile whole, and a line saying NCCL's choice leaves its LL128 out here
  // (no two GPUs share NVLink); on the H100 node, which has NVLink, no such line.
  EXPECT_CONTAINS(r.out, "library       nccl-volta\n");
  EXPECT_CONTAINS(r.out, "  (no ll128 in NCCL's choice here: GPUs on PCIe, no NVLink)\n");
  const CliResult nvlink = run_commsim({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "h100"});
  ASSERT_EQ(nvlink.status, 0) << nvlink.err;
  EXPECT_EQ(nvlink.out.find("no ll128"), std::string::npos);
  // A collective on it says why no row runs LL128, and runs it when --protocol asks.
  const CliResult auto_protocol = run_commsim({"collective", "--topology-file", spec, "--sizes", "64K:4M"});
  ASSERT_EQ(auto_protocol.status, 0) << auto_protocol.err;
  EXPECT_CONTAINS(auto_protocol.out,
                  "# LL128: not NCCL's choice where GPUs talk over PCIe, no NVLink (tuning.cc); --protocol ll128 "
                  "runs it\n");
  EXPECT_EQ(auto_protocol.out.find("ll128"), auto_protocol.out.rfind("ll128"))
      << auto_protocol.out;  // the line's alone
  const CliResult ll128 = run_commsim({"collective", "--topology-file", spec, "--size", "1M", "--protocol", "ll128"});
  ASSERT_EQ(ll128.status, 0) << ll128.err;
  EXPECT_EQ(ll128.out.find("# LL128:"), std::string::npos);
  EXPECT_CONTAINS(ll128.out, " ll128 ");
}

TEST(CliImport, WithoutOutputTheSpecGoesToStandardOutput) {
  const CliResult r = run_commsim({"topo", "--import-nvidia-smi", kSixGpu, "--gpu", "2080ti"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# Imported from", 0), 0u);
  EXPECT_CONTAINS(r.out, "\ngraph {\n");
  EXPECT_EQ(run_commsim({"topo", "--import-nvidia-smi", kSixGpu, "--gpu", "2080ti", "--output", "-"}).out, r.out);
}

TEST(CliImport, BadInputIsAnErrorAndWritesNothing) {
  const std::string spec = tmp_path("not-written.textproto");
  const std::string bad = tmp_path("bad-topo.txt");
  write_file(bad, "        GPU0    GPU1    CPU Affinity\nGPU0     X      PIX     0-7\nGPU1    PXB      X      0-7\n");
  const auto expect_nothing_written = [&](std::vector<std::string> args, const std::string& fragment) {
    fs::remove(spec);
    args.insert(args.end(), {"--output", spec});
    expect_error(args, fragment);
    EXPECT_FALSE(fs::exists(spec)) << fragment;
  };
  expect_nothing_written({"topo", "--import-nvidia-smi", kHgxH100},
                         "--import-nvidia-smi needs --gpu NAME, the GPUs' generation (v100, a100, h100");
  expect_nothing_written({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "h900"},
                         "--gpu: unknown GPU 'h900' (did you mean 'h100', 'h200' or 'v100'?) (known: v100");
  expect_nothing_written({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "a100"},
                         "nvidia-smi-topo-hgx-h100-8nic.txt:2: GPU0 has 18 NVLinks in the matrix, but the a100 has 12");
  expect_nothing_written({"topo", "--import-nvidia-smi", bad, "--gpu", "4090"},
                         bad + ":3: GPU1 to GPU0 is PXB but GPU0 to GPU1 (line 2) is PIX: the matrix is not symmetric");
  expect_nothing_written({"topo", "--import-nvidia-smi", "/nonexistent/topo.txt", "--gpu", "h100"},
                         "/nonexistent/topo.txt: cannot open nvidia-smi topo -m output");
  expect_nothing_written({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "h100", "--topology", "ring"},
                         "--topology does not go with --import-nvidia-smi");
  expect_error({"topo", "--gpu", "h100"}, "--gpu goes with --import-nvidia-smi");
  expect_error({"topo", "--output", spec}, "--output goes with --import-nvidia-smi");
  expect_error({"topo", "--import-nvidia-smi", kHgxH100, "--gpu", "h100", "--dot", "-"}, "--dot does not go with --import-nvidia-smi");
}

}  // namespace
}  // namespace commsim::testing
