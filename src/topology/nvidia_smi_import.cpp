#include "topology/nvidia_smi_import.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "base/error.h"
#include "base/text_proto.h"
#include "topology/nvidia_smi_pcie_tree.h"
#include "topology/nvidia_smi_topo.h"
#include "topology/spec_message.h"

namespace commsim {
namespace {

// Latencies per hop: hardware estimates, as the presets of topologies/ give them (250 ns per
// NVLink hop, h100-nvswitch-node; 150 ns per PCIe switch traversal, pcie-4gpu-box); the
// link between sockets is taken as one more such hop.
constexpr const char* kNvlinkLatency = "250ns";
constexpr const char* kPcieLatency = "150ns";

// GB/s as the spec gives it ("370.8"), or rounded for a comment ("63.02").
std::string gb_per_s_text(BandwidthBps rate, bool rounded = false) {
  char text[32];
  std::snprintf(text, sizeof text, rounded ? "%.4g" : "%.10g", gb_per_s(rate));
  return text;
}

class SpecWriter {
 public:
  explicit SpecWriter(spec::ExplicitSpec& graph) : graph_(graph) {}
  spec::VertexSpec& vertex(const std::string& name, bool npu, bool reduces = false) {
    auto* v = graph_.add_vertices();
    v->set_name(name);
    if (!npu) v->set_kind(spec::VertexSpec::SWITCH);
    if (reduces) v->set_reduces(true);
    return *v;
  }
  void link(const std::string& a, const std::string& b, BandwidthBps rate, const char* latency, spec::LinkKind kind) {
    auto* l = graph_.add_links();
    l->set_a(a);
    l->set_b(b);
    l->mutable_link()->set_bandwidth(gb_per_s_text(rate) + "GB/s");
    l->mutable_link()->set_latency(latency);
    l->mutable_link()->set_kind(kind);
  }

