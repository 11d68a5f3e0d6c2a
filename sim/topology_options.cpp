#include "topology_options.h"

#include <algorithm>
#include <limits>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "collective/algorithms.h"
#include "model/one_node_ramp.h"
#include "report/table.h"
#include "topology/builders.h"
#include "topology/presets.h"
#include "topology/spec_file.h"
#include "topology/spec_message.h"

namespace commsim::cli {

std::uint32_t count_option(const po::variables_map& vm, const char* name, std::uint32_t fallback,
                           std::uint64_t min) {
  const auto text = option_text(vm, name);
  if (!text) return fallback;
  return static_cast<std::uint32_t>(
      parse_count(*text, std::string("--") + name, min, std::numeric_limits<std::uint32_t>::max()));
}

namespace {

std::vector<double> parse_ratios(const std::string& text) {
  std::vector<double> ratios;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(',', start);
    const double r = parse_real(text.substr(start, end - start), "--oversubscription");
    if (!(r > 0)) {
      throw InputError("--oversubscription: ratio must be positive, got '" + text + "'");
    }
    ratios.push_back(r);
    if (end == std::string::npos) return ratios;
    start = end + 1;
  }
}

}  // namespace

void add_link_options(po::options_description& o) {
  add_option(o, "bandwidth", "BW",
             "NPU link bandwidth per direction (intra-node in hierarchical), e.g. 450GB/s, "
             "50GiB/s, 400Gbps (default 450GB/s)");
  add_option(o, "latency", "T", "NPU link latency per hop, e.g. 250ns, 1us (default 250ns)");
  add_option(o, "link-kind", "KIND",
             "kind of the NPU links: nvlink, pcie, infiniband, ethernet, other (default nvlink)");
  add_option(o, "nic-bandwidth", "BW", "hierarchical: per-GPU NIC bandwidth (default 400Gbps)");
  add_option(o, "nic-latency", "T", "hierarchical: NIC link latency per hop (default 1us)");
  add_option(o, "duplex", "full|half",
             "duplex of every link of a built topology (default full)");
}

po::options_description topology_options(const std::string& caption) {
  po::options_description o(caption);
  add_option(o, "topology-file", "FILE",
             "topology spec file (protobuf text format, or JSON if it ends in .json; see topologies/), or the "
             "name of a shipped preset where no such file is: " +
                 joined(built_in_preset_names()));
  add_option(o, "topology", "KIND",
             "build a topology: ring, switch, fully-connected, tree, hierarchical, mesh, torus");
  add_option(o, "npus", "N",
             "NPUs of a ring, switch, fully-connected or tree (default 8); with --topology-file, a "
             "one-node (switch) spec's GPUs, as --gpus-per-node, or a cluster spec's GPUs in all (N / G nodes "
             "of its G GPUs, or of --gpus-per-node G)");
  add_option(o, "dims", "AxB[xC]", "mesh or torus dimensions, e.g. 4x4 or 4x4x4");
  add_option(o, "arity", "K", "tree: children per switch (default 2)");
  add_option(o, "oversubscription", "R[,R..]",
             "tree: ratio per switch level from the leaves up (one value: every level); "
             "hierarchical: leaf uplinks (default 1 = non-blocking)");
  add_option(o, "nodes", "N", "hierarchical: nodes (default 2); with --topology-file, a cluster spec's");
  add_option(o, "gpus-per-node", "G",
             "hierarchical: GPUs per node (default 8); with --topology-file, a cluster spec's, or a one-node "
             "(switch) spec's GPUs");
  add_option(o, "leaf-size", "L",
             "hierarchical: nodes per leaf switch under a spine (default: one network switch)");
  o.add_options()("rails",
                  "hierarchical: rail-optimised network, a leaf switch per GPU index (rail) of each "
                  "--leaf-size nodes, joined by the spine");
  add_link_options(o);
  o.add_options()("nvls",
                  "switch, hierarchical: the NPUs' switch (each node's NVSwitch) reduces in the fabric "
                  "(NVLink SHARP), for --algorithm nvls and nvls-tree");
  return o;
}

