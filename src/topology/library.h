#pragma once
// A communication library's costs beyond the wire (DESIGN.md section 3, "Communication
// library"). NCCL, Gloo or MPI add to every collective what a link does not:
//   per call     a launch and set-up latency             (NCCL: baseLatencies)
//   per message  a step latency by the class of link     (NCCL: hwLatencies)
//                it crosses: NVLink, PCIe or network
//   per flow     a bandwidth efficiency (the fraction of  (NCCL: LL 1/2, LL128 ~120/128,
//                bytes that carry data)                    Simple 1)
//   per call     a rate cap, shared by the C channels      (NCCL: llMaxBw)
//                (rings, chains, trees) it runs at once
// each by protocol: NCCL's LL (8-byte flag+data stores, lowest latency), LL128 and
// Simple (bulk copies, full bandwidth). A profile holds these terms; the topology holds
// the wire. `ideal` has no terms: exact alpha-beta, as before profiles existed.
//
// The simulator (network/) and the closed form (model/) apply the same ProtocolCosts, so
// on an idle network they still agree exactly and sim/model means contention alone:
//   T(message) = o + step latency(class of route) + path latency + S / rate
//   rate       = min(efficiency x bottleneck bandwidth, max rate / C)
// where the efficiency is the data's share of the wire: a message puts S / efficiency bytes
// on its links, and messages sharing a link share it in those wire bytes.
//   T(call)    = call latency + the algorithm's time from its messages
//
// Source of the `nccl` defaults: NVIDIA/nccl src/graph/tuning.cc (release 2.26; Ring
// constants, Hopper caps; NVLS-tree's network step and per-head cap from the releases after).

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/collectives.h"
#include "base/units.h"
#include "topology/link.h"

namespace commsim {

enum class Protocol : std::uint8_t { kLL, kLL128, kSimple };

/// A cap on a message's data rate per class of its route (LinkClass order: NVLink, PCIe,
/// network), B/s; infinite: none.
using RateCapsByClass = std::array<BandwidthBps, 3>;
inline constexpr RateCapsByClass kNoRateCaps{std::numeric_limits<double>::infinity(),
                                             std::numeric_limits<double>::infinity(),
                                             std::numeric_limits<double>::infinity()};

std::string_view protocol_name(Protocol protocol);  // "ll", "ll128", "simple"
/// The share of the bytes a protocol puts in its buffers that carry data, as its lines are
/// laid out (NVIDIA/nccl src/include/device.h): LL 8 of 16 (a 4-byte flag beside each 4
/// bytes of data, union ncclLLFifoLine), LL128 120 of 128 (NCCL_LL128_DATAELEMS of
/// NCCL_LL128_LINEELEMS 8-byte words), Simple all. Across the network NCCL's proxy sends the
/// lines as they are, flags included (src/transport/net.cc, sendProxyProgress).
double protocol_data_share(Protocol protocol);
/// Accepts "ll", "LL128", "Simple", ... (any case). Throws InputError naming `what`.
Protocol parse_protocol(std::string_view name, std::string_view what);

/// What one run of a library adds, for one protocol. Default-constructed: nothing (ideal).
struct ProtocolCosts {
  TimePs call_latency_ps = 0;
  std::array<TimePs, 3> step_latency_ps{};  // by LinkClass
  double efficiency = 1;                    // (0, 1]
  /// A collective's rate cap: each of the C channels it runs at once moves at most 1/C of it
  /// (the runner and the closed form divide); a lone send's own.
  BandwidthBps max_rate_Bps = std::numeric_limits<double>::infinity();
  /// An in-switch (NVLS) AllReduce: the channels whose chunks fill its pipeline beyond what
  /// the flows take (in_switch_fill_ps on one switch, in_switch_tree_fill_ps through
  /// nvls-tree's tree); 0: no fill. What a run pays, not part of NCCL's estimate
  /// (LibraryProfile::costs sets it for nvls and nvls-tree, ranked_costs leaves it 0).
  std::uint32_t fill_channels = 0;
  /// What a ring call (AllReduce, AllGather, ReduceScatter) moves per channel and per rank in
  /// one loop through the library's buffers (NCCL: its protocol's buffer over NCCL_STEPS, times
  /// the steps of a chunk); 0: one loop whatever the size (LibraryProfile::ring_loops).
  Bytes loop_chunk_bytes = 0;
  /// The loops of the run these costs are for (LibraryProfile::ring_loops); 1 outside a run
  /// and in an estimate (NCCL's has no loop term).
  std::uint64_t loops = 1;

