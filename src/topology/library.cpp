#include "topology/library.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <ranges>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "base/name_table.h"

namespace commsim {
namespace {

constexpr NameTable<Protocol, 3> kProtocolNames{{
    {Protocol::kLL, "ll"},
    {Protocol::kLL128, "ll128"},
    {Protocol::kSimple, "simple"},
}};

TimePs us(double microseconds) { return ps_from_seconds(microseconds * 1e-6); }

// NVIDIA/nccl src/graph/tuning.cc, release 2.26, the Ring rows:
//   baseLatencies[Ring]          LL 6.6, LL128 14.0, Simple 8.4 us per call
//   hwLatencies[NVLINK][Ring]    LL 0.6, LL128 1.9,  Simple 3.4 us per step
//   hwLatencies[PCI][Ring]       LL 1.0, LL128 2.5,  Simple 5.7
//   hwLatencies[NET][Ring]       LL 2.7, LL128 4.0,  Simple 14.0
// Bandwidth per protocol: LL carries 8 bytes of data in 16 (its row's 1/2, what a P2P send
// moves), and NCCL's estimate gives a ring less: min(llMaxBw, busBw / 4) for AllReduce and
// Reduce, busBw / 3 for AllGather, ReduceScatter and Broadcast on one node, busBw / 4 for
// all across nodes (LibraryProfile::ll_share: x 1/2, x 2/3); LL128 120 of 128 bytes (NCCL
// rounds to 0.92); Simple all. llMaxBw, by the GPU's compute
// capability on one node (llMaxBws): Volta 39.0, Ampere 87.7, Hopper 141.0, Blackwell
// 2 x 141.0 GB/s. LL128's per-channel cap (perChMaxRingLL128Bws: 20.0 GB/s on Volta and
// Ampere, 36.7 on Hopper, 2 x 36.7 on Blackwell) times NCCL's 12+ channels on NVSwitch is
// above any link here, so it is left out. The latencies and shares do not depend on the GPU.
//
// P2P channels, counted as NCCL counts them (src/enqueue.cc, scheduleP2pTasksToPlan and
// addP2pToPlan; src/graph/paths.cc, ncclTopoGetNchannels and ncclTopoComputeP2pChannels):
// a peer over NVLink gets 2 channels per NVLink (36 on H100, rounded up to a power of 2: 32),
// and a send starts on them halved while x ranks exceeds the communicator's 32 P2P channels
// (its 24 collective channels rounded up to a power of 2): 4 among 8 ranks, 8 among 4, 16
// among 2; fewer while a channel would carry less than 64 KiB (minPartSize, NCCL_P2P_NVL_
// CHUNKSIZE 512 KiB / 8 in a node, NCCL_P2P_NET_CHUNKSIZE 128 KiB / 2 across nodes); doubled
// while a channel would carry more than 32 chunks: 16 MiB, up to 32. A peer in another node
// gets max(NICs, ceil(NIC GB/s / 14)) channels (NCCL 2.29; NCCL_P2P_PER_CHANNEL_NET_BW 14):
// 4 on one 400 Gb/s NIC, 2 on 200 Gb/s; halved while that many for each round of 8 peers
// exceeds the 32 P2P channels (P2pChannels::net_channels): 4 up to 64 ranks, 2 up to 128, 1
// beyond. What one channel moves is measured, not published: nccl-tests sendrecv_perf on an
// 8-GPU H100 node moves 79.5-81.8 GB/s at 32 and 64 MiB (4 channels: 20 GB/s each) and
// 162.5 GB/s at 128 MiB (8 channels); 4 H100s of a node move 149-163 GB/s at 32-128 MiB
// where 8 move 79.5-81.8 and 162.5, on twice the channels. Across nodes a send to one peer
// is not its channels' sum: on 400 Gb/s NDR, 10 nodes of 8 H100s (80 ranks: 2 channels a
// peer) move 15.2 GB/s a peer, 7.6 a channel, while on 4 channels 10 nodes of 1, 2 and 4
// H100s move 24.9, 25.2 and 26.2, not 30.4 (nccl-tests sendrecv_perf, NCCL 2.29.2,
// ../shared/validation and tests/data): a channel moves at most 7.6 GB/s across the network
// and a send to one network peer at most 25 GB/s, half the NIC. (NCCL 2.29 itself sizes a
// network peer's channels for 14 GB/s each; the same halving with NCCL 2.20 took 32 GH200s
// on 4 channels from 24.2 GB/s to 18.3 on 2, nccl issue 1272.) PCIe channels are not limited
// here. Not modelled: in a communicator across nodes NCCL also holds a send
// inside a node to the network peers' count, and doubles its channels past 128 KiB.
// A send inside a node runs LL while each of its channels carries at most 16 KiB
// (NCCL_P2P_LL_THRESHOLD, 16384, enqueue.cc addP2pToPlan), else Simple; one to another
// node runs Simple (P2pChannels::runs_ll).
// On Ampere: the same rule up to 16 channels (4 to start among 8 ranks), 12.2 GB/s each on
// NVLink: nccl-tests sendrecv_perf on an 8-GPU A100 node levels off at 188-195 GB/s from
// 256 MiB (16 channels), as CUDA's p2pBandwidthLatencyTest finds ~208 GB/s each way when a
// pair sends both ways (416 GB/s bidirectional, LLMServe/DistServe issue 3). The cap of 16 is
// that level read from the measurement: NCCL's own rule would go on to 32, and what holds
// the send there (below the 240 GB/s link) is not known. Network channels are not limited.
// No measured figure for Volta and Blackwell: their profiles have no P2P channels.
//
// Tree (NCCL's double binary tree AllReduce), tuning.cc's Tree rows:
//   baseLatencies[Tree]          LL 6.8, LL128 14.0, Simple 8.4 us per call
//   hwLatencies[NVLINK][Tree]    LL 0.6, LL128 1.25, Simple 4.0 us per step
//   hwLatencies[PCI][Tree]       LL 1.0, LL128 1.9,  Simple 4.0
//   hwLatencies[NET][Tree]       LL 5.0, LL128 8.5,  Simple 14.0
// and its bandwidth: a Tree AllReduce moves 0.92 of the link (min(busBw x 0.92, nChannels x
// perChMaxTreeBw), the cap above any link here); LL a 3.8th of that (busBw / 3.8, at most
// llMaxBw), LL128 7/9 of it on one node (120/128 across nodes). So the shares are Simple
// 0.92, LL 0.92 / 3.8 = 0.2421, LL128 0.92 x 7/9 = 0.7156. Its estimate also scales a Tree
// AllReduce's bandwidth by size (nccl_tree_correction, below). Not modelled: its x0.85 for a
// tree graph of pattern TREE.
//
// A ring call's loops (LibraryProfile::ring_loops): NCCL moves a ring AllReduce, AllGather
// or ReduceScatter through its buffers in loops of nRanks chunks per channel, every loop all
// of the ring's steps (src/enqueue.cc calcCollChunking: nLoops = DIVUP(bytes, nChannels x
// nRanks x chunkSize), proxy nsteps = nstepsPerLoop x nLoops x chunkSteps). A chunk is its
// protocol's buffer over NCCL_STEPS = 8 steps, times the steps of a chunk (src/include/
// device.h, collectives.h):
//   Simple  4 MiB (DEFAULT_BUFFSIZE) / 8 x 4 (ALLREDUCE_, ALLGATHER_, REDUCESCATTER_
//           CHUNKSTEPS = NCCL_STEPS/2)                                       = 2 MiB
//   LL128   120 x 640 x 8 x 8 B (ELEMS_PER_THREAD x MAX_NTHREADS x STEPS x 8) / 8, of which
//           15 of each 16 words carry data: 614400 x 15/16                   = 576000 B
//   LL      8 x 512 x 8 x 16 B (LINES_PER_THREAD x MAX_NTHREADS x STEPS x line) / 8, half
//           data                                                             = 32 KiB
// Against the measurements (results/validation): an 8-GPU A100 AllReduce on 24 channels
// (384 MiB a loop) from 2 to 16 GiB, 6 to 43 loops, is predicted 0.5-1.7% short where one
// loop left it 2.1-3.2% short; an H100 node's AllGather and ReduceScatter from 4 to 16 GiB
// within 1.5% where one loop left them 1.5-3.7% short. NCCL's own estimate has no loop term.
Bytes nccl_loop_chunk_bytes(Protocol protocol) {
  switch (protocol) {
    case Protocol::kLL: return Bytes{32} << 10;
    case Protocol::kLL128: return 576000;
    case Protocol::kSimple: return Bytes{2} << 20;
  }
  return 0;
}

// NVLS (in-switch reduction), tuning.cc: baseLatencies[NVLS] 0; hwLatencies[NVLINK][NVLS]
// Simple 25 us, one reduction round; hwLatencies[NET][NVLSTree] Simple 20.9 us per tree
// level across nodes after 2.26, which had 14 (the tuner constants of tuning.cc before 2.30,
// src/tuning/cost_model.cc in 2.30); nvlsEfficiency 0.85 on Hopper, 0.74 on Blackwell
// (NVLink SHARP begins with the third-generation NVSwitch: none on Volta and Ampere).
//
// Collective channels of an 8-GPU NVSwitch node: 24 on A100 (NCCL_DEBUG=INFO on an HGX
// A100, nccl-tests issue 100: "Channel 23/24") and on H100 (NCCL 2.19.3 finds 12 rings and
// doubles them, nccl issue 1367); 32 on B200 (NCCL_DEBUG=INFO on a DGX B200, nccl issue
// 1646: "32 coll channels, ..."); not known for Volta. NVLS runs on its own
// channels whatever the size: NVLS_NCHANNELS_SM90 16 on Hopper, NVLS_NCHANNELS_SM100_NVL 24
// on Blackwell inside one node, NVLS_NCHANNELS_SM100 32 across nodes (nccl_clusters)
// (src/transport/nvls.cc; the B200 log above counts 32 NVLS channels in its one node, from a
// release it does not name: the source's 24 is kept).
//
// A Tree AllReduce's share of the link (above).
constexpr double kTreeShare = 0.92;

// A thread driving G GPUs (nccl-tests -g G, LibraryProfile::thread_launch) issues a call at
// most every a + G x (b + c x C) on C channels:
//   a = 2.1 us: nccl-tests issue 123's DGX A100 at one channel (NCCL_MAX_NCHANNELS=1), -g 2
//       to 8, a line of 2.1 us + 3.95 us per GPU;
//   b + c = 5.26 us per GPU at one channel, as two later runs give alike: stas00/ml-engineering's
//       all_reduce_perf -g 8 on an A100 node (the validation table: 43.83 us at 32 KiB, one
//       channel, 2.1 + 8 x 5.22) and waynehacking8/nccl-collectives-bench's -g 4 on 4 H100s
//       with NCCL 2.29.2 (tests/data: 23.3 us from 8 B to 4 KiB, 2.1 + 4 x 5.30); the mean;
//   c, per channel of each GPU, by architecture (kThreadLaunchPerChannel*): the A100 table
//       grows by 2.50 us per channel NCCL runs the call on (nccl_call_channels: 1, 2, 4, 8,
//       16, 24 channels from 32 KiB to 1 MiB: 43.8, 46.8, 51.8, 61.4, 80.4, 101.9 us, a line
//       within 1.1 us, flat at 101.4-101.9 us to 4 MiB on all 24): 0.31 us per channel of each
//       of its 8 GPUs; the H100 run grows by 4.6 us from 1 channel to 24 (27.88 us at 512
//       KiB) over 4 GPUs: 0.05 us, at most (part of it is the data's own time). Whether the
//       GPU or the NCCL release makes the difference is not known; Volta takes Ampere's,
//       Blackwell Hopper's.
constexpr TimePs kThreadLaunchPerCall = 2'100'000;           // ps
constexpr TimePs kThreadLaunchPerGpuOneChannel = 5'260'000;  // ps
constexpr TimePs kThreadLaunchPerChannelAmpere = 310'000;    // ps
constexpr TimePs kThreadLaunchPerChannelHopper = 50'000;     // ps

// A collective's channel across the network (LibraryProfile::net_channel_rate_Bps): Hopper's
// 320 GB/s on 16 channels (NVIDIA/nccl issue 1221). Not known for other architectures, whose
// published clusters never load a channel so far (an A100 node's 8 HDR NICs carry 192 GB/s
// on 16 channels, 12 GB/s a channel: NVIDIA/nccl issue 812), nor for Blackwell.
constexpr BandwidthBps kNetChannelRateHopper = 20e9;

ThreadLaunch nccl_thread_launch(TimePs per_channel_ps) {
  return {kThreadLaunchPerCall, kThreadLaunchPerGpuOneChannel - per_channel_ps, per_channel_ps};
}

// What differs by architecture, one row each; "nccl" is Hopper's, the default node's GPU.
struct NcclArchitecture {
  const char* name;
  BandwidthBps ll_max_Bps;                 // llMaxBws, one node
  std::optional<double> nvls_efficiency;   // none: no NVLS
  std::optional<P2pChannels> p2p;          // none: no measured channel rate
  std::uint32_t collective_channels;       // on an 8-GPU NVSwitch node; 0: not known
  std::uint32_t nvls_channels;             // one node; 0: no NVLS
  TimePs thread_launch_per_channel_ps;     // c above
  BandwidthBps net_channel_rate_Bps;       // LibraryProfile::net_channel_rate_Bps
  BandwidthBps nvls_tree_net_rate_Bps;     // LibraryProfile::nvls_tree_net_rate_Bps
  double ring_plateau;                     // LibraryProfile::ring_plateau: 1.9 before sm80
  bool ring_plateau_in_one_nvlink_node;    // LibraryProfile's: from sm100 (Blackwell)
};

const std::vector<NcclArchitecture>& nccl_architectures() {
  const double inf = std::numeric_limits<double>::infinity();
  const Bytes mib16 = Bytes{16} << 20, kib16 = Bytes{16} << 10, kib64 = Bytes{64} << 10;
  static const std::vector<NcclArchitecture> table{
      {"nccl", 141e9, 0.85, P2pChannels{1, 32, mib16, 4, {20e9, inf, 7.6e9}, kib16, 32, kib64, 25e9}, 24, 16,
       kThreadLaunchPerChannelHopper, kNetChannelRateHopper, 45.5e9, 1.4, false},
      {"nccl-volta", 39e9, std::nullopt, std::nullopt, 0, 0, kThreadLaunchPerChannelAmpere, inf, inf, 1.9, false},
      {"nccl-ampere", 87.7e9, std::nullopt, P2pChannels{1, 16, mib16, 2, {12.2e9, inf, inf}, kib16, 32, kib64}, 24, 0,
       kThreadLaunchPerChannelAmpere, inf, inf, 1.4, false},
      {"nccl-blackwell", 2 * 141e9, 0.74, std::nullopt, 32, 24, kThreadLaunchPerChannelHopper, inf, 80e9, 1.4, true},
  };
  return table;
}

// A collective inside one NVLink node: its bus bandwidth at each size over its bus bandwidth
// at the largest size measured. SimAI's empirical ratios of nccl-tests runs on one 8-GPU node
// (aliyun/SimAI, astra-sim-alibabacloud/inputs/ratio/nvlink_ratio.csv, the one-machine
// column "单机(NVLinkx)", 16 MiB to 16 GiB; 0.81 at 16 GiB is that node's asymptote over its
// datasheet link, so the ramp is each ratio over 0.81). The H100 node's AllGather in
// results/validation runs the same ramp (0.657 at 32 MiB against 0.679, 0.90 at 256 MiB
// against 0.90): NCCL's per-step latencies leave most of it out.
const std::vector<SizeRatio>& simai_one_node_ramp() {
  static const std::vector<SizeRatio> ramp{
      {Bytes{16} << 20, 0.45},  {Bytes{32} << 20, 0.55}, {Bytes{64} << 20, 0.65}, {Bytes{128} << 20, 0.69},
      {Bytes{256} << 20, 0.73}, {Bytes{512} << 20, 0.76}, {Bytes{1} << 30, 0.77},  {Bytes{2} << 30, 0.78},
      {Bytes{4} << 30, 0.79},   {Bytes{8} << 30, 0.80},   {Bytes{16} << 30, 0.81}};
  return ramp;
}

LibraryProfile nccl_library(const NcclArchitecture& arch) {
  LibraryProfile p;
  p.one_node_ramp = simai_one_node_ramp();
  p.thread_launch = nccl_thread_launch(arch.thread_launch_per_channel_ps);
  p.collective_channels = arch.collective_channels;
  p.nvls_channels = arch.nvls_channels;
  p.net_channel_rate_Bps = arch.net_channel_rate_Bps;
  p.nvls_tree_net_rate_Bps = arch.nvls_tree_net_rate_Bps;
  p.ring_plateau = arch.ring_plateau;
  p.ring_plateau_in_one_nvlink_node = arch.ring_plateau_in_one_nvlink_node;
  if (arch.nvls_efficiency) p.in_switch = ProtocolCosts{0, {us(25.0), 0, us(20.9)}, *arch.nvls_efficiency};
  p.p2p = arch.p2p;
  p.name = arch.name;
  p.protocols = {
      {Protocol::kLL, {us(6.6), {us(0.6), us(1.0), us(2.7)}, 0.5, arch.ll_max_Bps}},
      {Protocol::kLL128, {us(14.0), {us(1.9), us(2.5), us(4.0)}, 0.92}},
      {Protocol::kSimple, {us(8.4), {us(3.4), us(5.7), us(14.0)}, 1.0}},
  };
  for (auto& [protocol, costs] : p.protocols) costs.loop_chunk_bytes = nccl_loop_chunk_bytes(protocol);
  using Kind = CollectiveKind;
  p.ll_share = {{Kind::kAllReduce, 0.5}, {Kind::kReduce, 0.5}, {Kind::kAllGather, 2.0 / 3},
                {Kind::kReduceScatter, 2.0 / 3}, {Kind::kBroadcast, 2.0 / 3}};
  p.tree = {
      {Protocol::kLL, {us(6.8), {us(0.6), us(1.0), us(5.0)}, kTreeShare / 3.8, arch.ll_max_Bps}},
      {Protocol::kLL128, {us(14.0), {us(1.25), us(1.9), us(8.5)}, kTreeShare * 7 / 9}},
      {Protocol::kSimple, {us(8.4), {us(4.0), us(4.0), us(14.0)}, kTreeShare}},
  };
  return p;
}

// NCCL on more than one node (tuning.cc), where its estimate changes in four ways:
//   - a ring's step inside a node costs at least the network's post overhead
//     (getNetOverhead: 1 us on an Intel host, 2 us on AMD; x3 for Simple), on NVLink and PCIe:
//     Intel LL max(0.6, 1) = 1 us, LL128 1.9, Simple max(3.4, 3) = 3.4 (PCIe 1, 2.5, 5.7);
//     AMD LL 2, LL128 2, Simple 6 (PCIe 2, 2.5, 6);
//   - LL's cap is indexed by the host CPU, not the GPU ("for multi-node, we look at CPU
//     type"): Intel 39.0 GB/s for 2 nodes, 20.4 for more; AMD 22.5 / 19.0. A profile has one
//     cap: the one of 3 or more nodes, as clusters are scaled with --nodes;
//   - Tree LL128 moves 120/128 of the Tree share across nodes: 0.92 x 120/128 = 0.8625;
//   - a ring's LL moves a quarter of busBw in every collective (ll_share 1/2).
// A cluster's profile is its GPU's with its host's rules: the DGX H100 (Xeon 8480C) and DGX
// B200 (Xeon 8570) have Intel hosts, the DGX A100 an AMD EPYC 7742 (Rome). Its collective
// channels follow the NICs NCCL's search finds rings through, not the node's NVLink count:
// not known, so a row shows the rings the simulator runs; NVLS keeps its own. Not modelled:
// the Tree network latencies release 2.26 charges a ring of one GPU per node (NCCL's later
// per-algorithm cost model charges each algorithm its own network latency, as here).
struct NcclHost {
  double net_overhead_us;  // getNetOverhead
  BandwidthBps ll_max_Bps;  // llMaxBws of 3 or more nodes
};
constexpr NcclHost kIntelHost{1.0, 20.4e9};
constexpr NcclHost kAmdHost{2.0, 19.0e9};

struct NcclCluster {
  const char* name;
  const char* architecture;  // its row of nccl_architectures()
  NcclHost host;
  std::uint32_t nvls_channels;  // across nodes; 0: the architecture's
};

const std::vector<NcclCluster>& nccl_clusters() {
  static const std::vector<NcclCluster> table{
      {"nccl-hopper-multinode", "nccl", kIntelHost, 0},
      {"nccl-ampere-multinode", "nccl-ampere", kAmdHost, 0},
      {"nccl-blackwell-multinode", "nccl-blackwell", kIntelHost, 32},  // NVLS_NCHANNELS_SM100
  };
  return table;
}

LibraryProfile nccl_cluster_library(const NcclCluster& cluster) {
  const auto& archs = nccl_architectures();
  const auto arch = std::find_if(archs.begin(), archs.end(), [&](const NcclArchitecture& a) {
    return std::string_view(a.name) == cluster.architecture;
  });
  LibraryProfile p = nccl_library(*arch);
  p.name = cluster.name;
  p.collective_channels = 0;  // across nodes they follow the NICs: not known
  if (cluster.nvls_channels > 0) p.nvls_channels = cluster.nvls_channels;
  const TimePs overhead = us(cluster.host.net_overhead_us);
  for (auto& [protocol, costs] : p.protocols) {
    const TimePs floor = protocol == Protocol::kSimple ? 3 * overhead : overhead;
    for (const LinkClass c : {LinkClass::kNvlink, LinkClass::kPcie}) {
      TimePs& step = costs.step_latency_ps[static_cast<int>(c)];
      step = std::max(step, floor);
    }
  }
  for (ProtocolRows* rows : {&p.protocols, &p.tree}) {
    for (auto& [protocol, costs] : *rows) {
      if (protocol == Protocol::kLL) costs.max_rate_Bps = cluster.host.ll_max_Bps;
    }
  }
  for (auto& [protocol, costs] : p.tree) {
    if (protocol == Protocol::kLL128) costs.efficiency = kTreeShare * 120 / 128;
  }
  for (auto& [kind, factor] : p.ll_share) factor = 0.5;  // busBw / 4 for every collective
  return p;
}

// Gloo, PyTorch's CPU backend, over its TCP transport: one protocol (its own, shown as
// Simple), every byte copied and reduced by one CPU thread per process, through sockets on
// any link (it has no GPU peer path), no channels.
//   Rate: pytorch/gloo issue #248 (2020), allreduce_ring_chunked of 5e6 floats (20 MB) by 2
//   processes on 40 GbE (5 GB/s), one core each: 17.25 ms p50. Each rank sends the whole
//   20 MB (2 (p-1)/p n), so a flow moves 20 MB / 17.25 ms = 1.159 GB/s, 23% of the line: a
//   cap of 1.159 GB/s per flow, whatever the link.
//   Latency: pytorch/gloo issue #158 (2018), allreduce_ring of 1 KiB over TCP between 2
//   servers: 354 us for the ring's 2 (p-1) = 2 steps, 177 us a step. With no figure for
//   loopback, steps inside a node cost the same; no per-call cost beyond the steps.
// Algorithms: the collectives PyTorch's Gloo backend calls (facebookincubator/gloo, gloo/),
// each one ring or tree of all ranks driven by the process's one thread, no channels:
//   AllReduce  ring (allreduce.cc: reduce-scatter then all-gather round one ring)
//   AllGather  ring (allgather.cc)
//   Broadcast  binomial tree from the root (broadcast.cc), commsim's tree
//   AllToAll   a send to and a receive from every peer at once (alltoall.cc), direct
//   Barrier    dissemination (barrier.cc, after Hensgen, Finkel and Manber 1988)
// Reduce (reduce.cc: a ring reduce-scatter, then every rank sends its block to the root) has
// no algorithm of commsim's, and ReduceScatter none in gloo/: both are chosen by these costs
// among NCCL's algorithms (the ring, one chain for Reduce).
LibraryProfile gloo_library() {
  LibraryProfile p;
  p.name = "gloo";
  p.protocols = {{Protocol::kSimple, {0, {us(177), us(177), us(177)}, 1.0, 1.159e9}}};
  p.own_algorithms = {{CollectiveKind::kAllReduce, AlgorithmKind::kRing},
                      {CollectiveKind::kAllGather, AlgorithmKind::kRing},
                      {CollectiveKind::kBroadcast, AlgorithmKind::kTree},
                      {CollectiveKind::kAllToAll, AlgorithmKind::kDirect},
                      {CollectiveKind::kBarrier, AlgorithmKind::kDissemination}};
  return p;
}

}  // namespace

// NCCL's treeCorrectionFactor (src/graph/tuning.cc, ncclTopoGetAlgoTime, before 2.30;
// src/tuning/cost_model.cc in 2.30, the same rows): "Trees are not perfectly sticking to the
// model for medium sizes. Applying a static correction factor is not ideal but works quite
// well." Its estimate of a Tree AllReduce of n bytes multiplies the bandwidth by
// row[log2(n / 64)] for 64 B <= n < 512 MiB (index 0 .. 22, "logSize >= 0 && logSize < 23").
double nccl_tree_correction(Protocol protocol, Bytes bytes) {
  static constexpr std::array<std::array<double, 23>, 3> kRows{{
      {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},  // LL
      {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},   // LL128
      {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},          // Simple
  }};
  if (bytes < 64) return 1.0;
  const auto index = static_cast<std::size_t>(std::bit_width(bytes >> 6) - 1);  // floor(log2(n / 64))
  const auto& row = kRows[static_cast<std::size_t>(protocol)];
  return index < row.size() ? row[index] : 1.0;
}

std::string_view protocol_name(Protocol protocol) { return name_in(kProtocolNames, protocol); }

double protocol_data_share(Protocol protocol) {
  switch (protocol) {
    case Protocol::kLL:
      return 8.0 / 16;
    case Protocol::kLL128:
      return 120.0 / 128;
    case Protocol::kSimple:
      return 1.0;
  }
  return 1.0;
}

Protocol parse_protocol(std::string_view name, std::string_view what) {
  return parse_in(kProtocolNames, name, what, "protocol");
}

TimePs ProtocolCosts::run_step_latency(LinkClass c) const {
  if (c == LinkClass::kNet || loops <= 1) return step_latency(c);
  return multiply_time(step_latency(c), loops, "a step's latency over the call's loops");
}

BandwidthBps ProtocolCosts::rate(BandwidthBps bottleneck) const {
  return std::min(efficiency * bottleneck, max_rate_Bps);
}

std::string describe_costs(const ProtocolCosts& c) {
  char efficiency[32];
  std::snprintf(efficiency, sizeof efficiency, "%g", c.efficiency);
  std::string text = "call " + format_time(c.call_latency_ps) + "; step NVLink " +
                     format_time(c.step_latency(LinkClass::kNvlink)) + ", PCIe " +
                     format_time(c.step_latency(LinkClass::kPcie)) + ", network " +
                     format_time(c.step_latency(LinkClass::kNet)) + "; efficiency " + efficiency;
  if (std::isfinite(c.max_rate_Bps)) text += "; max rate " + format_bandwidth(c.max_rate_Bps);
  if (c.loop_chunk_bytes > 0) text += "; a ring loops by " + format_size(c.loop_chunk_bytes) + " a channel and rank";
  if (c.loops > 1) {
    text += " (" + std::to_string(c.loops) + " loops: NVLink and PCIe steps wait x" + std::to_string(c.loops) + ")";
  }
  return text;
}

std::string describe_p2p(const P2pChannels& c, std::size_t ranks) {
  const std::string start =
      c.communicator_channels == 0
          ? std::to_string(c.min_channels) + "-" + std::to_string(c.max_channels) + " channels"
          : "up to " + std::to_string(c.max_channels) + " channels, starting on " + std::to_string(c.max_channels) +
                " halved while x ranks exceeds " + std::to_string(c.communicator_channels) +
                (c.min_channels > 1 ? ", at least " + std::to_string(c.min_channels) : "") + " (" +
                std::to_string(c.start_channels(ranks)) + " among " + std::to_string(ranks) + " ranks)";
  std::string text = start;
  if (c.min_bytes_per_channel > 0) text += ", fewer below " + format_size(c.min_bytes_per_channel) + " a channel";
  text += ", doubled past " + format_size(c.max_bytes_per_channel) + " a channel; " +
          std::to_string(c.net_peer_channels) + " per network peer";
  if (c.communicator_channels > 0) {
    text += " halved while x ceil(ranks / " + std::to_string(P2pChannels::kPeersPerChannelRound) + ") exceeds " +
            std::to_string(c.communicator_channels) + " (" + std::to_string(c.net_channels(ranks)) + " among " +
            std::to_string(ranks) + " ranks)";
  }
  constexpr std::array<const char*, 3> kOn{"NVLink", "PCIe", "the network"};
  std::string rates;
  for (std::size_t k = 0; k < kOn.size(); ++k) {
    if (!std::isfinite(c.channel_rate_Bps[k])) continue;
    rates += (rates.empty() ? "" : ", ") + format_bandwidth(c.channel_rate_Bps[k]) + " on " + kOn[k];
  }
  if (!rates.empty()) text += "; a channel at most " + rates;
  if (std::isfinite(c.net_peer_rate_Bps)) {
    text += "; a send to a network peer at most " + format_bandwidth(c.net_peer_rate_Bps);
  }
  if (c.ll_max_bytes_per_channel > 0) text += "; LL up to " + format_size(c.ll_max_bytes_per_channel) + " a channel";
  return text;
}

std::vector<std::pair<std::string, std::string>> describe_library(const LibraryProfile& profile, std::size_t ranks) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& [protocol, costs] : profile.protocols) lines.emplace_back(protocol_name(protocol), describe_costs(costs));
  for (const auto& [protocol, costs] : profile.tree) {
    lines.emplace_back("tree " + std::string(protocol_name(protocol)), describe_costs(costs));
  }
  if (profile.in_switch) lines.emplace_back("in-switch", describe_costs(*profile.in_switch));
  if (profile.p2p) lines.emplace_back("p2p", describe_p2p(*profile.p2p, ranks));
  for (const auto& [kind, factor] : profile.collective_bandwidth) {
    char text[64];
    std::snprintf(text, sizeof text, "bandwidth x %g", factor);
    lines.emplace_back(collective_name(kind), text);
  }
  for (const auto& [kind, factor] : profile.collective_bandwidth_one_node) {
    char text[80];
    std::snprintf(text, sizeof text, "bandwidth x %g inside one node", factor);
    lines.emplace_back(collective_name(kind), text);
  }
  if (!profile.ll_share.empty()) {  // "allreduce x 0.5, allgather x 0.667 on ll's efficiency"
    std::string text;
    for (const auto& [kind, factor] : profile.ll_share) {
      char share[64];
      std::snprintf(share, sizeof share, "%s x %.3g", std::string(collective_name(kind)).c_str(), factor);
      text += (text.empty() ? "" : ", ") + std::string(share);
    }
    lines.emplace_back("ll share", text + " on ll's efficiency");
  }
  if (profile.has_one_node_ramp()) {  // "one node: 16M 0.556, 32M 0.679, ..."
    std::string text;
    for (const SizeRatio& point : profile.one_node_ramp) {
      char ratio[64];
      std::snprintf(ratio, sizeof ratio, "%s %.3g", format_size(point.bytes).c_str(),
                    profile.one_node_ramp_at(point.bytes).value_or(1.0));
      text += (text.empty() ? "" : ", ") + std::string(ratio);
    }
    lines.emplace_back("one node", "a collective on NVLink alone takes at least its time at " +
                                       format_size(profile.one_node_ramp.back().bytes) +
                                       " scaled to its size and divided by the ramp: " + text);
  }
  if (profile.launch_ps > 0) lines.emplace_back("launch", format_time(profile.launch_ps) + " more on every call");
  if (!profile.thread_launch.none()) {
    lines.emplace_back("thread", "a thread driving G GPUs issues a call at most every " +
                                     describe_thread_launch(profile.thread_launch) + " (nccl-tests -g G)");
  }
  if (std::isfinite(profile.net_channel_rate_Bps)) {
    lines.emplace_back("net channel", "a collective's channel (ring, tree, chain) moves at most " +
                                          format_bandwidth(profile.net_channel_rate_Bps) + " across the network");
  }
  if (profile.gpus_per_thread > 0) {
    lines.emplace_back("driven", "one host thread launches each call on " + counted(profile.gpus_per_thread, "GPU") +
                                     " (as nccl-tests -g " + std::to_string(profile.gpus_per_thread) +
                                     "; --gpus-per-thread overrides)");
  }
  if (profile.collective_channels > 0) {
    lines.emplace_back("channels", "a collective runs on up to " + std::to_string(profile.collective_channels) +
                                       ", fewer for small sizes");
  }
  if (profile.nvls_channels > 0) {
    lines.emplace_back("nvls", "an in-switch collective runs on " + std::to_string(profile.nvls_channels) +
                                   " channels, whatever its size; an AllReduce on one switch ends two rounds of "
                                   "NCCL's 16-128 KiB chunks after its flows (pipeline fill)");
  }
  if (std::isfinite(profile.nvls_tree_net_rate_Bps)) {
    lines.emplace_back("nvls-tree", "ranked beyond two nodes as G heads of at most " +
                                        format_bandwidth(profile.nvls_tree_net_rate_Bps) +
                                        " each across the network (NCCL's estimate; never a run's time)");
  }
  if (profile.ring_plateau != 1) {
    const std::string in_one_node =
        profile.ring_plateau_in_one_nvlink_node ? ", and an AllGather or ReduceScatter in one NVLink node," : "";
    lines.emplace_back("plateau", "a Ring/Simple AllReduce across nodes" + in_one_node + " ranked at " +
                                      format_number(profile.ring_plateau) +
                                      " x its latency (NCCL's estimate; never a run's time)");
  }
  if (profile.runs_own_algorithms()) {
    std::string own;
    for (const auto& [kind, algorithm] : profile.own_algorithms) {
      own +=
          (own.empty() ? "" : ", ") + std::string(collective_name(kind)) + " " + std::string(algorithm_name(algorithm));
    }
    lines.emplace_back("algorithms", own + "; one ring or tree of all ranks, from one thread a process");
  }
  if (profile.estimate) lines.emplace_back("estimate", "chosen as library " + profile.estimate->name + " would");
  return lines;
}