bool option_scales_spec(std::string_view option, bool spec_is_node_or_cluster) {
  return option == "nodes" || option == "gpus-per-node" || (option == "npus" && spec_is_node_or_cluster);
}

std::uint32_t cluster_nodes_for_npus(std::uint32_t npus, std::uint32_t gpus_per_node, const std::string& file,
                                     std::optional<std::uint32_t> nodes) {
  if (gpus_per_node == 0 || npus % gpus_per_node != 0) {
    throw InputError("--npus " + std::to_string(npus) + " is not whole nodes of " + std::to_string(gpus_per_node) +
                     " GPUs (cluster spec " + file + "): give --nodes N, or --gpus-per-node G that divides it");
  }
  if (nodes && *nodes != npus / gpus_per_node) {
    throw InputError("--npus " + std::to_string(npus) + " is " + std::to_string(npus / gpus_per_node) + " nodes of " +
                     std::to_string(gpus_per_node) + " GPUs, not --nodes " + std::to_string(*nodes));
  }
  return npus / gpus_per_node;
}

namespace {

// No --topology: the fallback, or a spec file, which a cluster spec may scale (its count of
// nodes and of GPUs per node) and a one-node switch spec its GPUs (--gpus-per-node, or
// --npus as for a built switch); other builder options are an error.
Topology file_or_fallback(const po::variables_map& vm, const std::optional<std::string>& file,
                          const TopologyConfig& fallback, const SpecScale& measured) {
  const spec::TopologySpec message = file ? read_spec_message(*file) : spec::TopologySpec{};
  // An explicit graph (or no file) is of no builder kind.
  const spec::TopologyKind kind = message.has_builder() ? message.builder().kind() : spec::TOPOLOGY_KIND_UNSPECIFIED;
  const bool node_or_cluster = kind == spec::SWITCH || kind == spec::HIERARCHICAL;
  for (const BuilderParameter& parameter : builder_parameters()) {
    if (vm.count(std::string(parameter.option)) && !(file && option_scales_spec(parameter.option, node_or_cluster))) {
      throw InputError("--" + std::string(parameter.option) + " needs --topology KIND" +
                       (file ? " (a spec file gives its own parameters; --nodes N and --gpus-per-node G, or "
                               "--npus N, scale a cluster spec, --gpus-per-node G a one-node one)"
                             : ""));
    }
  }
  if (vm.count("npus") && vm.count("gpus-per-node") && kind == spec::SWITCH) {
    throw InputError("--npus and --gpus-per-node both give a one-node spec's GPUs: give one of them");
  }
  if (!file) {  // the default node scales to a one-node run's GPUs, as a switch spec does
    TopologyConfig c = fallback;
    if (c.kind == TopologyKind::kSwitch && measured.nodes.value_or(1) == 1) {
      c.npus = measured.gpus_per_node.value_or(c.npus);
    }
    return build_topology(c);
  }
  SpecScale scale;
  if (vm.count("nodes")) scale.nodes = count_option(vm, "nodes", 0, 1);
  if (vm.count("gpus-per-node")) scale.gpus_per_node = count_option(vm, "gpus-per-node", 0, 1);
  if (vm.count("npus")) {
    if (kind == spec::HIERARCHICAL) {
      // G: --gpus-per-node, else what the measurements ran, else the spec's.
      if (!scale.gpus_per_node)
        scale.gpus_per_node = measured.gpus_per_node.value_or(message.builder().gpus_per_node());
      scale.nodes = cluster_nodes_for_npus(count_option(vm, "npus", 0, 1), *scale.gpus_per_node, *file, scale.nodes);
    } else {
      scale.gpus_per_node = count_option(vm, "npus", 0, 1);
    }
  }
  // Only a hierarchical builder spec, or a switch one (one node) for a one-node run, scales:
  // what the measurements say fills in the rest.
  if (kind == spec::HIERARCHICAL) {
    if (!scale.nodes) scale.nodes = measured.nodes;
    if (!scale.gpus_per_node) scale.gpus_per_node = measured.gpus_per_node;
  } else if (kind == spec::SWITCH && !scale.gpus_per_node && measured.nodes.value_or(1) == 1) {
    scale.gpus_per_node = measured.gpus_per_node;
  }
  return load_topology_file(*file, scale);
}

}  // namespace