  TimePs step_latency(LinkClass c) const { return step_latency_ps[static_cast<int>(c)]; }
  /// What a message of one step of a run waits on a route of class `c`: the step latency,
  /// once per loop where the GPUs' thread blocks move the data themselves (NVLink, PCIe): a
  /// ring's every step, in every loop, waits for the previous rank's slices before its
  /// block copies them on. Once on the network, where a NIC moves the data: the block only
  /// fills the proxy's buffer slots and the ring runs at the NICs' pace, which hides it.
  TimePs run_step_latency(LinkClass c) const;
  /// The rate a lone flow reaches on a route whose slowest link is `bottleneck`.
  BandwidthBps rate(BandwidthBps bottleneck) const;
  bool operator==(const ProtocolCosts&) const = default;
};

/// "call 6.6 us; step NVLink 600 ns, PCIe 1 us, network 2.7 us; efficiency 0.5; max rate
/// 141 GB/s": the terms, for --verbose.
std::string describe_costs(const ProtocolCosts& costs);

/// How a library runs one send to a peer (NCCL's P2P, src/enqueue.cc): over channels, each
/// a GPU thread block that moves at most `channel_rate` on its class of link. Inside a node
/// the send starts on start_channels(ranks), fewer while a channel would carry less than
/// `min_bytes_per_channel`, and doubles them while a channel would carry more than
/// `max_bytes_per_channel`, up to `max_channels` (addP2pToPlan, calcP2pChannelCount); to a
/// peer in another node it uses net_channels(ranks), fewer below `min_bytes_per_channel`. So
/// a send of S bytes runs at most at channels(S) x channel_rate. Its protocol is LL while
/// each channel carries at most `ll_max_bytes_per_channel` (NCCL_P2P_LL_THRESHOLD,
/// addP2pToPlan), else Simple; with no threshold (0) the library picks by least estimated
/// time. A send to a peer in another node is never LL: NCCL gives network P2P connections
/// no LL buffer (src/transport/net.cc, unless NCCL_ALLOC_P2P_NET_LL_BUFFERS=1), and
/// addP2pToPlan runs LL only on connections that have one.
///
/// Where a send starts depends on the communicator: NCCL starts every peer on its channels
/// per peer, halved while that many for each of the communicator's ranks exceeds its P2P
/// channels (scheduleP2pTasksToPlan: "try to use all channels, but one channel per
/// operation"), so a send among 4 ranks starts on twice the channels it has among 8; and it
/// gives a network peer fewer channels in a large communicator (net_channels).
/// `communicator_channels` is that count of P2P channels; 0: every send starts on
/// `min_channels` and a network peer has `net_peer_channels`, whatever the communicator.
struct P2pChannels {
  std::uint32_t min_channels = 1;
  std::uint32_t max_channels = 1;
  Bytes max_bytes_per_channel = 0;
  std::uint32_t net_peer_channels = 1;
  std::array<BandwidthBps, 3> channel_rate_Bps{};  // by LinkClass
  Bytes ll_max_bytes_per_channel = 0;
  std::uint32_t communicator_channels = 0;
  Bytes min_bytes_per_channel = 0;  // 0: no such floor
  /// The most one send to a peer in another node moves, whatever its channels (infinite:
  /// no such cap): channels x channel_rate holds it only while it is below this.
  BandwidthBps net_peer_rate_Bps = std::numeric_limits<double>::infinity();

  /// The peers one channel serves in one round of a communicator's sends
  /// (NCCL_MAX_DEV_WORK_P2P_PER_BATCH, src/include/device.h).
  static constexpr std::size_t kPeersPerChannelRound = 8;