const ProtocolRows& LibraryProfile::rows(AlgorithmKind algorithm) const {
  return algorithm == AlgorithmKind::kTree && !tree.empty() ? tree : protocols;
}

ProtocolCosts LibraryProfile::costs(std::optional<Protocol> protocol) const {
  return ideal() ? ProtocolCosts{} : costs_in(protocols, protocol);
}

ProtocolCosts LibraryProfile::costs_in(const ProtocolRows& rows, std::optional<Protocol> protocol) const {
  const Protocol wanted = protocol.value_or(rows.back().first);
  for (const auto& [p, costs] : rows) {
    if (p == wanted) return launched(costs);
  }
  throw InputError("library '" + name + "' has no protocol '" + std::string(protocol_name(wanted)) + "'");
}

std::uint32_t P2pChannels::start_channels(std::size_t ranks) const {
  if (communicator_channels == 0) return min_channels;
  std::uint32_t n = max_channels;
  while (n > min_channels && std::uint64_t{n} * ranks > communicator_channels) n /= 2;
  return std::max(n, min_channels);
}

std::uint32_t P2pChannels::net_channels(std::size_t ranks) const {
  std::uint32_t n = net_peer_channels;
  if (communicator_channels == 0) return n;
  const std::uint64_t rounds = (ranks + kPeersPerChannelRound - 1) / kPeersPerChannelRound;
  while (n > 1 && n * rounds > communicator_channels) n /= 2;
  return n;
}