 private:
  spec::ExplicitSpec& graph_;
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Vertex names: gpu0, gpu1, ... for GPUs; a NIC's legend name (mlx5_0).
std::vector<std::string> device_names(const SmiTopoMatrix& m) {
  std::vector<std::string> names;
  for (const SmiDevice& d : m.devices) names.push_back(d.gpu ? lower(d.column) : d.name);
  return names;
}

std::string node_name(const PcieTree& t, std::size_t node) {
  static constexpr const char* kPrefix[] = {"cpu", "host-bridge", "pcie-bridge", "pcie-switch"};
  const PcieNodeKind kind = t.nodes[node].kind;
  std::size_t index = 0;
  for (std::size_t i = 0; i < node; ++i) index += t.nodes[i].kind == kind;
  return kPrefix[static_cast<int>(kind)] + std::to_string(index);
}

std::vector<std::size_t> gpus_of(const SmiTopoMatrix& m) {
  std::vector<std::size_t> gpus;
  for (std::size_t d = 0; d < m.devices.size(); ++d) {
    if (m.devices[d].gpu) gpus.push_back(d);
  }
  return gpus;
}

// The NV# every GPU pair shares when the GPUs must meet in NVSwitches (the rule of
// nvidia_smi_import.h), else 0.
std::uint32_t nvswitch_links(const SmiTopoMatrix& m, const std::vector<std::size_t>& gpus, const GpuGeneration& gpu) {
  if (gpus.size() <= 2) return 0;
  const std::uint32_t k = m.cell(gpus[0], gpus[1]).nvlinks;
  for (const std::size_t a : gpus) {
    for (const std::size_t b : gpus) {
      if (a != b && m.cell(a, b).nvlinks != k) return 0;
    }
  }
  return static_cast<std::uint64_t>(k) * (gpus.size() - 1) > gpu.nvlinks ? k : 0;
}

// A GPU with more NVLinks in the matrix than its generation has: the wrong --gpu.
void check_nvlink_count(const SmiTopoMatrix& m, std::size_t d, std::uint64_t links, const GpuGeneration& gpu) {
  if (links <= gpu.nvlinks) return;
  throw InputError(m.where(d) + ": " + m.devices[d].column + " has " + std::to_string(links) + " NVLinks in the matrix, " +
                   "but the " + std::string(gpu.name) + " has " + std::to_string(gpu.nvlinks) +
                   " (is --gpu " + std::string(gpu.name) + " right?)");
}

std::string nvlink_figures(const GpuGeneration& gpu) {
  return gb_per_s_text(gpu.nvlink_Bps) + " GB/s per link and direction as NCCL sustains it (" +
         std::string(gpu.nvlink_source) + ": " + gb_per_s_text(gpu.nvlink_datasheet_Bps) + " GB/s)";
}

// NVLink: one NVSwitch vertex, or direct GPU-GPU links. Returns the note.
std::string add_nvlink(const SmiTopoMatrix& m, const GpuGeneration& gpu, const std::vector<std::string>& names, SpecWriter& out) {
  const std::vector<std::size_t> gpus = gpus_of(m);
  if (const std::uint32_t k = nvswitch_links(m, gpus, gpu)) {
    check_nvlink_count(m, gpus[0], k, gpu);
    out.vertex("nvswitch", false, gpu.nvswitch_reduces);
    for (const std::size_t d : gpus) out.link(names[d], "nvswitch", k * gpu.nvlink_Bps, kNvlinkLatency, spec::NVLINK);
    return "NVLink: every GPU pair is NV" + std::to_string(k) + " and " + std::to_string(k) + " x " +
           std::to_string(gpus.size() - 1) + " peers > " + std::to_string(gpu.nvlinks) + " links per " + std::string(gpu.name) +
           ", so the GPUs meet in NVSwitches: one switch vertex" + (gpu.nvswitch_reduces ? " that reduces (NVLink SHARP)" : "") +
           ", each GPU linked at " + std::to_string(k) + " x " + gb_per_s_text(gpu.nvlink_Bps) + " = " +
           gb_per_s_text(k * gpu.nvlink_Bps) + " GB/s per direction; " + nvlink_figures(gpu) + ".";
  }
  std::size_t pairs = 0;
  for (const std::size_t a : gpus) {
    std::uint64_t links = 0;
    for (const std::size_t b : gpus) {
      const std::uint32_t k = a == b ? 0 : m.cell(a, b).nvlinks;
      if (k && gpu.nvlinks == 0) {
        throw InputError(m.where(a) + ": " + m.devices[a].column + " to " + m.devices[b].column + " is NV" + std::to_string(k) +
                         ", but the " + std::string(gpu.name) + " has no NVLink (is --gpu " + std::string(gpu.name) + " right?)");
      }
      links += k;
      if (k && b < a) {
        out.link(names[b], names[a], k * gpu.nvlink_Bps, kNvlinkLatency, spec::NVLINK);
        ++pairs;
      }
    }
    check_nvlink_count(m, a, links, gpu);
  }
  if (pairs == 0) return "NVLink: none in the matrix.";
  return "NVLink: " + std::to_string(pairs) + " GPU pairs linked directly, NV# x " + nvlink_figures(gpu) +
         ". Routes take the fastest path, so a pair without NVLink of its own may cross another GPU's.";
}

// PCIe: the tree's vertices and links, the NICs, and a link between every two sockets.
std::vector<std::string> add_pcie(const SmiTopoMatrix& m, const PcieTree& t, const GpuGeneration& gpu,
                                  const std::vector<std::string>& names, SpecWriter& out) {
  const BandwidthBps pcie = pcie_x16_Bps(gpu.pcie_gen);
  for (std::size_t d = 0; d < m.devices.size(); ++d) {
    if (!m.devices[d].gpu) out.vertex(names[d], false);
  }
  // A socket's root complex holds its memory: pairs without peer access meet there.
  for (std::size_t node = 0; node < t.nodes.size(); ++node) {
    out.vertex(node_name(t, node), false).set_host_memory(t.nodes[node].kind == PcieNodeKind::kSocket);
  }
  for (std::size_t d = 0; d < m.devices.size(); ++d) out.link(names[d], node_name(t, t.device_parent[d]), pcie, kPcieLatency, spec::PCIE);
  std::vector<std::string> sockets;
  for (std::size_t node = 0; node < t.nodes.size(); ++node) {
    if (t.nodes[node].kind == PcieNodeKind::kSocket) {
      sockets.push_back(node_name(t, node));
    } else {
      out.link(node_name(t, node), node_name(t, t.nodes[node].parent), pcie, kPcieLatency, spec::PCIE);
    }
  }
  for (std::size_t a = 0; a < sockets.size(); ++a) {
    for (std::size_t b = a + 1; b < sockets.size(); ++b) out.link(sockets[a], sockets[b], gpu.socket_link_Bps, kPcieLatency, spec::OTHER);
  }
  std::vector<std::string> notes{
      "PCIe: every link Gen" + std::to_string(gpu.pcie_gen) + " x16, " + gb_per_s_text(pcie) +
          " GB/s per direction as NCCL rates it (16 lanes x its per-lane rate / 80, src/graph/topo.cc; datasheet " +
          gb_per_s_text(pcie_x16_datasheet_Bps(gpu.pcie_gen), true) + " GB/s). Devices PIX to each other share a PCIe switch, " +
          "PXB ones a bridge above their switches, PHB ones a host bridge, NODE ones a CPU socket (as do GPUs of one " +
          "NUMA node); SYS pairs cross the link between sockets.",
      "NICs are switch vertices named by the NIC legend, on their PCIe switch (commsim has NPU and switch vertices "
      "only); nothing beyond the node is modelled."};
  if (sockets.size() > 1) {
    notes.push_back("Sockets: " + std::to_string(sockets.size()) + ", each pair joined by a link of " +
                    gb_per_s_text(gpu.socket_link_Bps) + " GB/s per direction as NCCL rates it (" + std::string(gpu.host) + ").");
  }
  for (std::size_t node = 0; node < t.nodes.size() && t.nodes[node].kind == PcieNodeKind::kSocket; ++node) {
    std::string members;
    for (std::size_t d = 0; d < m.devices.size(); ++d) {
      if (t.device_socket[d] == node) members += (members.empty() ? "" : ", ") + names[d];
    }
    notes.push_back(node_name(t, node) + ": " + members + ".");
  }
  return notes;
}

// Whether GPUs a and b reach each other over NVLink through one other GPU (NCCL's PATH_NVB,
// which its P2P transport uses unless NCCL_NVB_DISABLE is set).
bool nvlink_through_a_gpu(const SmiTopoMatrix& m, const std::vector<std::size_t>& gpus, std::size_t a, std::size_t b) {
  return std::any_of(gpus.begin(), gpus.end(), [&](std::size_t k) {
    return k != a && k != b && m.cell(a, k).nvlinks && m.cell(k, b).nvlinks;
  });
}

// GPU pairs NCCL would not give peer access by default.
std::string add_peer_access(const SmiTopoMatrix& m, const std::vector<std::string>& names, spec::ExplicitSpec& graph) {
  const std::vector<std::size_t> gpus = gpus_of(m);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const SmiCell& c = m.cell(gpus[i], gpus[j]);
      if (c.nvlinks || c.pcie <= PcieRelation::kPxb || nvlink_through_a_gpu(m, gpus, gpus[i], gpus[j])) continue;
      auto* pair = graph.add_no_peer_access();
      pair->set_a(names[gpus[i]]);
      pair->set_b(names[gpus[j]]);
    }
  }
  return "Peer access as NCCL's default P2P level on Intel, ARM and Zhaoxin hosts (PATH_PXB, ncclTopoCheckP2p in "
         "src/graph/paths.cc): NVLink, PIX and PXB pairs have it, and so do pairs with NVLink through another GPU (PATH_NVB, routed "
         "through that GPU); other PHB, NODE and SYS pairs (" +
         std::to_string(graph.no_peer_access_size()) + " here, in no_peer_access) do not, and NCCL moves their data "
         "through host memory (its SHM transport). On AMD hosts NCCL allows peer access at every level: empty the "
         "list there.";
}

std::string file_stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  return name.substr(0, name.find('.'));
}