  /// The channels a send inside a node starts on, in a communicator of `ranks`: max_channels
  /// halved while x ranks exceeds communicator_channels, at least min_channels (min_channels
  /// without communicator_channels).
  std::uint32_t start_channels(std::size_t ranks) const;
  /// The channels a send to a peer in another node runs on, in a communicator of `ranks`:
  /// net_peer_channels halved while that many for each round of 8 peers exceeds
  /// communicator_channels (NCCL 2.29, src/graph/paths.cc, ncclTopoComputeP2pChannels: "the
  /// network is the bottleneck ... fit all the peers within a single round"), at least 1.
  std::uint32_t net_channels(std::size_t ranks) const;
  std::uint32_t channels(Bytes bytes, LinkClass route, std::size_t ranks) const;
  /// Whether a send of `bytes` runs LL by the threshold (false without one).
  bool runs_ll(Bytes bytes, LinkClass route, std::size_t ranks) const {
    return route != LinkClass::kNet && bytes <= Bytes{channels(bytes, route, ranks)} * ll_max_bytes_per_channel;
  }
  /// channels x channel_rate, at most net_peer_rate across nodes.
  BandwidthBps rate_cap(Bytes bytes, LinkClass route, std::size_t ranks) const {
    const BandwidthBps rate = channels(bytes, route, ranks) * channel_rate_Bps[static_cast<int>(route)];
    return route == LinkClass::kNet ? std::min(rate, net_peer_rate_Bps) : rate;
  }
  /// rate_cap of a send of `bytes` on each class of route.
  RateCapsByClass rate_caps(Bytes bytes, std::size_t ranks) const {
    return {rate_cap(bytes, LinkClass::kNvlink, ranks), rate_cap(bytes, LinkClass::kPcie, ranks),
            rate_cap(bytes, LinkClass::kNet, ranks)};
  }
  bool operator==(const P2pChannels&) const = default;
};

/// "up to 32 channels, starting on 32 halved while x ranks exceeds 32 (4 among 8 ranks),
/// fewer below 64K a channel, doubled past 16M a channel; 4 per network peer halved while x
/// ceil(ranks / 8) exceeds 32 (4 among 8 ranks); a channel at most 20 GB/s on NVLink, 7.6
/// GB/s on the network; a send to a network peer at most 25 GB/s; LL up to 16K a channel",
/// in a communicator of `ranks`: for topo.
std::string describe_p2p(const P2pChannels& channels, std::size_t ranks);

/// How fast one host thread issues calls to the GPUs it drives. nccl-tests -g G has one
/// thread launch every GPU's kernel of a call in turn, and for each GPU the library writes
/// one work element per channel the call runs on (NCCL: a ncclWork per channel of the plan,
/// src/enqueue.cc), so the thread issues at most one call every
///   T_issue = per_call + G x (per_gpu + C x per_channel)
/// with C the call's channels; since nccl-tests times back-to-back iterations, a row measures
/// the larger of T_issue and the call's own time. Default-constructed: no such bound.
struct ThreadLaunch {
  TimePs per_call_ps = 0;
  TimePs per_gpu_ps = 0;
  TimePs per_channel_ps = 0;  // per GPU, per channel of the call