std::uint32_t P2pChannels::channels(Bytes bytes, LinkClass route, std::size_t ranks) const {
  const bool net = route == LinkClass::kNet;
  std::uint32_t n = net ? net_channels(ranks) : start_channels(ranks);
  if (min_bytes_per_channel > 0) {  // NCCL: min(nChannelsMin, divUp(bytes, minPartSize))
    const Bytes parts = std::max<Bytes>(1, (bytes + min_bytes_per_channel - 1) / min_bytes_per_channel);
    n = static_cast<std::uint32_t>(std::min<Bytes>(n, parts));
  }
  if (net) return n;
  while ((bytes + n - 1) / n > max_bytes_per_channel && n <= max_channels / 2) n *= 2;
  return n;
}

std::optional<Protocol> LibraryProfile::p2p_threshold_protocol(const std::vector<std::pair<Bytes, LinkClass>>& sends,
                                                               std::size_t ranks) const {
  if (ideal() || !p2p || p2p->ll_max_bytes_per_channel == 0) return std::nullopt;
  const bool all_ll =
      std::all_of(sends.begin(), sends.end(), [&](const auto& s) { return p2p->runs_ll(s.first, s.second, ranks); });
  return all_ll && protocols.front().first == Protocol::kLL ? Protocol::kLL : protocols.back().first;
}

