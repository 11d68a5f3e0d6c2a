#include "model/collective_model.h"

// What NCCL would run (nccl_choice): its algorithms, protocols, chunks and channels, ranked by
// its own estimate (src/graph/tuning.cc) on the closed form of collective_model.cpp.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "base/error.h"
#include "model/in_switch_model.h"
#include "model/p2p_model.h"
#include "topology/in_switch.h"

namespace commsim {

using Kind = CollectiveKind;
using Algo = AlgorithmKind;

namespace {

constexpr std::uint8_t kPcieLink = 1, kNvlinkLink = 2;

// Per NPU, the classes of link it has: kPcieLink, kNvlinkLink or both.
std::vector<std::uint8_t> npu_link_classes(const Topology& topology) {
  std::vector<std::uint8_t> links_of(topology.npu_count(), 0);
  for (const Link& link : topology.links()) {
    const LinkClass c = link_class(link.params.kind);
    const std::uint8_t bit = c == LinkClass::kPcie ? kPcieLink : c == LinkClass::kNvlink ? kNvlinkLink : 0;
    for (const VertexId v : {link.first, link.second}) {
      if (v < links_of.size()) links_of[v] |= bit;
    }
  }
  return links_of;
}

// Whether every GPU talks to its node's over NVLink (NCCL: the ring graph's typeIntra is
// PATH_NVL).
bool gpus_talk_over_nvlink(const Topology& topology) {
  const std::vector<std::uint8_t> links_of = npu_link_classes(topology);
  return std::all_of(links_of.begin(), links_of.end(), [](std::uint8_t bits) { return (bits & kNvlinkLink) != 0; });
}

}  // namespace

bool nccl_leaves_ll128_out(const Topology& topology) {
  // Some NPU has PCIe links and no NVLink. A GPU with NVLink and PCIe (to its NIC, its CPU)
  // talks over NVLink; one with a NIC alone has no peer in its node.
  const std::vector<std::uint8_t> links_of = npu_link_classes(topology);
  return std::find(links_of.begin(), links_of.end(), kPcieLink) != links_of.end();
}

namespace {

// NCCL's nodes (comm->nNodes) in `topology`: a hierarchical topology's, else one.
std::size_t nccl_nodes(const Topology& topology) {
  const Shape& shape = topology.shape();
  if (shape.kind != TopologyKind::kHierarchical || shape.levels.empty() || shape.levels[0] == 0) return 1;
  return topology.npu_count() / shape.levels[0];
}

// Whether NCCL's estimate puts its ring plateau (LibraryProfile::ring_plateau) on this run's
// latency: a Ring/Simple AllReduce across nodes, or where the profile says so an AllGather or
// ReduceScatter inside one node over NVLink (ring_plateau_in_one_nvlink_node), once
// bytes / (channels x ranks) >= 64, the channels the communicator's
// (LibraryProfile::collective_channels), else the run's rings.
bool on_ring_plateau(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                     const LibraryProfile& profile, std::size_t rings, std::optional<Protocol> protocol) {
  if (algorithm != Algo::kRing || protocol != Protocol::kSimple) return false;
  const LibraryProfile& estimated = profile.estimated();
  const bool plateau = nccl_nodes(topology) > 1 ? kind == Kind::kAllReduce
                                                : estimated.ring_plateau_in_one_nvlink_node &&
                                                      (kind == Kind::kAllGather || kind == Kind::kReduceScatter) &&
                                                      gpus_talk_over_nvlink(topology);
  const std::uint32_t known = estimated.collective_channels;
  const std::size_t channels = std::max<std::size_t>(known > 0 ? known : rings, 1);
  return plateau && size / (channels * topology.npu_count()) >= 64;
}

// The time NCCL's estimate ranks a run by (src/graph/tuning.cc, ncclTopoGetAlgoTime): the
// closed form in its estimate form (ModelOptions::estimate) at the costs the profile ranks by
// (LibraryProfile::ranked_costs), with the bandwidth part of a Tree AllReduce over NCCL's
// size-dependent share of it (nccl_tree_correction: its estimate multiplies the Tree
// bandwidth by it) and the latency of a Ring/Simple AllReduce across nodes times its
// plateau (on_ring_plateau). NCCL ranks every algorithm and protocol so, together.
double ranked_time_s(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                     ModelOptions options, const LibraryProfile& profile, std::optional<Protocol> protocol) {
  options.library = profile.ranked_costs(kind, algorithm, protocol);
  options.estimate = true;
  options.estimate_nvls_tree_net_rate_Bps = profile.estimated().nvls_tree_net_rate_Bps;
  const CollectiveCost cost = collective_cost(topology, kind, algorithm, size, options);
  double time_s = cost.time_s(options.gamma_s_per_byte), latency_s = 0, bandwidth_s = 0;
  for (const CostTerm& term : cost.terms) {
    latency_s += term.alpha_count * term.alpha_s;
    bandwidth_s += term.beta_bytes * term.beta_s_per_byte;
  }
  if (on_ring_plateau(topology, kind, algorithm, size, profile, options.channels, protocol)) {
    // NCCL's latency of the call, without the system's launch cost, which it does not know.
    const double launch_s = seconds_from_ps(profile.estimated().launch_ps);
    time_s += (latency_s - launch_s) * (profile.estimated().ring_plateau - 1);
  }
  if (kind != Kind::kAllReduce || algorithm != Algo::kTree || !protocol) return time_s;
  return time_s + bandwidth_s * (1 / nccl_tree_correction(*protocol, size) - 1);
}

}  // namespace

std::optional<Protocol> fastest_protocol(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm,
                                         Bytes size, ModelOptions options, const LibraryProfile& profile) {
  if (reduces_in_switch(algorithm)) {  // NCCL runs NVLS with Simple only
    return profile.ideal() ? std::nullopt : std::optional<Protocol>(Protocol::kSimple);
  }
  const ProtocolRows& rows = profile.estimated().rows(algorithm);
  const bool has_ll128 =
      std::any_of(rows.begin(), rows.end(), [](const auto& row) { return row.first == Protocol::kLL128; });
  const auto left_out = has_ll128 && nccl_leaves_ll128_out(topology) ? std::optional(Protocol::kLL128) : std::nullopt;
  return profile.fastest(
      kind, algorithm,
      [&](Protocol protocol, const ProtocolCosts&) {
        return ranked_time_s(topology, kind, algorithm, size, options, profile, protocol);
      },
      left_out);
}

std::vector<AlgorithmKind> nccl_algorithms(CollectiveKind kind) {
  switch (kind) {
    case Kind::kAllReduce: return {Algo::kRing, Algo::kTree, Algo::kNvls, Algo::kNvlsTree};
    case Kind::kAllToAll: return {Algo::kDirect};
    case Kind::kBarrier: return {Algo::kDissemination};
    default: return {Algo::kRing};
  }
}

RateCapsByClass collective_rate_caps(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                                     std::optional<Protocol> protocol, const LibraryProfile& profile,
                                     const ModelOptions& run) {
  const std::size_t ranks = topology.npu_count();
  if (ranks == 0 || algorithm == Algo::kNvls) return kNoRateCaps;
  RateCapsByClass caps = kNoRateCaps;
  if (algorithm == Algo::kNvlsTree) {
    caps[static_cast<int>(LinkClass::kNet)] = model::nvls_tree_flow_cap(topology, size, profile);
  } else if (kind == Kind::kAllToAll && algorithm == Algo::kDirect) {
    caps = profile.p2p_rate_caps(size / ranks, ranks);
  } else if (std::isfinite(profile.net_channel_rate_Bps)) {
    // Each ring or tree the run moves at once carries C / lanes of the call's C channels.
    const std::size_t lanes = collective_lanes(kind, algorithm, run.channels, run.tree_node_gpus);
    const std::uint32_t channels = collective_call_channels(topology, kind, algorithm, size, protocol, profile, lanes);
    // The rate bounds the bytes a channel's proxy sends, flags included: of data, the
    // protocol's share of it (LL128 120 of every 128 bytes).
    const double data_share = protocol ? protocol_data_share(*protocol) : 1.0;
    caps[static_cast<int>(LinkClass::kNet)] =
        data_share * profile.net_channel_rate_Bps * static_cast<double>(channels) / static_cast<double>(lanes);
  }
  for (BandwidthBps& cap : caps) cap *= profile.bandwidth_factor(kind);  // as on its protocol's rate
  return caps;
}

std::uint32_t collective_call_channels(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm,
                                       Bytes size, std::optional<Protocol> protocol, const LibraryProfile& profile,
                                       std::size_t rings) {
  const std::size_t p = topology.npu_count();
  if (kind != Kind::kAllToAll || algorithm != Algo::kDirect || !profile.p2p || p < 2) {
    const std::uint32_t known = profile.call_channels(size, algorithm, protocol, p);
    return known > 0 ? known : static_cast<std::uint32_t>(rings);
  }
  std::uint32_t most = 0;
  for (Rank peer = 1; peer < p; ++peer) most = std::max(most, *p2p_send_channels(topology, 0, peer, size / p, profile));
  return most;
}

// NCCL's AllToAll is a group of sends, one of size / p to every peer, whose protocol its P2P
// threshold decides where the profile has one (LibraryProfile::p2p_threshold_protocol).
std::optional<Protocol> alltoall_threshold_protocol(const Topology& topology, Bytes size, const LibraryProfile& profile) {
  const std::size_t p = topology.npu_count();
  std::vector<std::pair<Bytes, LinkClass>> sends;
  for (Rank peer = 1; peer < p; ++peer) sends.emplace_back(size / p, topology.route_class(topology.route(0, peer)));
  return profile.p2p_threshold_protocol(sends, p);
}

std::size_t least_time_chunks(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm, Bytes size,
                              ModelOptions options) {
  if (reduces_in_switch(algorithm) || size < 2) return 1;
  const auto time_s = [&](std::size_t chunks) {
    options.chunks = chunks;
    return collective_cost(topology, kind, algorithm, size, options).time_s(options.gamma_s_per_byte);
  };
  std::size_t best = 1;
  double best_s = time_s(1);
  for (std::size_t chunks = 2; chunks <= kMaxLibraryChunks && chunks <= size; chunks *= 2) {
    const double t = time_s(chunks);
    if (t < best_s) {
      best = chunks;
      best_s = t;
    }
  }
  return best;
}

bool nccl_leaves_nvls_out(const Topology& topology) {
  const std::vector<InSwitchGroup> groups = in_switch_groups(topology);
  return std::any_of(groups.begin(), groups.end(), [](const InSwitchGroup& g) { return g.ranks.size() <= 2; });
}

namespace {

// Whether NCCL would consider NVLS (and NVLS-tree) on `topology`: only where its switches
// reduce, and not with 2 GPUs or fewer on one (nccl_leaves_nvls_out).
bool nccl_runs_in_switch(const Topology& topology, AlgorithmKind algorithm) {
  return !in_switch_unavailable(topology, algorithm == Algo::kNvlsTree) && !nccl_leaves_nvls_out(topology);
}

}  // namespace

NcclChoice nccl_choice(const Topology& topology, CollectiveKind kind, Bytes size, const ModelOptions& options,
                       const LibraryProfile& profile, std::optional<Protocol> protocol) {
  if (kind == Kind::kAllToAll && !protocol) protocol = alltoall_threshold_protocol(topology, size, profile);
  if (const std::optional<AlgorithmKind> own = profile.own_algorithm(kind)) {
    return {*own, protocol ? protocol : fastest_protocol(topology, kind, *own, size, options, profile)};
  }
  NcclChoice best;
  double best_s = -1;
  for (const AlgorithmKind algorithm : nccl_algorithms(kind)) {
    if (reduces_in_switch(algorithm) && (!profile.in_switch || (protocol && *protocol != Protocol::kSimple) ||
                                         !nccl_runs_in_switch(topology, algorithm))) {
      continue;  // NCCL considers NVLS only where the switch reduces, with Simple
    }
    const std::optional<Protocol> p =
        protocol ? protocol : fastest_protocol(topology, kind, algorithm, size, options, profile);
    const double t = ranked_time_s(topology, kind, algorithm, size, options, profile, p);
    if (best_s < 0 || t < best_s) {
      best = {algorithm, p};
      best_s = t;
    }
  }
  return best;
}

}  // namespace commsim