std::string description(const SmiTopoMatrix& m, const PcieTree& t, const GpuGeneration& gpu, const spec::ExplicitSpec& graph) {
  const std::size_t gpus = m.gpu_count();
  const bool nvswitch = std::any_of(graph.vertices().begin(), graph.vertices().end(),
                                    [](const spec::VertexSpec& v) { return v.name() == "nvswitch"; });
  const bool nvlink = std::any_of(graph.links().begin(), graph.links().end(),
                                  [](const spec::ExplicitLinkSpec& l) { return l.link().kind() == spec::NVLINK; });
  std::ostringstream text;
  text << gpus << "x " << gpu.name << " from nvidia-smi topo -m: " << (nvswitch ? "NVSwitch" : nvlink ? "direct NVLink" : "PCIe only")
       << ", " << m.devices.size() - gpus << " NICs, " << t.count(PcieNodeKind::kSocket) << " CPU sockets";
  return text.str();
}

// Breaks a note into comment lines of at most ~92 characters.
void add_comment(std::string& out, const std::string& note) {
  std::istringstream words(note);
  std::string line = "#";
  for (std::string word; words >> word;) {
    if (line.size() + 1 + word.size() > 92 && line != "#") {
      out += line + "\n";
      line = "#  ";
    }
    line += " " + word;
  }
  out += line + "\n";
}