TimePs ThreadLaunch::issue_ps(std::size_t gpus, std::uint32_t channels) const {
  if (gpus == 0 || none()) return 0;
  const TimePs per_gpu = add_times(per_gpu_ps, multiply_time(per_channel_ps, channels, "a GPU's channels"),
                                   "a GPU's launch");
  return add_times(per_call_ps, multiply_time(per_gpu, gpus, "a thread's launches"), "a thread's launches");
}

std::string describe_thread_launch(const ThreadLaunch& launch) {
  std::string per_gpu = format_time(launch.per_gpu_ps);
  if (launch.per_channel_ps > 0) per_gpu = "(" + per_gpu + " + " + format_time(launch.per_channel_ps) + " per channel)";
  return format_time(launch.per_call_ps) + " + G x " + per_gpu;
}

std::uint32_t nccl_call_channels(std::uint32_t channels, Bytes bytes, AlgorithmKind algorithm,
                                 std::optional<Protocol> protocol, std::size_t ranks) {
  const std::uint32_t all = std::max<std::uint32_t>(channels, 1);
  if (reduces_in_switch(algorithm)) return all;
  const Protocol p = protocol.value_or(Protocol::kSimple);
  const std::uint64_t threads = p == Protocol::kLL128 ? 640 : 512;
  std::uint64_t threshold = p == Protocol::kSimple ? 64 : 8;
  if (p == Protocol::kLL && algorithm != AlgorithmKind::kTree) threshold *= std::max<std::size_t>(ranks, 1);
  // The loop stops at the most channels nc <= all with nc x threads x threshold <= bytes.
  const std::uint64_t fit = bytes / (threads * threshold);
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(fit, 1, all));
}

