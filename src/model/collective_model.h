#pragma once
// Closed-form cost of collectives in the alpha-beta-gamma model, written independently of
// the simulator (never include engine, network or collective here):
//
//   T = sum over terms of  alpha_count * alpha + beta_bytes * beta + gamma_bytes * gamma
//
// alpha: o + path latency (+ the library's step latency for the route's class of link);
// beta: seconds per byte (1 / bandwidth, or 1 / the library's rate on it); gamma: seconds
// per byte reduced. A library's per-call latency is one more term, "library call". Each term is one level or phase of an algorithm with its own alpha and
// beta, evaluated on the topology from the routes between the ranks that phase pairs up
// (ranks are NPUs in order: the model does not see a rank mapping, which is the point of
// comparing it with the simulator).
//
// Sources: Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
// Operations in MPICH", IJHPCA 19(1), 2005 (ring, recursive doubling/halving,
// Rabenseifner, Bruck, pairwise, binomial tree); Chan, Heimlich, Purkayastha & van de
// Geijn, "Collective communication: theory, practice, and experience", CCPE 19(13), 2007
// (lower bounds); NCCL's ring and tree step counts; nccl-tests doc/PERFORMANCE.md.

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct ModelOptions {
  double overhead_s = 0;        // o, per message
  ProtocolCosts library;        // a library's costs (topology/library.h); default: none
  double gamma_s_per_byte = 0;  // reduction arithmetic
  std::size_t chunks = 1;       // pieces that pipeline through the algorithm
  std::size_t channels = 1;     // ring: one ring per channel (Topology::ring_order); NCCL's tree: trees
  std::size_t tree_node_gpus = 0;  // tree AllReduce: NCCL's, GPUs chained per node; 0: double binary tree
  Rank root = 0;                // Broadcast and Reduce
  /// Caps on every message's rate by its route's class (collective_rate_caps).
  RateCapsByClass rate_caps_by_class = kNoRateCaps;
  /// NCCL's estimate (ncclTopoGetAlgoTime), by which a library ranks algorithms: a step's latency is the library's per-step latency alone, which NCCL measured
  /// over the whole hop (tuning.cc has no wire term), not that plus the route's latency; and
  /// NCCL's tree is its fill's latency plus the bytes at its steady rate, latency + bytes /
  /// bandwidth (algorithm_plans.cpp, nccl_tree_estimate), whatever `chunks` says.
  bool estimate = false;
  /// In NCCL's estimate of nvls-tree across more than two nodes: what each GPU's link to the
  /// network moves at most (LibraryProfile::nvls_tree_net_rate_Bps); infinite: its bandwidth.
  BandwidthBps estimate_nvls_tree_net_rate_Bps = std::numeric_limits<double>::infinity();
};

/// One level or phase of an algorithm.
struct CostTerm {
  std::string label;            // e.g. "reduce-scatter", "inter-node all-reduce"
  double alpha_count = 0;       // latency terms on the critical path
  double beta_bytes = 0;        // bytes on the critical path
  double gamma_bytes = 0;       // bytes reduced on the critical path
  double alpha_s = 0;           // o + path latency of this phase's pairs
  double beta_s_per_byte = 0;   // effective seconds per byte of this phase
  double time_s(double gamma_s_per_byte) const {
    return alpha_count * alpha_s + beta_bytes * beta_s_per_byte + gamma_bytes * gamma_s_per_byte;
  }
};

struct CollectiveCost {
  std::vector<CostTerm> terms;
  /// The formula in the notation of the papers, e.g.
  /// "2(p-1) a + 2(p-1)/p n b + (p-1)/p n g".
  std::string formula;
  double time_s(double gamma_s_per_byte) const;
};

/// `size` is the nccl-tests size (base/collectives.h); a formula for every pair that
/// implements() (base/collectives.h) lists. Precondition: the algorithm applies to the
/// topology (the collective layer checks); throws InputError for a pair not in the table.
CollectiveCost collective_cost(const Topology& topology, CollectiveKind kind,
                               AlgorithmKind algorithm, Bytes size, const ModelOptions& options);

/// The protocol NCCL would run this collective, algorithm and size with: of least time by
/// its own estimate (ncclTopoGetAlgoTime: the closed form's estimate form at the costs the
/// profile ranks by, a Tree AllReduce's bandwidth part over NCCL's share of it,
/// nccl_tree_correction), the ranking nccl_choice puts algorithms in too; ties go to the
/// earlier protocol of the profile. Empty for an ideal profile, which has none.
std::optional<Protocol> fastest_protocol(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm,
                                         Bytes size, ModelOptions options, const LibraryProfile& profile);

/// Whether some NPU of `topology` talks to the GPUs of its node over PCIe alone (PCIe links,
/// no NVLink), where NCCL does not enable LL128 (src/graph/tuning.cc: "Enable LL128 by default
/// only on Volta/Ampere/Hopper+NVLink. Other cases are not tested and may cause silent data
/// corruption", typeIntra <= PATH_NVB): its choice of protocol (fastest_protocol) leaves
/// LL128 out there; --protocol ll128 still runs it.
bool nccl_leaves_ll128_out(const Topology& topology);