// The library NCCL runs on the node: its built-in profile for the GPU's architecture. Where
// no two GPUs share NVLink its choice leaves LL128 out (model/collective_model.h,
// nccl_leaves_ll128_out), as NCCL does.
std::string add_library(const GpuGeneration& gpu, spec::TopologySpec& spec) {
  const std::string name(gpu.nccl_library);
  spec.mutable_library()->set_name(name);
  return "Library: NCCL's built-in profile for the GPU's architecture, " + name +
         " (README, \"Communication library profiles\"); --library ideal runs the wire alone.";
}

}  // namespace

NvidiaSmiImport import_nvidia_smi_topo(const std::string& text, const std::string& origin, const GpuGeneration& gpu) {
  const SmiTopoMatrix m = parse_nvidia_smi_topo(text, origin);
  const PcieTree tree = build_pcie_tree(m);
  const std::vector<std::string> names = device_names(m);
  NvidiaSmiImport result;
  result.spec.set_name(file_stem(origin));
  spec::ExplicitSpec& graph = *result.spec.mutable_graph();
  SpecWriter out(graph);
  for (std::size_t d = 0; d < m.devices.size(); ++d) {
    if (m.devices[d].gpu) out.vertex(names[d], true);
  }
  result.notes.push_back("Imported from " + origin + " (the output of nvidia-smi topo -m) with --gpu " + std::string(gpu.name) +
                         ": " + std::string(gpu.description) + ". Edit freely: the import is a starting point.");
  result.notes.push_back(add_nvlink(m, gpu, names, out));
  for (std::string& note : add_pcie(m, tree, gpu, names, out)) result.notes.push_back(std::move(note));
  result.notes.push_back(add_peer_access(m, names, graph));
  result.spec.set_description(description(m, tree, gpu, graph));
  result.notes.push_back(std::string("Latency: ") + kNvlinkLatency + " per NVLink hop, " + kPcieLatency +
                         " per PCIe or socket hop, hardware estimates as in the presets of topologies/.");
  result.notes.push_back(add_library(gpu, result.spec));
  return result;
}

std::string nvidia_smi_spec_file(const NvidiaSmiImport& imported) {
  std::string out;
  for (const std::string& note : imported.notes) add_comment(out, note);
  return out + spec_text(imported.spec);
}

}  // namespace commsim