void apply_link_options(const po::variables_map& vm, TopologyConfig& c) {
  if (const auto bw = option_text(vm, "bandwidth")) c.link.bandwidth_Bps = parse_bandwidth(*bw, "--bandwidth");
  if (const auto lat = option_text(vm, "latency")) c.link.latency_ps = parse_time(*lat, "--latency");
  if (const auto kind = option_text(vm, "link-kind")) c.link.kind = parse_link_kind(*kind, "--link-kind");
  if (const auto bw = option_text(vm, "nic-bandwidth")) c.nic.bandwidth_Bps = parse_bandwidth(*bw, "--nic-bandwidth");
  if (const auto lat = option_text(vm, "nic-latency")) c.nic.latency_ps = parse_time(*lat, "--nic-latency");
  if (const auto duplex = option_text(vm, "duplex")) {
    const auto parsed = duplex_from_name(*duplex);
    if (!parsed) throw InputError("--duplex: expected full or half, got '" + *duplex + "'");
    c.link.duplex = c.nic.duplex = *parsed;
  }
}

namespace {

TopologyConfig builder_config(const po::variables_map& vm, const std::string& kind_text, const SpecScale& measured) {
  TopologyConfig c;
  c.kind = parse_topology_kind(kind_text, "--topology");
  for (const BuilderParameter& parameter : builder_parameters()) {
    if (vm.count(std::string(parameter.option)) && !parameter.applies_to(c.kind)) {
      throw InputError("--" + std::string(parameter.option) + " does not apply to --topology " +
                       kind_text + " (only to " + parameter.kind_names() + ")");
    }
  }
  c.npus = count_option(vm, "npus", 8, 1);
  c.arity = count_option(vm, "arity", 2, 2);
  c.nodes = count_option(vm, "nodes", measured.nodes.value_or(2), 1);
  c.gpus_per_node = count_option(vm, "gpus-per-node", measured.gpus_per_node.value_or(8), 1);
  c.leaf_size = count_option(vm, "leaf-size", 0, 1);
  if (const auto dims = option_text(vm, "dims")) {
    c.dims = parse_dims(*dims, "--dims");
  } else if (c.kind == TopologyKind::kMesh || c.kind == TopologyKind::kTorus) {
    throw InputError("--topology " + kind_text + " needs --dims, e.g. --dims 4x4");
  }
  if (const auto ratios = option_text(vm, "oversubscription")) c.oversubscription = parse_ratios(*ratios);
  apply_link_options(vm, c);
  c.nvls = vm.count("nvls") > 0;
  c.rails = vm.count("rails") > 0;
  return c;
}

}  // namespace

Topology topology_from_options(const po::variables_map& vm, const TopologyConfig& fallback, const SpecScale& measured,
                               const std::optional<std::string>& measured_system) {
  const auto file = option_text(vm, "topology-file");
  const auto kind_text = option_text(vm, "topology");
  if (file && kind_text) throw InputError("give either --topology-file or --topology, not both");
  if (!kind_text) return file_or_fallback(vm, file ? file : measured_system, fallback, measured);
  return build_topology(builder_config(vm, *kind_text, measured));
}

}  // namespace commsim::cli