std::uint32_t LibraryProfile::call_channels(Bytes bytes, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                                            std::size_t ranks) const {
  const bool own_nvls = reduces_in_switch(algorithm) && nvls_channels > 0;
  if (collective_channels == 0 && !own_nvls) return 0;
  return nccl_call_channels(own_nvls ? nvls_channels : collective_channels, bytes, algorithm, protocol, ranks);
}

void LibraryProfile::estimate_as(const LibraryProfile& start) {
  estimate = start.estimate ? start.estimate : std::make_shared<const LibraryProfile>(start);
}

bool LibraryProfile::discards(CollectiveKind kind, Bytes size, std::size_t ranks) const {
  return !ideal() && kind != CollectiveKind::kBarrier && nccl_count(kind, size, ranks) == 0;
}

BandwidthBps LibraryProfile::p2p_rate_cap(Bytes bytes, LinkClass route, std::size_t ranks) const {
  return p2p ? p2p->rate_cap(bytes, route, ranks) : std::numeric_limits<double>::infinity();
}

RateCapsByClass LibraryProfile::p2p_rate_caps(Bytes bytes, std::size_t ranks) const {
  return p2p ? p2p->rate_caps(bytes, ranks) : kNoRateCaps;
}

ProtocolCosts LibraryProfile::launched(ProtocolCosts c) const {
  c.call_latency_ps = add_times(c.call_latency_ps, launch_ps, "a call's latency with the launch cost");
  return c;
}