/// Whether a switch of `topology` reduces but serves 2 of its GPUs or fewer, where NCCL turns
/// NVLS off (NVIDIA/nccl src/transport/nvls.cc, ncclNvlsInit: "if (... gpuCount <= 2)
/// return", gpuCount the communicator's GPUs in the node): 2 GPUs a node run rings and trees.
bool nccl_leaves_nvls_out(const Topology& topology);

/// What NCCL would run: among the algorithms it has for the collective (AllReduce: ring,
/// its double binary tree, and NVLS and NVLS-tree where a switch reduces, serving more than
/// 2 GPUs, and the profile has in-switch costs; AllGather, ReduceScatter: ring; Broadcast,
/// Reduce: the pipelined chain, i.e. ring; AllToAll: a grouped send and receive to every
/// peer, i.e. direct; Barrier: dissemination) and the profile's protocols, the pair of least closed-form time, as NCCL
/// ranks them by its own estimate (ncclTopoGetAlgoTime, with its Tree correction as in
/// fastest_protocol). Ties go to the earlier candidate.
/// AllToAll's protocol is its P2P's: by the profile's LL threshold on the size / p each peer
/// gets, where the profile has one (LibraryProfile::p2p_threshold_protocol). A library with an
/// algorithm of its own for the collective (LibraryProfile::own_algorithm, Gloo's) runs that
/// one, at its protocol of least estimated time.
struct NcclChoice {
  AlgorithmKind algorithm = AlgorithmKind::kRing;
  std::optional<Protocol> protocol;  // empty for an ideal profile
};
NcclChoice nccl_choice(const Topology& topology, CollectiveKind kind, Bytes size, const ModelOptions& options,
                       const LibraryProfile& profile, std::optional<Protocol> protocol = std::nullopt);
/// The most chunks least_time_chunks tries.
inline constexpr std::size_t kMaxLibraryChunks = 1024;
/// The chunks a library pipelines `algorithm` with at `size`: of 1, 2, 4, ... up to
/// kMaxLibraryChunks (a byte each at least), the count of least closed-form time under
/// `options` (its own chunks ignored). NCCL pipelines every collective through its buffers in
/// chunks (src/enqueue.cc); how deep it pays is what the closed form says: a chain
/// (Broadcast, Reduce) gains up to about sqrt((p - 2) n beta / alpha) chunks, while a ring
/// already pipelines its blocks and a chunk only adds latency. In-switch runs take 1.
std::size_t least_time_chunks(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                              ModelOptions options);

/// The caps on the messages of `algorithm` running `kind` of `size` (nccl-tests' size) on
/// the p NPUs of `topology` under `profile`, in protocol `protocol`, on the rings or trees
/// of `run` (its channels and tree_node_gpus): NCCL runs AllToAll (direct) as a group of P2P
/// sends of size / p, each on the profile's P2P channels (LibraryProfile::p2p_rate_caps).
/// Every other message is one lane's (collective_lanes: a ring's or a tree's step), which
/// carries C / lanes of the C channels NCCL runs the call on (collective_call_channels), so
/// it moves at most C / lanes x the profile's net_channel_rate across the network, of data
/// the protocol's share of it (protocol_data_share: the lines cross as they are). nvls-tree's
/// flows across nodes share their head's channels (model/in_switch_model.h,
/// nvls_tree_flow_cap); nvls's, to and from the switch, have none. Each at the collective's
/// bandwidth factor
/// (LibraryProfile::collective_bandwidth). The simulator (CollectiveConfig) and the closed
/// form (ModelOptions) take the same; NCCL's estimate knows none.
RateCapsByClass collective_rate_caps(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                                     std::optional<Protocol> protocol, const LibraryProfile& profile,
                                     const ModelOptions& run);

/// The channels one call runs on under `profile`, as NCCL_DEBUG=INFO tells: AllToAll (direct)
/// under P2P channels those of its sends of size / p (the most of any peer's route class);
/// any other call LibraryProfile::call_channels; where the profile does not say, the `rings`
/// the simulator runs at once.
std::uint32_t collective_call_channels(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm,
                                       Bytes size, std::optional<Protocol> protocol, const LibraryProfile& profile,
                                       std::size_t rings);

/// The algorithms nccl_choice considers for `kind`, in order.
std::vector<AlgorithmKind> nccl_algorithms(CollectiveKind kind);

/// Lower bound for any algorithm (Chan et al. 2007, with alpha the smallest o + path
/// latency between two ranks and beta from the smallest injection bandwidth of a rank).
double collective_lower_bound_s(const Topology& topology, CollectiveKind kind, Bytes size,
                                const ModelOptions& options);

/// The formula with the values substituted, one line per term, for --verbose.
std::string describe_cost(const CollectiveCost& cost, const ModelOptions& options);

}  // namespace commsim