  bool none() const { return per_call_ps == 0 && per_gpu_ps == 0 && per_channel_ps == 0; }
  /// T_issue for `gpus` GPUs (0: none) and a call on `channels` channels.
  TimePs issue_ps(std::size_t gpus, std::uint32_t channels) const;
  bool operator==(const ThreadLaunch&) const = default;
};

/// "2.1 us + G x (3.64 us + 310 ns per channel)": for topo.
std::string describe_thread_launch(const ThreadLaunch& launch);

/// The channels NCCL runs one collective of `bytes` on (src/enqueue.cc, topoGetAlgoInfo):
/// the communicator's `channels`, one fewer while every thread would get less than its
/// protocol's share,
///   while bytes < nc x threads x threshold and nc > 1: nc -= 1
/// threads per channel LL 512, LL128 640, Simple 512 (NCCL_*_MAX_NTHREADS); threshold LL 8 B,
/// LL128 8 B, Simple 64 B (NCCL_*_THREAD_THRESHOLD), a ring's LL x ranks (tuning.cc). So an
/// 8-rank ring LL AllReduce of 256 KiB runs on 8 channels. An in-switch run keeps them all
/// (NCCL's NVLS has its own count, not reduced by size). 0 channels: 1.
std::uint32_t nccl_call_channels(std::uint32_t channels, Bytes bytes, AlgorithmKind algorithm,
                                 std::optional<Protocol> protocol, std::size_t ranks);

/// A ratio measured at a size (LibraryProfile::one_node_ramp).
struct SizeRatio {
  Bytes bytes = 0;
  double ratio = 1;
};

/// A library's costs by protocol, in the order it prefers them on a tie.
using ProtocolRows = std::vector<std::pair<Protocol, ProtocolCosts>>;

struct LibraryProfile {
  std::string name = "ideal";
  /// The protocols the library has, in the order it prefers them on a tie. Empty: ideal.
  ProtocolRows protocols;
  /// What the tree algorithm costs by protocol, where it is not what `protocols` gives:
  /// NCCL's estimate has a row per algorithm (src/graph/tuning.cc), and its Tree row has
  /// its own per-call and per-step latencies and its own share of the link. The same
  /// protocols as `protocols`, in the same order; empty: tree runs at the protocols' costs.
  ProtocolRows tree;
  /// The rows `algorithm` runs at: `tree` for the tree algorithm where given, else `protocols`.
  const ProtocolRows& rows(AlgorithmKind algorithm) const;

  /// In-switch reduction (NVLS, topology/in_switch.h), if the library has it: call latency;
  /// step latency on NVLink for the reduction round and on the network per tree level of
  /// nvls-tree; the efficiency and cap of flows to and from the switch. NCCL runs it with
  /// the Simple protocol only.
  std::optional<ProtocolCosts> in_switch;
  /// How one send to a peer spreads over channels; none: a send is one flow at its
  /// protocol's rate.
  std::optional<P2pChannels> p2p;

  /// What one collective's flows move, as a factor of what the profile gives every other
  /// collective, where a system sustains less (or more) for it: each flow of that collective
  /// runs at factor x its protocol's rate and puts S / (efficiency x factor) bytes on its
  /// links. A calibrated term (commsim calibrate, from measurements of several collectives),
  /// as SimAI keeps an efficiency table per collective (aliyun/SimAI inputs/ratio: AllToAll's
  /// own beside the other collectives'); NCCL's estimate knows none, so the choice of
  /// algorithm and protocol ignores it. Collectives left out: 1.
  std::vector<std::pair<CollectiveKind, double>> collective_bandwidth;
  double bandwidth_factor(CollectiveKind kind) const;
  /// Factors of calls whose GPUs all talk over NVLink inside one node, where they are not
  /// collective_bandwidth's (measured across nodes): a cluster's AllToAll moves 0.923 of its
  /// NICs' rate, a node's 0.96 of NVLink's. inside_one_node() puts them in its place.
  std::vector<std::pair<CollectiveKind, double>> collective_bandwidth_one_node;
  /// The profile of a call inside one NVLink node: collective_bandwidth_one_node's factors in
  /// place of collective_bandwidth's for their collectives, the rest as they are.
  LibraryProfile inside_one_node() const;

  /// What LL moves in a collective, as a factor of the LL row's efficiency, where the library
  /// gives it less than LL's wire format (8 data bytes in 16). NCCL's estimate gives a ring
  /// LL a quarter of the link's bus bandwidth for AllReduce and Reduce, and for every
  /// collective across nodes; a third for AllGather, ReduceScatter and Broadcast on one node
  /// (tuning.cc, "model refinements": busBw x 1/4 or 1/3, at most llMaxBw): factors 1/2 and
  /// 2/3 on the row's 1/2. Applies to the rows of `protocols` (not to tree's, which have their
  /// own share, nor to in-switch runs); AllToAll and send/receive, which NCCL runs as P2P, and
  /// collectives left out: 1. Part of the estimate: it ranks protocols by it.
  std::vector<std::pair<CollectiveKind, double>> ll_share;
  double ll_factor(CollectiveKind kind) const;