ProtocolCosts LibraryProfile::costs(AlgorithmKind algorithm, std::optional<Protocol> protocol) const {
  if (ideal()) return {};
  if (!reduces_in_switch(algorithm)) return costs_in(rows(algorithm), protocol);
  if (protocol && *protocol != Protocol::kSimple) {
    throw InputError("algorithm '" + std::string(algorithm_name(algorithm)) + "' runs the simple protocol only, not " +
                     std::string(protocol_name(*protocol)));
  }
  if (!in_switch) {
    throw InputError("library '" + name + "' has no in-switch reduction costs (library block in_switch) for algorithm '" +
                     std::string(algorithm_name(algorithm)) + "'");
  }
  return launched(*in_switch);
}

// `kind`'s factor in a list of factors by collective; 1 for a collective left out.
static double factor_of(const std::vector<std::pair<CollectiveKind, double>>& factors, CollectiveKind kind) {
  for (const auto& [k, factor] : factors) {
    if (k == kind) return factor;
  }
  return 1;
}

std::optional<double> LibraryProfile::one_node_ramp_at(Bytes size) const {
  if (one_node_ramp.empty() || size < one_node_ramp.front().bytes || size >= one_node_ramp.back().bytes) {
    return std::nullopt;
  }
  const double last = one_node_ramp.back().ratio;
  const auto above = std::upper_bound(one_node_ramp.begin(), one_node_ramp.end(), size,
                                      [](Bytes b, const SizeRatio& point) { return b < point.bytes; });
  const SizeRatio& lo = *(above - 1);
  const SizeRatio& hi = *above;
  const double x = std::log2(static_cast<double>(size) / static_cast<double>(lo.bytes)) /
                   std::log2(static_cast<double>(hi.bytes) / static_cast<double>(lo.bytes));
  return (lo.ratio + x * (hi.ratio - lo.ratio)) / last;
}

