// commsim topo: a summary of a topology, and its Graphviz DOT with --dot; or a topology
// spec imported from `nvidia-smi topo -m` (--import-nvidia-smi).

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "base/error.h"
#include "base/input_file.h"
#include "base/output_file.h"
#include "command_line.h"
#include "commands.h"
#include "model/collective_model.h"
#include "topology/graphviz.h"
#include "topology/nvidia_smi_import.h"
#include "topology/spec_file.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

std::string describe_link(const Topology& t, LinkId id) {
  const Link& l = t.link(id);
  return format_bandwidth(l.params.bandwidth_Bps) + ", " + format_time(l.params.latency_ps) +
         ", " + std::string(link_kind_name(l.params.kind)) + ": " + t.vertex(l.first).name +
         " -- " + t.vertex(l.second).name;
}

// "all pairs", or the pairs without peer access, the first few by name.
std::string describe_peer_access(const Topology& t) {
  const auto& pairs = t.no_peer_access();
  if (pairs.empty()) return "all pairs";
  constexpr std::size_t kShown = 6;
  const std::size_t all = t.npu_count() * (t.npu_count() - 1) / 2;
  std::string text = "none for " + std::to_string(pairs.size()) + " of " + std::to_string(all) + " pairs:";
  for (std::size_t i = 0; i < std::min(pairs.size(), kShown); ++i) {
    text += (i ? ", " : " ") + t.vertex(pairs[i].first).name + "-" + t.vertex(pairs[i].second).name;
  }
  return text + (pairs.size() > kShown ? ", ..." : "");
}

// ", 0.72 of the bandwidth both ways at once" where half-duplex links lose to turning around.
std::string both_ways_text(const Topology& t) {
  const std::optional<double> e = t.both_ways_efficiency();
  if (!e || *e == 1) return "";
  std::ostringstream text;
  text << ", " << *e << " of the bandwidth both ways at once";
  return text.str();
}

// The library the topology runs by default, with its terms among its NPUs (--library
// overrides it).
void print_library(const Topology& t, std::ostream& out) {
  const LibraryProfile& library = t.library();
  out << "library       " << library.name << (library.ideal() ? " (the wire alone)" : "") << "\n";
  for (const auto& [label, text] : describe_library(library, t.npu_count())) {
    out << "  " << label << std::string(label.size() < 12 ? 12 - label.size() : 1, ' ') << text << "\n";
  }
  if (library.has_protocol(Protocol::kLL128) && nccl_leaves_ll128_out(t))
    out << "  (no ll128 in NCCL's choice here: GPUs on PCIe, no NVLink)\n";
}

void print_summary(const Topology& t, std::ostream& out) {
  std::map<std::string_view, std::size_t> kinds;
  std::size_t half_duplex = 0;
  LinkId fastest = 0;
  LinkId slowest = 0;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const LinkParams& p = t.link(id).params;
    ++kinds[link_kind_name(p.kind)];
    if (p.duplex == Duplex::kHalf) ++half_duplex;
    const LinkParams& f = t.link(fastest).params;
    const LinkParams& s = t.link(slowest).params;
    if (p.bandwidth_Bps > f.bandwidth_Bps ||
        (p.bandwidth_Bps == f.bandwidth_Bps && p.latency_ps < f.latency_ps)) {
      fastest = id;
    }
    if (p.bandwidth_Bps < s.bandwidth_Bps ||
        (p.bandwidth_Bps == s.bandwidth_Bps && p.latency_ps > s.latency_ps)) {
      slowest = id;
    }
  }
  std::string kind_list;
  for (const auto& [kind, count] : kinds) {
    kind_list += (kind_list.empty() ? "" : ", ") + std::string(kind) + " " + std::to_string(count);
  }
  out << "topology      " << t.name() << " (" << t.description() << ")\n";
  if (!t.system().empty()) out << "system        " << t.system() << "\n";
  out << "NPUs          " << t.npu_count() << "\n"
      << "switches      " << t.switch_count() << "\n"
      << "links         " << t.link_count();
  if (t.link_count() > 0) {
    out << " (" << kind_list << "), "
        << (half_duplex == 0 ? "full duplex"
                             : std::to_string(half_duplex) + " half duplex" + both_ways_text(t));
  }
  out << "\n"
      << "diameter      " << t.diameter_hops() << " hops\n"
      << "peer access   " << describe_peer_access(t) << "\n";
  if (t.link_count() > 0) {
    out << "fastest link  " << describe_link(t, fastest) << "\n"
        << "slowest link  " << describe_link(t, slowest) << "\n";
  }
  print_library(t, out);
}