namespace commsim::cli {

po::options_description library_options(bool with_channels) {
  po::options_description o("Communication library (default: the spec file's, else ideal: the wire alone)");
  add_option(o, "library", "NAME",
             "the library's costs beyond the wire: " + library_names() +
                 " (per-call and per-step latency, protocol bandwidth; see README)");
  add_option(o, "library-file", "FILE", "a library profile in full (proto/topology.proto LibrarySpec, text format)");
  add_option(o, "protocol", "P", "ll, ll128, simple, or auto: the fastest at each size (default auto)");
  if (with_channels) {
    add_option(o, "channels", "C",
               "rings (and under a library trees, at least 2) at once, ring c entering each node at GPU c "
               "(rail-aligned); under a library that knows its communicator's channels, also the most a call runs "
               "on (the ch column; at most 64); default: under a library on a hierarchical topology one per GPU of a "
               "node, else 1");
  }
  return o;
}

void add_gpus_per_thread_option(po::options_description& o) {
  add_option(o, "gpus-per-thread", "G",
             "one host thread drives G GPUs, as nccl-tests -g G: a call takes at least the library's time for the "
             "thread to launch their kernels (topo shows it; 1: a process a GPU; default: the library block's "
             "gpus_per_thread, else none)");
}

std::size_t gpus_per_thread_option(const po::variables_map& vm, const LibraryProfile& library) {
  const auto text = option_text(vm, "gpus-per-thread");
  return library.gpus_per_thread_or(text ? parse_count(*text, "--gpus-per-thread", 1, LibraryProfile::kMaxGpusPerThread)
                                         : 0);
}

std::string gpus_per_thread_line(const LibraryProfile& profile, std::size_t gpus) {
  if (gpus == 0 || profile.thread_launch.none()) return "";
  const TimePs base_ps = profile.thread_issue_ps(gpus, 0);
  const TimePs per_channel_ps = profile.thread_issue_ps(gpus, 1) - base_ps;
  const std::string channels = per_channel_ps > 0 ? " + " + format_time(per_channel_ps) + " per channel it runs on" : "";
  return "# one thread drives " + counted(gpus, "GPU") + " (nccl-tests -g " + std::to_string(gpus) +
         "): a call takes at least " + format_time(base_ps) + channels + "\n";
}

std::string one_node_ramp_line(const Topology& topology, const LibraryProfile& profile) {
  if (!one_node_ramp_applies(topology, profile)) return "";
  const std::vector<SizeRatio>& ramp = profile.one_node_ramp;
  return "# one-node ramp: inside this node a call of " + format_size(ramp.front().bytes) + " to below " +
         format_size(ramp.back().bytes) + " takes at least its time at " + format_size(ramp.back().bytes) +
         " scaled to its size, over the library's ramp (" + fixed(*profile.one_node_ramp_at(ramp.front().bytes), 3) +
         " at " + format_size(ramp.front().bytes) + "; topo shows it)\n";
}

namespace {

// --channels C under a library that knows its communicator's channels: it has C, NVLS too
// (as NCCL_MIN_CTAS=NCCL_MAX_CTAS=C sets them), and a call runs on at most C.
void force_call_channels(LibraryProfile& profile, std::size_t channels) {
  if (profile.collective_channels == 0 && profile.nvls_channels == 0) return;
  if (channels > LibraryProfile::kMaxChannels) {
    throw InputError("--channels " + std::to_string(channels) + ": library " + profile.name +
                     " runs a call on at most " + std::to_string(LibraryProfile::kMaxChannels) + " channels");
  }
  const auto forced = static_cast<std::uint32_t>(channels);
  if (profile.collective_channels > 0) profile.collective_channels = forced;
  if (profile.nvls_channels > 0) profile.nvls_channels = forced;
}

}  // namespace

LibraryChoice library_from_options(const po::variables_map& vm, const Topology& topology) {
  LibraryChoice choice{topology.library(), std::nullopt};
  const auto name = option_text(vm, "library");
  const auto file = option_text(vm, "library-file");
  if (name && file) throw InputError("give either --library or --library-file, not both");
  if (name) choice.profile = library_by_name(*name, "--library");
  if (file) choice.profile = load_library_file(*file);
  choice.channels = default_channels(topology, choice.profile);
  if (vm.count("channels")) {
    choice.channels = parse_count(*option_text(vm, "channels"), "--channels", 1, 1024);
    force_call_channels(choice.profile, choice.channels);
  }
  const std::string protocol = option_text(vm, "protocol").value_or("auto");
  if (protocol == "auto") return choice;
  if (choice.profile.ideal()) {
    throw InputError("--protocol " + protocol + ": the ideal library has no protocols (give --library nccl)");
  }
  choice.protocol = parse_protocol(protocol, "--protocol");
  choice.profile.costs(choice.protocol);  // throws if the library lacks it
  return choice;
}

}  // namespace commsim::cli