double LibraryProfile::bandwidth_factor(CollectiveKind kind) const { return factor_of(collective_bandwidth, kind); }

LibraryProfile LibraryProfile::inside_one_node() const {
  LibraryProfile p = *this;
  for (const auto& [kind, factor] : collective_bandwidth_one_node) {
    std::erase_if(p.collective_bandwidth, [kind](const auto& entry) { return entry.first == kind; });
    p.collective_bandwidth.emplace_back(kind, factor);
  }
  p.collective_bandwidth_one_node.clear();
  return p;
}

double LibraryProfile::ll_factor(CollectiveKind kind) const { return factor_of(ll_share, kind); }

std::optional<AlgorithmKind> LibraryProfile::own_algorithm(CollectiveKind kind) const {
  for (const auto& [collective, algorithm] : own_algorithms) {
    if (collective == kind) return algorithm;
  }
  return std::nullopt;
}

ProtocolCosts LibraryProfile::with_ll_share(ProtocolCosts c, CollectiveKind kind, AlgorithmKind algorithm,
                                            std::optional<Protocol> protocol) const {
  const bool own_rows = &rows(algorithm) == &protocols && !reduces_in_switch(algorithm);
  if (own_rows && protocol.value_or(protocols.back().first) == Protocol::kLL) c.efficiency *= ll_factor(kind);
  return c;
}