  /// The algorithm the library runs a collective with, where it has one of its own rather
  /// than choosing as NCCL does, by least estimated time (model/collective_model.h,
  /// nccl_choice); a collective left out is chosen so. A library with such a table runs each
  /// collective from one host thread a process, as one ring or tree of all ranks: no channels
  /// (collective/algorithms.h, default_channels: 1) and no trees chained through a node's
  /// GPUs (default_tree_node_gpus: 0). Gloo's: gloo_library. Not part of an estimate.
  std::vector<std::pair<CollectiveKind, AlgorithmKind>> own_algorithms;
  std::optional<AlgorithmKind> own_algorithm(CollectiveKind kind) const;
  bool runs_own_algorithms() const { return !own_algorithms.empty(); }

  /// How far below its asymptote a collective inside one node (NVLink only) runs at a size:
  /// its bus bandwidth at each size as a fraction of its bus bandwidth at the largest size
  /// given, measured over many runs (one_node_ramp_at). Empty: none. NCCL's estimate has no
  /// such term (its latency terms account for a small part of it), so it is not part of an
  /// estimate and never moves the choice.
  std::vector<SizeRatio> one_node_ramp;
  /// The fraction one_node_ramp gives `size`: its ratio over the last point's, log-linear in
  /// the size between points; none below the first point and from the last on (there a
  /// collective runs at its asymptote).
  std::optional<double> one_node_ramp_at(Bytes size) const;
  /// Whether the ramp bounds any size: two points or more (a single one turns it off).
  bool has_one_node_ramp() const { return one_node_ramp.size() > 1; }
  /// Whether `protocol` is among the profile's protocols.
  bool has_protocol(Protocol protocol) const {
    return std::any_of(protocols.begin(), protocols.end(), [&](const auto& row) { return row.first == protocol; });
  }

  /// The system's own cost per call beyond the library's: kernel launch and host
  /// synchronisation as the measured machine pays them. Published nccl-tests tables put small
  /// calls 20-40 us above NCCL's own estimate (results/validation: an A100 node's 8-GPU
  /// AllReduce takes 44 us at 32 KiB where NCCL estimates 15), alike for collectives of
  /// 2(n-1) and of n-1 steps, so it is per call, not per step. Added to the call latency of every cost the
  /// library runs at (costs()), for every algorithm and protocol alike: it moves every
  /// prediction and never the choice. A calibrated term; 0 in the built-in profiles (no
  /// published figure), and not part of an estimate.
  TimePs launch_ps = 0;