// --import-nvidia-smi FILE --gpu NAME [--output SPEC]: the spec to SPEC and the summary of
// the topology it describes, or without --output (or with -) the spec to standard output.
int run_import(const po::variables_map& vm, const std::string& path, std::ostream& out) {
  const po::options_description others = topology_options();
  for (const auto& option : others.options()) {
    if (vm.count(option->long_name())) {
      throw InputError("--" + option->long_name() + " does not go with --import-nvidia-smi, which reads its topology from the file");
    }
  }
  if (vm.count("dot")) {
    throw InputError("--dot does not go with --import-nvidia-smi: write the spec with --output SPEC, then "
                     "commsim topo --topology-file SPEC --dot FILE");
  }
  const auto gpu_name = option_text(vm, "gpu");
  if (!gpu_name) throw InputError("--import-nvidia-smi needs --gpu NAME, the GPUs' generation (" + gpu_generation_names() + ")");
  const GpuGeneration& gpu = gpu_generation(*gpu_name, "--gpu");
  const auto output = option_text(vm, "output");
  std::optional<OutputFile> file = output_option(vm, "output", true);
  const std::string spec = nvidia_smi_spec_file(import_nvidia_smi_topo(read_input_file(path, "nvidia-smi topo -m output"), path, gpu));
  if (!file) {
    out << spec;
    return 0;
  }
  const Topology topology = parse_topology_spec(spec, *output, false);
  file->stream() << spec;
  file->commit();
  print_summary(topology, out);
  out << "spec          " << *output << "\n";
  return 0;
}

}  // namespace

int run_topo(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options(
      "commsim topo: summarise a topology, export it to Graphviz, or import one from nvidia-smi topo -m");
  options.add_options()("help,h", "show this help");
  add_option(options, "dot", "FILE",
             "write the topology as Graphviz DOT to FILE (- for stdout): a box per node, links coloured by "
             "kind and wider with bandwidth, a legend; render with dot -Tsvg FILE");
  po::options_description import("Import (a topology spec from nvidia-smi's matrix)");
  add_option(import, "import-nvidia-smi", "FILE",
             "read FILE, the output of nvidia-smi topo -m, and write a topology spec of that node: GPUs, "
             "NVLink or NVSwitch, PCIe switches, host bridges, CPU sockets, NICs, peer access");
  const std::string gpu_help = "with --import-nvidia-smi (required): the GPUs, for the NVLink and PCIe figures: " +
                               gpu_generation_names();
  add_option(import, "gpu", "NAME", gpu_help.c_str());
  add_option(import, "output", "SPEC",
             "with --import-nvidia-smi: write the spec to SPEC and print the summary of its topology "
             "(default, or -: the spec to standard output)");
  options.add(import).add(topology_options());
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim topo [options]\n\n" << options << "\n"
        << "Examples: commsim topo --topology torus --dims 4x4x4 --dot torus.dot\n"
        << "          commsim topo --import-nvidia-smi topo.txt --gpu h100 --output node.textproto\n";
    return 0;
  }
  if (const auto path = option_text(vm, "import-nvidia-smi")) return run_import(vm, *path, out);
  for (const char* option : {"gpu", "output"}) {
    if (vm.count(option)) throw InputError("--" + std::string(option) + " goes with --import-nvidia-smi");
  }
  const auto dot = option_text(vm, "dot");
  std::optional<OutputFile> file = output_option(vm, "dot", true);
  const Topology topology = topology_from_options(vm);
  if (dot && !file) {
    write_dot(out, topology);
    return 0;
  }
  print_summary(topology, out);
  if (file) {
    write_dot(file->stream(), topology);
    file->commit();
    out << "graphviz      " << *dot << "\n";
  }
  return 0;
}

}  // namespace commsim::cli
