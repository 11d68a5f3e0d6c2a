#pragma once
// The topology options every subcommand takes: a spec file, or a kind and its parameters.
// With neither, the topology is the command's default (the 8-GPU H100 NVSwitch node unless
// the command says otherwise); builder options without --topology are an error.

#include "command_line.h"
#include <optional>
#include <string>

#include "topology/builders.h"
#include "topology/library.h"
#include "topology/spec_file.h"
#include "topology/topology.h"

namespace commsim::cli {

/// The value of count option --`name` in [min, 2^32 - 1], or `fallback` when not given;
/// InputError naming the option otherwise. One range for every command's topology counts.
std::uint32_t count_option(const po::variables_map& vm, const char* name, std::uint32_t fallback, std::uint64_t min);

/// --npus N on a cluster spec `file` of `gpus_per_node` GPUs a node (the spec's, or
/// --gpus-per-node): N GPUs in all, so N / G nodes. InputError where N is not whole nodes, or
/// where --nodes (`nodes`) gives another count.
std::uint32_t cluster_nodes_for_npus(std::uint32_t npus, std::uint32_t gpus_per_node, const std::string& file,
                                     std::optional<std::uint32_t> nodes = std::nullopt);

/// Whether builder parameter --`option` (topology/builders.h, builder_parameters) scales a
/// builder spec given with --topology-file rather than contradicting it: --nodes and
/// --gpus-per-node (a cluster's; --gpus-per-node also a one-node spec's GPUs; loading the spec
/// refuses what its kind does not take) and, on a one-node or cluster spec
/// (`spec_is_node_or_cluster`: its builder is a switch or hierarchical), --npus. Every other
/// parameter is the spec's own.
bool option_scales_spec(std::string_view option, bool spec_is_node_or_cluster);

/// `caption` heads the group in --help: it names the command's default topology.
po::options_description topology_options(const std::string& caption = "Topology (default: an 8-GPU H100 NVSwitch node)");

/// --bandwidth, --latency, --link-kind, --nic-bandwidth, --nic-latency, --duplex: the links of
/// a built topology (part of topology_options()).
void add_link_options(po::options_description& options);
/// Sets those the options give on `config`; InputError on a bad value.
void apply_link_options(const po::variables_map& vm, TopologyConfig& config);

/// Throws InputError on a bad value, or an option that does not apply to the kind.
/// `measured` is what measurements say they ran on (their header's nodes and GPUs per node):
/// a hierarchical topology, built or a cluster spec, takes those counts where no option
/// gives them. `measured_system`, a spec file (or preset) of the system the measurements ran
/// on, stands for --topology-file where no topology option is given.
Topology topology_from_options(const po::variables_map& vm, const TopologyConfig& fallback = default_topology_config(),
                               const SpecScale& measured = {},
                               const std::optional<std::string>& measured_system = std::nullopt);

/// The communication library options: --library NAME, --library-file FILE, --protocol, and
/// for the commands that run rings, --channels.
po::options_description library_options(bool with_channels = false);

/// A library profile and the protocol asked for (empty: auto, the fastest by the closed
/// form at each size, as NCCL chooses). Without --library or --library-file, the
/// topology's own (a spec file's `library` block; ideal for a built topology). Throws
/// InputError on an unknown name, or a protocol with the ideal library, which has none.
struct LibraryChoice {
  LibraryProfile profile;
  std::optional<Protocol> protocol;
  /// Rings at once: --channels, else under a library on a hierarchical topology one per GPU
  /// of a node (a ring per NIC, rail-aligned, as NCCL builds them), else 1.
  std::size_t channels = 1;
};
LibraryChoice library_from_options(const po::variables_map& vm, const Topology& topology);

/// --gpus-per-thread G, for the commands that time back-to-back calls as nccl-tests does: one
/// host thread drives G GPUs (nccl-tests -g G), so a call takes at least the library's
/// thread issue time (LibraryProfile::thread_issue_ps).
void add_gpus_per_thread_option(po::options_description& o);
/// Its value, or when not given the library's own (LibraryProfile::gpus_per_thread; 0: none).
/// Throws InputError on a bad count.
std::size_t gpus_per_thread_option(const po::variables_map& vm, const LibraryProfile& library);
/// "# one thread drives 8 GPUs (nccl-tests -g 8): a call takes at least 33.7 us\n", or
/// nothing for 0 or a library without the term.
std::string gpus_per_thread_line(const LibraryProfile& profile, std::size_t gpus);
/// "# one-node ramp: inside this node a call of 16M to below 16G takes at least ...\n" where
/// the library's one-node ramp bounds collectives on `topology`, else nothing.
std::string one_node_ramp_line(const Topology& topology, const LibraryProfile& profile);

}  // namespace commsim::cli