  /// How fast one host thread issues calls to the GPUs it drives (ThreadLaunch). NVIDIA's
  /// answer in nccl-tests issue 123 ("all GPUs are handled by a single thread and that
  /// causes extra latency as the CPU is the bottleneck") to the issue's measurement on a DGX
  /// A100 (Ring, one channel, 8-128 B, -g 2..8: 10.0, 13.76, 16.88, 20.8, 25.2, 29.5, 33.7 us,
  /// a line of 2.1 us + 3.95 us per GPU at one channel). Not part of an estimate.
  ThreadLaunch thread_launch;
  /// How the system drives the library: the GPUs one host thread launches each call on
  /// (nccl-tests -g G; a framework with one process a node), so that thread_launch bounds its
  /// calls. 0: not bound, as with a process a GPU. What a command runs with when it is not
  /// told (--gpus-per-thread, a measurement's own -g): gpus_per_thread_or.
  std::size_t gpus_per_thread = 0;
  static constexpr std::size_t kMaxGpusPerThread = std::size_t{1} << 20;
  /// `given` GPUs a thread where known (not 0), else gpus_per_thread.
  std::size_t gpus_per_thread_or(std::size_t given) const { return given > 0 ? given : gpus_per_thread; }
  /// What one channel of a collective (a GPU thread block, NCCL's CTA, running one ring,
  /// tree or chain) moves across the network at most, B/s, flags included (its data: the
  /// protocol's protocol_data_share of it); infinite: no such bound. NCCL's
  /// proxy moves each channel's data through its own buffers, and a channel of Hopper moves
  /// about 20 GB/s there: H100 nodes with 8 NICs of 400 Gb/s (48.5 GB/s) run rings across
  /// nodes on 16 channels (NCCL doubles the 8 rings it finds through the NICs: NVIDIA/nccl
  /// issue 518, "16 rings for 8 NICs"; NCCL_DEBUG=INFO in issues 1453, 1357), 2 per NIC, and
  /// sustain 320 GB/s bus bandwidth from 4 nodes on, whatever NVLS does (NVIDIA/nccl issue
  /// 1221: 8 x 400 Gb/s RoCE, NCCL 2.19.3), 20.0 GB/s a channel where the NICs carry 24.25;
  /// NVIDIA's answer in nccl-tests issue 309 gives the cause: with 8 NICs of 400 Gb/s
  /// "NCCL_MIN_CTAS=24 may get you above 380 GB/s", more blocks for the same NICs. With 4
  /// GPUs a node or fewer a channel carries half of that or less, and the bound is idle. Not
  /// part of an estimate (NCCL's ranking has no such term). nvls-tree's flows across nodes
  /// take it too, a head's channels shared by its flows (issue 1221: NVLS on or off, "same
  /// busbw 320GB" beyond 2 nodes; model/in_switch_model.h, nvls_tree_flow_cap).
  BandwidthBps net_channel_rate_Bps = std::numeric_limits<double>::infinity();
  /// What NCCL's estimate lets one head of nvls-tree (a GPU and its NIC) move across the
  /// network beyond two nodes, B/s (perChMaxNVLSTreeBws, src/graph/tuning.cc's tuner
  /// constants after release 2.26: Hopper 45.5 GB/s, Blackwell 80); infinite: its link's
  /// bandwidth. Part of an estimate only.
  BandwidthBps nvls_tree_net_rate_Bps = std::numeric_limits<double>::infinity();
  /// The factor NCCL's estimate puts on the latency of a Ring/Simple AllReduce across nodes
  /// once each channel of each rank carries 64 bytes ("Plateau effect of ring",
  /// src/graph/tuning.cc, ncclTopoGetAlgoTime: 1.4 from compute capability 8.0, 1.9 before);
  /// 1: none. Part of an estimate only: it ranks, the run does not pay it.
  double ring_plateau = 1.0;
  /// Whether the plateau also falls on a Ring/Simple AllGather or ReduceScatter inside one node
  /// whose GPUs talk over NVLink: NCCL's estimate does so from compute capability 10.0
  /// (Blackwell; its ring cost model, ncclTuningRingModelSim: "single NVL Domain
  /// AllGather/ReduceScatter for Blackwell"). Part of an estimate only, as the plateau.
  bool ring_plateau_in_one_nvlink_node = false;
  /// The channels of the library's communicator for collectives (NCCL's comm->nChannels, as
  /// NCCL_DEBUG=INFO prints "Channel 23/24"): what a call runs on at most
  /// (nccl_call_channels). 0: not known, a call counts as one channel.
  std::uint32_t collective_channels = 0;
  /// The most channels a communicator has (NCCL's MAXCHANNELS, src/include/device.h).
  static constexpr std::uint32_t kMaxChannels = 64;
  /// The channels of an in-switch (NVLS) call, where the library gives it its own count
  /// (NCCL's comm->nvlsChannels: NVLS_NCHANNELS_SM90 16 on Hopper; on Blackwell 24 inside
  /// one node, 32 across nodes; src/transport/nvls.cc), whatever the size. 0: as
  /// collective_channels.
  std::uint32_t nvls_channels = 0;
  /// The channels one collective call of `bytes` runs on, as NCCL_DEBUG=INFO would tell
  /// ("channel{Lo..Hi}"): nccl_call_channels of collective_channels, nvls_channels for an
  /// in-switch run. 0 where the profile does not know its communicator's channels.
  std::uint32_t call_channels(Bytes bytes, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                              std::size_t ranks) const;
  /// The least time between the calls of a thread driving `gpus` GPUs (0 for none), for a
  /// call on `channels` channels.
  TimePs thread_issue_ps(std::size_t gpus, std::uint32_t channels) const {
    return thread_launch.issue_ps(gpus, channels);
  }