ProtocolCosts LibraryProfile::ranked_costs(CollectiveKind kind, AlgorithmKind algorithm,
                                           std::optional<Protocol> protocol) const {
  const LibraryProfile& e = estimated();
  return e.ideal() ? ProtocolCosts{} : e.with_ll_share(e.costs(algorithm, protocol), kind, algorithm, protocol);
}

ProtocolCosts LibraryProfile::costs(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol) const {
  if (ideal()) return {};
  ProtocolCosts c = with_ll_share(costs(algorithm, protocol), kind, algorithm, protocol);
  if (reduces_in_switch(algorithm)) c.fill_channels = nvls_channels > 0 ? nvls_channels : collective_channels;
  const double factor = bandwidth_factor(kind);
  c.efficiency *= factor;
  c.max_rate_Bps *= factor;
  return c;
}

ProtocolCosts LibraryProfile::costs(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                                    Bytes bytes, std::size_t ranks) const {
  ProtocolCosts c = costs(kind, algorithm, protocol);
  c.loops = ring_loops(kind, algorithm, protocol, bytes, ranks);
  return c;
}

std::uint64_t LibraryProfile::ring_loops(CollectiveKind kind, AlgorithmKind algorithm, std::optional<Protocol> protocol,
                                         Bytes bytes, std::size_t ranks) const {
  if (ideal() || algorithm != AlgorithmKind::kRing || !runs_round_the_ring(kind) || ranks < 2) return 1;
  const Bytes chunk = costs(algorithm, protocol).loop_chunk_bytes;
  const std::uint32_t channels = call_channels(bytes, algorithm, protocol, ranks);
  if (chunk == 0 || channels == 0) return 1;
  // ceil(ceil(bytes / chunk) / (C x ranks)) = ceil(bytes / (chunk x C x ranks)), without the
  // product's overflow.
  const std::uint64_t chunks = bytes / chunk + (bytes % chunk != 0);
  const std::uint64_t per_loop = std::uint64_t{channels} * ranks;
  return std::max<std::uint64_t>(1, chunks / per_loop + (chunks % per_loop != 0));
}

// The built-in profiles, by name.
static const std::vector<LibraryProfile>& built_in_libraries() {
  static const std::vector<LibraryProfile> libraries = [] {
    std::vector<LibraryProfile> all{LibraryProfile{}};
    for (const NcclArchitecture& arch : nccl_architectures()) all.push_back(nccl_library(arch));
    for (const NcclCluster& cluster : nccl_clusters()) all.push_back(nccl_cluster_library(cluster));
    all.push_back(gloo_library());
    return all;
  }();
  return libraries;
}

std::string library_names() { return joined(std::views::transform(built_in_libraries(), &LibraryProfile::name)); }

LibraryProfile library_by_name(std::string_view name, std::string_view what) {
  std::vector<std::string_view> names;
  for (const LibraryProfile& p : built_in_libraries()) {
    if (same_loose_name(p.name, name)) return p;
    names.push_back(p.name);
  }
  throw InputError(unknown_name_message(what, "library", name, names));
}

}  // namespace commsim
