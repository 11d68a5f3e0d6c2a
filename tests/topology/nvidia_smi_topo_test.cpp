// nvidia-smi topo -m: the reader (on real outputs, tests/data/README.md gives their sources),
// the PCIe tree and the spec it imports to.

#include "topology/nvidia_smi_topo.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "../expect_contains.h"
#include "base/error.h"
#include "base/input_file.h"
#include "topology/nvidia_smi_import.h"
#include "topology/spec_file.h"

namespace commsim {
namespace {

const std::string kData = std::string(COMMSIM_SOURCE_DIR) + "/tests/data/";
const std::string kHgxH100 = "nvidia-smi-topo-hgx-h100-8nic.txt";          // NV18, 8 NICs, 2 sockets
const std::string kRtx6000 = "nvidia-smi-topo-pcie-rtx6000ada-2socket-4nic.txt";  // NODE, SYS, PIX NICs
const std::string kSixGpu = "nvidia-smi-topo-pcie-6gpu-2socket.txt";       // PIX, NODE, SYS
const std::string kTabs = "nvidia-smi-topo-pcie-8gpu-4numa-2nic.txt";      // tabs, all SYS

std::string read(const std::string& file) { return read_input_file(kData + file, "test data"); }

SmiTopoMatrix parse_data(const std::string& file) { return parse_nvidia_smi_topo(read(file), file); }

Topology import_data(const std::string& file, const char* gpu) {
  const NvidiaSmiImport imported = import_nvidia_smi_topo(read(file), file, gpu_generation(gpu, "--gpu"));
  return parse_topology_spec(nvidia_smi_spec_file(imported), file + ".textproto", false);
}

std::string error_of(const std::string& text) {
  try {
    parse_nvidia_smi_topo(text, "topo.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// The relation a route shows by the vertices it passes: a link between two sockets is SYS,
// a socket NODE, a host bridge PHB, a bridge PXB, a PCIe switch alone PIX.
std::string relation_of_route(const Topology& t, Rank a, Rank b) {
  std::set<std::string> passed;
  bool socket_link = false;
  for (const ChannelId c : t.route(a, b)) {
    const std::string& from = t.vertex(t.channel_source(c)).name;
    const std::string& to = t.vertex(t.channel_target(c)).name;
    socket_link |= starts_with(from, "cpu") && starts_with(to, "cpu");
    if (t.channel_target(c) != b) passed.insert(to.substr(0, to.find_last_not_of("0123456789") + 1));
  }
  if (socket_link) return "SYS";
  for (const auto& [prefix, relation] : std::vector<std::pair<std::string, std::string>>{
           {"cpu", "NODE"}, {"host-bridge", "PHB"}, {"pcie-bridge", "PXB"}, {"pcie-switch", "PIX"}, {"nvswitch", "NV"}}) {
    if (passed.count(prefix)) return relation;
  }
  return passed.empty() ? "NV" : "?";
}

TEST(NvidiaSmiTopo, ReadsAnHgxH100WithNics) {
  const SmiTopoMatrix m = parse_data(kHgxH100);
  ASSERT_EQ(m.devices.size(), 16u);
  EXPECT_EQ(m.gpu_count(), 8u);
  EXPECT_EQ(m.devices[0].column, "GPU0");
  EXPECT_EQ(m.devices[0].cpu_affinity, "0-47,96-143");
  EXPECT_EQ(m.devices[0].numa_node, 0u);
  EXPECT_EQ(m.devices[7].numa_node, 1u);
  EXPECT_EQ(m.devices[8].column, "NIC0");
  EXPECT_EQ(m.devices[8].name, "mlx5_0");  // from the NIC legend
  EXPECT_FALSE(m.devices[8].gpu);
  EXPECT_EQ(m.devices[8].line, 10u);
  EXPECT_EQ(m.cell(0, 7).nvlinks, 18u);
  EXPECT_EQ(m.cell(0, 8).pcie, PcieRelation::kPix);
  EXPECT_EQ(m.cell(0, 9).pcie, PcieRelation::kNode);
  EXPECT_EQ(m.cell(0, 12).pcie, PcieRelation::kSys);
}

TEST(NvidiaSmiTopo, ReadsTabsAndTrailingEmptyCells) {
  // Tab separated as nvidia-smi prints it; NIC rows end in empty tab cells.
  const SmiTopoMatrix m = parse_data(kTabs);
  ASSERT_EQ(m.devices.size(), 10u);
  EXPECT_EQ(m.devices[7].numa_node, 3u);
  EXPECT_EQ(m.devices[9].name, "mlx5_1");
  EXPECT_EQ(m.cell(8, 9).pcie, PcieRelation::kPix);
}

TEST(NvidiaSmiTopo, ReadsOlderOutputsWithoutNumaColumns) {
  const SmiTopoMatrix m = parse_data(kSixGpu);
  ASSERT_EQ(m.devices.size(), 6u);
  EXPECT_EQ(m.devices[5].numa_node, 1u);
  EXPECT_EQ(m.cell(0, 1).pcie, PcieRelation::kPix);
  EXPECT_EQ(m.cell(0, 2).pcie, PcieRelation::kNode);
}

TEST(NvidiaSmiTopo, ToleratesEscapesPromptsAndDeviceNamedNics) {
  // A shell prompt before the header, an underlined (ANSI) header, a literal "\t" and CRLF,
  // a NIC column named by its device (older drivers) and SOC for SYS.
  const std::string text =
      "$ nvidia-smi topo -m\n"
      "\x1b[4m\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\x1b[0m\r\n"
      "GPU0\\t X \\tNV2\\tPIX\\t0-7\r\n"
      "GPU1\t NV2 \t X \tSOC\t8-15\r\n"
      "mlx5_0\tPIX\tSOC\t X \r\n";
  const SmiTopoMatrix m = parse_nvidia_smi_topo(text, "topo.txt");
  ASSERT_EQ(m.devices.size(), 3u);
  EXPECT_EQ(m.devices[2].name, "mlx5_0");
  EXPECT_EQ(m.cell(0, 1).nvlinks, 2u);
  EXPECT_EQ(m.cell(1, 2).pcie, PcieRelation::kSys);
  EXPECT_FALSE(m.devices[0].numa_node.has_value());
}

const std::string kHeader = "        GPU0    GPU1    GPU2    CPU Affinity    NUMA Affinity\n";

TEST(NvidiaSmiTopo, BadMatricesNameTheFileAndLine) {
  EXPECT_EQ(error_of("hello\n"), "topo.txt: no header row with 'CPU Affinity': not the output of nvidia-smi topo -m");
  EXPECT_EQ(error_of(kHeader), "topo.txt:2: no GPU rows after the header");
  EXPECT_EQ(error_of("        NIC0    NIC1    CPU Affinity\nNIC0     X      PIX\nNIC1    PIX      X\n"),
            "topo.txt:1: no GPU rows: the header names no GPU0, GPU1, ... column");
  // Not square: a row is missing.
  EXPECT_EQ(error_of(kHeader + "GPU0     X      PIX     SYS     0-7     0\nGPU1    PIX      X      SYS     0-7     0\n\nLegend:\n"),
            "topo.txt:4: the matrix has 2 rows for 3 columns, the first missing is GPU2: not square");
  // Truncated row.
  EXPECT_EQ(error_of(kHeader + "GPU0     X      PIX     SYS     0-7     0\nGPU1    PIX      X\n"),
            "topo.txt:3: row GPU1 has 2 cells, expected 5 (3 devices and 2 affinity columns)");
  // Unknown code.
  EXPECT_EQ(error_of(kHeader + "GPU0     X      PIX     QPI     0-7     0\n"),
            "topo.txt:2: row GPU0, column GPU2: unknown connection 'QPI' (known: NV# with # links, PIX, PXB, PHB, NODE, SYS, SOC)");
  EXPECT_NE(error_of(kHeader + "GPU0     X      NV0     SYS     0-7     0\n").find("unknown connection 'NV0'"), std::string::npos);
  EXPECT_EQ(error_of(kHeader + "GPU0    PIX     PIX     SYS     0-7     0\n"),
            "topo.txt:2: row GPU0, column GPU0: 'PIX' where the diagonal has X");
  // Out of order, and not symmetric.
  EXPECT_EQ(error_of(kHeader + "GPU1     X      PIX     SYS     0-7     0\n"),
            "topo.txt:2: row 'GPU1' where the header's order puts GPU0");
  EXPECT_EQ(error_of(kHeader + "GPU0     X      PIX     SYS     0-7     0\n"
                                "GPU1    PIX      X      SYS     0-7     0\n"
                                "GPU2    NODE    SYS      X      8-15    1\n"),
            "topo.txt:4: GPU2 to GPU0 is NODE but GPU0 to GPU2 (line 2) is SYS: the matrix is not symmetric");
  EXPECT_EQ(error_of(kHeader + "GPU0     X      PIX     SYS     0-7     zero\n"),
            "topo.txt:2: NUMA Affinity 'zero' is not a NUMA node number");
  EXPECT_EQ(error_of("        GPU0    CPU Affinity    Memory\nGPU0     X      0-7     0\n"),
            "topo.txt:1: unexpected column 'Memory' after the devices (nvidia-smi prints CPU Affinity, NUMA Affinity, "
            "GPU NUMA ID, in that order)");
  EXPECT_EQ(error_of("        GPU0    NIC0    CPU Affinity\nGPU0     X      NV2     0-7\nNIC0    NV2      X\n"),
            "topo.txt:3: NIC0 to GPU0 is NV2: NVLink joins GPUs only");
}

TEST(NvidiaSmiImport, HgxH100MeetsInOneNvSwitchAsThePreset) {
  const Topology t = import_data(kHgxH100, "h100");
  const Topology preset = load_topology_file(std::string(COMMSIM_SOURCE_DIR) + "/topologies/h100-nvswitch-node.textproto");
  EXPECT_EQ(t.npu_count(), 8u);
  std::size_t nvlinks = 0;
  for (const Link& l : t.links()) {
    if (l.params.kind != LinkKind::kNvlink) continue;
    ++nvlinks;
    EXPECT_EQ(t.vertex(l.second).name, "nvswitch");
    EXPECT_TRUE(t.vertex(l.second).reduces);
    // 18 NVLink4 links x 20.6 GB/s, the preset's figure to the bit.
    EXPECT_EQ(l.params.bandwidth_Bps, preset.link(0).params.bandwidth_Bps);
    EXPECT_EQ(l.params.latency_ps, preset.link(0).params.latency_ps);
  }
  EXPECT_EQ(nvlinks, 8u);
  EXPECT_TRUE(t.no_peer_access().empty());  // every pair has NVLink
  EXPECT_EQ(relation_of_route(t, 0, 7), "NV");
  // NCCL's profile for Hopper, as the preset runs (the preset adds its AllToAll factor).
  EXPECT_EQ(t.library().name, "nccl");
  EXPECT_EQ(t.library().protocols, preset.library().protocols);
  EXPECT_EQ(t.library().in_switch, preset.library().in_switch);
}

TEST(NvidiaSmiImport, NicsHangFromTheSwitchTheyShareWithTheirGpu) {
  const Topology t = import_data(kHgxH100, "h100");
  // mlx5_k is PIX to GPUk only: both on one PCIe switch, which hangs from its own host
  // bridge (NODE to the other GPUs of its socket).
  for (VertexId v = 0; v < t.vertex_count(); ++v) {
    const std::string& name = t.vertex(v).name;
    if (!starts_with(name, "mlx5_")) continue;
    const auto edges = boost::out_edges(v, t.graph());
    ASSERT_EQ(std::distance(edges.first, edges.second), 1) << name;
    const VertexId pcie_switch = static_cast<VertexId>(boost::target(*edges.first, t.graph()));
    EXPECT_TRUE(starts_with(t.vertex(pcie_switch).name, "pcie-switch")) << name;
    std::set<std::string> below;
    for (const auto e : boost::make_iterator_range(boost::out_edges(pcie_switch, t.graph()))) {
      below.insert(t.vertex(static_cast<VertexId>(boost::target(e, t.graph()))).name);
    }
    const std::string gpu = "gpu" + name.substr(5);
    EXPECT_EQ(below, (std::set<std::string>{name, gpu, "host-bridge" + name.substr(5)})) << name;
  }
}

TEST(NvidiaSmiImport, PcieBoxAcrossTwoSockets) {
  // GPU0-GPU1 and GPU3-GPU4 PIX: peer access; the NODE pairs (0-2, 1-2, 3-5, 4-5) and the 9
  // SYS pairs have none.
  const Topology t = import_data(kSixGpu, "2080ti");
  EXPECT_EQ(t.npu_count(), 6u);
  EXPECT_EQ(t.no_peer_access().size(), 13u);
  EXPECT_TRUE(t.peer_access(0, 1));
  EXPECT_TRUE(t.peer_access(4, 3));
  EXPECT_FALSE(t.peer_access(0, 2));
  EXPECT_FALSE(t.peer_access(5, 0));
  EXPECT_TRUE(t.peer_access(2, 2));
  // A pair without peer access is staged in a socket's memory: its route enters a vertex
  // with host memory; a PIX pair turns at its PCIe switch.
  const auto crosses_host = [&](Rank a, Rank b) {
    const Route& route = t.route(a, b);
    return std::any_of(route.begin(), route.end(), [&](ChannelId c) { return t.vertex(t.channel_target(c)).host_memory; });
  };
  EXPECT_TRUE(crosses_host(0, 2));
  EXPECT_TRUE(crosses_host(5, 0));
  EXPECT_FALSE(crosses_host(0, 1));
  EXPECT_EQ(relation_of_route(t, 0, 1), "PIX");
  EXPECT_EQ(relation_of_route(t, 0, 2), "NODE");
  EXPECT_EQ(relation_of_route(t, 0, 5), "SYS");
  // The PIX pair meets in one switch: gpu0 -> pcie-switch0 -> gpu1.
  EXPECT_EQ(t.route(0, 1).size(), 2u);
  // NCCL's profile for compute capability 7.5 (Volta's caps: LL at most 39 GB/s), by name and
  // whole: that NCCL runs no LL128 between GPUs on PCIe is its choice's rule
  // (model/collective_model.h, nccl_leaves_ll128_out), not a profile of its own.
  const LibraryProfile& library = t.library();
  EXPECT_EQ(library.name, "nccl-volta");
  EXPECT_TRUE(library.has_protocol(Protocol::kLL128));
  EXPECT_DOUBLE_EQ(library.costs(Protocol::kLL).max_rate_Bps, 39e9);
}

TEST(NvidiaSmiImport, EveryRouteShowsTheMatrixRelation) {
  for (const auto& [file, gpu] : std::vector<std::pair<std::string, const char*>>{
           {kHgxH100, "h100"}, {kRtx6000, "rtx6000ada"}, {kSixGpu, "2080ti"}, {kTabs, "4090"}}) {
    SCOPED_TRACE(file);
    const SmiTopoMatrix m = parse_data(file);
    const Topology t = import_data(file, gpu);
    std::vector<std::size_t> gpus;
    for (std::size_t d = 0; d < m.devices.size(); ++d) {
      if (m.devices[d].gpu) gpus.push_back(d);
    }
    for (Rank a = 0; a < gpus.size(); ++a) {
      for (Rank b = 0; b < gpus.size(); ++b) {
        if (a == b) continue;
        const SmiCell& cell = m.cell(gpus[a], gpus[b]);
        EXPECT_EQ(relation_of_route(t, a, b), cell.nvlinks ? "NV" : pcie_relation_name(cell.pcie)) << a << "-" << b;
        EXPECT_EQ(t.peer_access(a, b), cell.nvlinks > 0 || cell.pcie <= PcieRelation::kPxb) << a << "-" << b;
      }
    }
  }
}

TEST(NvidiaSmiImport, SocketsFollowTheMatrixThenTheNumaColumn) {
  // rtx6000ada: GPU pairs NODE within a socket, SYS across: 2 sockets, one link between.
  const Topology two = import_data(kRtx6000, "rtx6000ada");
  std::size_t socket_links = 0;
  for (const Link& l : two.links()) socket_links += l.params.kind == LinkKind::kOther;
  EXPECT_EQ(socket_links, 1u);
  // The 4-NUMA box says SYS even between GPUs of one NUMA node: the matrix wins, each GPU
  // its own socket, and the NIC pair one more (9 sockets, every two joined: 36 links).
  const Topology tabs = import_data(kTabs, "4090");
  socket_links = 0;
  for (const Link& l : tabs.links()) socket_links += l.params.kind == LinkKind::kOther;
  EXPECT_EQ(socket_links, 36u);
}

const char* kDgx1Quarter =
    "        GPU0    GPU1    GPU2    GPU3    CPU Affinity\n"
    "GPU0     X      NV1     NV1     NV2     0-19\n"
    "GPU1    NV1      X      NV2     SYS     0-19\n"
    "GPU2    NV1     NV2      X      NV1     20-39\n"
    "GPU3    NV2     SYS     NV1      X      20-39\n";

TEST(NvidiaSmiImport, DirectNvlinkMeshGetsDirectLinks) {
  // A made-up corner of a hybrid cube mesh: five NVLink pairs, GPU1-GPU3 over PCIe only.
  const NvidiaSmiImport imported = import_nvidia_smi_topo(kDgx1Quarter, "mesh.txt", gpu_generation("v100", "--gpu"));
  const Topology t = parse_topology_spec(nvidia_smi_spec_file(imported), "mesh.textproto", false);
  std::map<std::pair<std::string, std::string>, double> nvlink;
  for (const Link& l : t.links()) {
    if (l.params.kind == LinkKind::kNvlink) nvlink[{t.vertex(l.first).name, t.vertex(l.second).name}] = l.params.bandwidth_Bps;
  }
  EXPECT_EQ(nvlink.size(), 5u);
  EXPECT_DOUBLE_EQ((nvlink[{"gpu0", "gpu3"}]), 2 * 20e9);  // NV2 x SM70_NVLINK_BW
  EXPECT_DOUBLE_EQ((nvlink[{"gpu0", "gpu1"}]), 20e9);
  // GPU1-GPU3 is SYS, but NVLink reaches through GPU0 or GPU2 (NCCL's PATH_NVB): peer
  // access, routed over two NVLink hops rather than across the sockets.
  EXPECT_TRUE(t.no_peer_access().empty());
  const Route& route = t.route(1, 3);
  ASSERT_EQ(route.size(), 2u);
  for (const ChannelId c : route) EXPECT_EQ(t.link(link_of(c)).params.kind, LinkKind::kNvlink);
  // Two sockets by CPU affinity (0-19, 20-39): 4 GPU and 4 socket PCIe links, one between.
  EXPECT_EQ(t.link_count(), 5u + 4u + 4u + 1u);
}

TEST(NvidiaSmiImport, NvSwitchRuleCountsLinksPerGpu) {
  // All pairs NV4 among 4 A100s: 4 x 3 = 12 links, as many as an A100 has: a direct mesh
  // (HGX A100 4-GPU). NV12 among them: 36 > 12, only NVSwitches can do that.
  const auto four = [](const char* nv) {
    std::string text = "        GPU0    GPU1    GPU2    GPU3    CPU Affinity\n";
    for (int r = 0; r < 4; ++r) {
      text += "GPU" + std::to_string(r);
      for (int c = 0; c < 4; ++c) text += std::string("    ") + (r == c ? "X" : nv);
      text += "    0-7\n";
    }
    return text;
  };
  const auto switches = [&](const char* nv) {
    const NvidiaSmiImport imported = import_nvidia_smi_topo(four(nv), "four.txt", gpu_generation("a100", "--gpu"));
    return parse_topology_spec(nvidia_smi_spec_file(imported), "four.textproto", false).link_count();
  };
  // Direct: 6 NVLink links; each GPU on a host bridge of its own (NVLink pairs say nothing
  // of PCIe), the 4 host bridges on one socket (one CPU affinity).
  EXPECT_EQ(switches("NV4"), 6u + 4u + 4u);
  // Switch: 4 GPU-switch links instead.
  EXPECT_EQ(switches("NV12"), 4u + 4u + 4u);
}

TEST(NvidiaSmiImport, WrongGpuOrInconsistentRelationsAreErrors) {
  const auto error = [](const std::string& text, const std::string& origin, const char* gpu) {
    try {
      import_nvidia_smi_topo(text, origin, gpu_generation(gpu, "--gpu"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(read(kHgxH100), kHgxH100, "a100"),
            kHgxH100 + ":2: GPU0 has 18 NVLinks in the matrix, but the a100 has 12 (is --gpu a100 right?)");
  EXPECT_EQ(error(kDgx1Quarter, "mesh.txt", "4090"),
            "mesh.txt:2: GPU0 to GPU1 is NV1, but the 4090 has no NVLink (is --gpu 4090 right?)");
  // A-B PIX and B-C PIX put A and C under one switch, which the matrix calls PXB.
  EXPECT_EQ(error(kHeader + "GPU0     X      PIX     PXB     0-7     0\n"
                            "GPU1    PIX      X      PIX     0-7     0\n"
                            "GPU2    PXB     PIX      X      0-7     0\n",
                  "topo.txt", "4090"),
            "topo.txt:4: GPU2 to GPU0 is PXB, but the closer relations around them put them at PIX: the relations fit "
            "no PCIe tree");
  EXPECT_THROW(gpu_generation("h800x", "--gpu"), InputError);
}

TEST(NvidiaSmiImport, SpecFileSaysWhereItCameFrom) {
  const NvidiaSmiImport imported = import_nvidia_smi_topo(read(kSixGpu), kSixGpu, gpu_generation("2080ti", "--gpu"));
  const std::string file = nvidia_smi_spec_file(imported);
  EXPECT_EQ(file.rfind("# Imported from " + kSixGpu, 0), 0u) << file;
  EXPECT_CONTAINS(file, "PATH_PXB");
  EXPECT_CONTAINS(file, "\n  no_peer_access { a: \"gpu0\" b: \"gpu2\" }\n");
  EXPECT_EQ(imported.spec.name(), "nvidia-smi-topo-pcie-6gpu-2socket");
}

}  // namespace
}  // namespace commsim