  /// The costs the library ranks its choices by, where they are not the costs it runs at.
  /// NCCL picks algorithm and protocol by its built-in estimate (src/graph/tuning.cc)
  /// whatever a system really costs, so a calibrated profile keeps the profile it was fitted
  /// from here: it runs at the fitted costs and still chooses as NCCL would. None: the
  /// profile's own costs are its estimate.
  std::shared_ptr<const LibraryProfile> estimate;
  /// The profile whose costs rank the choices: `estimate`, or this one.
  const LibraryProfile& estimated() const { return estimate ? *estimate : *this; }
  /// Keeps `start`'s estimate (or `start` itself) as this profile's: for a profile fitted
  /// from `start`.
  void estimate_as(const LibraryProfile& start);

  /// The most one send of `bytes` over a route of class `route`, in a communicator of
  /// `ranks`, moves, B/s (infinite without p2p channels).
  BandwidthBps p2p_rate_cap(Bytes bytes, LinkClass route, std::size_t ranks) const;
  /// p2p_rate_cap of a send of `bytes` on each class of route.
  RateCapsByClass p2p_rate_caps(Bytes bytes, std::size_t ranks) const;

  bool ideal() const { return protocols.empty(); }
  /// Whether the library discards a call: a collective of no elements (nccl_count 0 on
  /// `ranks`; not a Barrier) under any profile but `ideal`. NCCL returns before it launches
  /// anything (src/enqueue.cc, taskAppend: "Empty collectives can be discarded"), so the call
  /// takes no time, and nccl-tests' 0-byte rows time its own loop (~0.5 us); `ideal` keeps a
  /// zero-byte run's latency terms.
  bool discards(CollectiveKind kind, Bytes size, std::size_t ranks) const;
  /// How NCCL's P2P picks the protocol of a group of sends in a communicator of `ranks`, by
  /// its LL threshold (addP2pToPlan): LL if every send (its bytes and its route's class) runs
  /// LL (P2pChannels::runs_ll) and the profile has LL, else its bulk protocol. None without
  /// P2P channels or a threshold: the caller picks by least estimated time.
  std::optional<Protocol> p2p_threshold_protocol(const std::vector<std::pair<Bytes, LinkClass>>& sends,
                                                 std::size_t ranks) const;
  /// The costs of `protocol`, or with none the profile's last (its bulk protocol, NCCL's
  /// Simple); ideal gives none. Throws InputError if the profile lacks the protocol.
  ProtocolCosts costs(std::optional<Protocol> protocol) const;
  /// The costs of `protocol` in rows(algorithm), except that an algorithm that reduces in
  /// the switch has the in-switch costs, under Simple only (InputError for another protocol,
  /// or a library without in-switch costs).
  ProtocolCosts costs(AlgorithmKind algorithm, std::optional<Protocol> protocol) const;
  /// The costs a run of `kind` moves at: costs(algorithm, protocol) with the collective's LL
  /// share (ll_share) and bandwidth factor on its efficiency, and the bandwidth factor on its
  /// rate cap.
  ProtocolCosts costs(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol) const;
  /// The costs one call of `bytes` on `ranks` ranks runs at: the costs above with the call's
  /// loops (ring_loops).
  ProtocolCosts costs(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol, Bytes bytes,
                      std::size_t ranks) const;
  /// The loops a ring call of `bytes` (the nccl-tests size) on `ranks` ranks makes through
  /// the library's buffers, as NCCL runs it (src/enqueue.cc, calcCollChunking, once per
  /// channel: nLoops = ceil(channel bytes / (nRanks x chunkSize)), each loop all 2(p-1) or
  /// p-1 steps of the ring; src/device/all_reduce.h runRing loops the same way):
  ///   L = ceil(bytes / (C x ranks x loop_chunk_bytes)),  C = call_channels
  /// 1 for other collectives and algorithms, and where the profile knows neither its
  /// protocol's loop chunk nor its channels. An 8-GPU A100 AllReduce of 1 GiB on 24 channels
  /// with Simple's 2 MiB chunks: ceil(1 GiB / 384 MiB) = 3 loops.
  std::uint64_t ring_loops(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol, Bytes bytes,
                           std::size_t ranks) const;
  /// The costs the library ranks a run of `kind` by: the estimate's costs(algorithm, protocol)
  /// with its LL share, and no bandwidth factor (NCCL's ranking knows none).
  ProtocolCosts ranked_costs(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol) const;

  /// The protocol of least `time_s(protocol, costs)` (seconds) over the ranked costs of `kind`
  /// by `algorithm` (ranked_costs, for each of its rows), as NCCL picks by its own estimate;
  /// ties go to the earlier protocol. `left_out`, a protocol the system does not enable, is
  /// not among them unless it is the only one. Empty for the ideal profile.
  template <typename Time>
  std::optional<Protocol> fastest(CollectiveKind kind, AlgorithmKind algorithm, Time&& time_s,
                                  std::optional<Protocol> left_out = std::nullopt) const {
    const ProtocolRows& rows = estimated().rows(algorithm);
    const auto time = [&](Protocol protocol, const ProtocolCosts&) {
      return time_s(protocol, ranked_costs(kind, algorithm, protocol));
    };
    if (left_out) {
      ProtocolRows kept;
      for (const auto& row : rows) {
        if (row.first != *left_out) kept.push_back(row);
      }
      if (!kept.empty()) return least_time(kept, time);
    }
    return least_time(rows, time);
  }
  /// fastest() over the protocols' own rows: for what is not a collective algorithm (P2P).
  template <typename Time>
  std::optional<Protocol> fastest(Time&& time_s) const {
    return least_time(estimated().protocols, [&](Protocol, const ProtocolCosts& costs) { return time_s(costs); });
  }

 private:
  /// The costs of `protocol` in `rows`, or with none the last row's (InputError if absent),
  /// with the launch cost.
  ProtocolCosts costs_in(const ProtocolRows& rows, std::optional<Protocol> protocol) const;
  /// `c` with the launch cost on its call latency.
  ProtocolCosts launched(ProtocolCosts c) const;
  /// `c`, the costs of `protocol` in the rows of `algorithm`, with `kind`'s LL share.
  ProtocolCosts with_ll_share(ProtocolCosts c, CollectiveKind kind, AlgorithmKind algorithm,
                              std::optional<Protocol> protocol) const;
  /// The protocol of `rows` of least time_s(protocol, costs); ties go to the earlier.
  template <typename Time>
  static std::optional<Protocol> least_time(const ProtocolRows& rows, Time&& time_s) {
    std::optional<Protocol> best;
    double best_s = 0;
    for (const auto& [protocol, c] : rows) {
      const double t = time_s(protocol, c);
      if (!best || t < best_s) {
        best = protocol;
        best_s = t;
      }
    }
    return best;
  }
};

/// A profile's terms, one (label, text) line each: every protocol's costs by describe_costs,
/// "in-switch", "p2p" (in a communicator of `ranks`), each collective's bandwidth factor, and
/// the estimate that chooses. None for the ideal profile.
std::vector<std::pair<std::string, std::string>> describe_library(const LibraryProfile& profile, std::size_t ranks);

/// The built-in profiles: "ideal"; NCCL's by GPU architecture, "nccl" (Hopper),
/// "nccl-volta", "nccl-ampere", "nccl-blackwell"; "gloo". Throws InputError listing them for
/// another name.
LibraryProfile library_by_name(std::string_view name, std::string_view what);

/// The share of its Tree bandwidth NCCL's estimate gives a Tree AllReduce of `bytes` in
/// `protocol` (its treeCorrectionFactor): 0.4 to 1 from 64 B to 512 MiB, 1 outside. It ranks
/// only: a run moves what its flows move.
double nccl_tree_correction(Protocol protocol, Bytes bytes);
/// The names library_by_name knows, "ideal, nccl, ...", for help and errors.
std::string library_names();

}  // namespace commsim
