#include "topology/library.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "topology/builders.h"

namespace commsim {
namespace {

TEST(Library, ProtocolsInAnyCase) {
  EXPECT_EQ(parse_protocol("ll", "p"), Protocol::kLL);
  EXPECT_EQ(parse_protocol("LL128", "p"), Protocol::kLL128);
  EXPECT_EQ(parse_protocol("Simple", "p"), Protocol::kSimple);
  try {
    parse_protocol("fast", "--protocol");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--protocol: unknown protocol 'fast' (known: ll, ll128, simple)");
  }
}

TEST(Library, NcclDefaultsAreTuningCcsRingConstants) {
  const LibraryProfile nccl = library_by_name("NCCL", "--library");
  ASSERT_EQ(nccl.protocols.size(), 3u);
  const ProtocolCosts ll = nccl.costs(Protocol::kLL);
  EXPECT_EQ(ll.call_latency_ps, ps_from_ns(6600));
  EXPECT_EQ(ll.step_latency(LinkClass::kNvlink), ps_from_ns(600));
  EXPECT_EQ(ll.step_latency(LinkClass::kNet), ps_from_ns(2700));
  // LL carries 8 data bytes in 16, up to llMaxBw = 141 GB/s on one Hopper node.
  EXPECT_DOUBLE_EQ(ll.rate(200e9), 100e9);
  EXPECT_DOUBLE_EQ(ll.rate(370.8e9), 141e9);
  EXPECT_DOUBLE_EQ(nccl.costs(Protocol::kLL128).rate(100e9), 92e9);
  EXPECT_EQ(nccl.costs(Protocol::kSimple).step_latency(LinkClass::kPcie), ps_from_ns(5700));
  EXPECT_TRUE(library_by_name("ideal", "--library").ideal());
  EXPECT_EQ(library_by_name("ideal", "--library").costs(std::nullopt), ProtocolCosts{});
  EXPECT_THROW(library_by_name("mpich", "--library"), InputError);
}

TEST(Library, NcclTreeRowsAreTuningCcsTreeConstants) {
  // tuning.cc's Tree row: per call LL 6.8, LL128 14.0, Simple 8.4 us; per step on NVLink
  // 0.6 / 1.25 / 4.0 us and on the network 5.0 / 8.5 / 14 us; a Tree AllReduce moves 0.92
  // of the link, LL a 3.8th of that, LL128 7/9 of it on one node.
  const LibraryProfile nccl = library_by_name("nccl", "--library");
  ASSERT_EQ(nccl.tree.size(), 3u);
  EXPECT_EQ(&nccl.rows(AlgorithmKind::kTree), &nccl.tree);
  EXPECT_EQ(&nccl.rows(AlgorithmKind::kRing), &nccl.protocols);
  const ProtocolCosts ll = nccl.costs(AlgorithmKind::kTree, Protocol::kLL);
  EXPECT_EQ(ll.call_latency_ps, ps_from_ns(6800));
  EXPECT_EQ(ll.step_latency(LinkClass::kNet), ps_from_us(5));
  EXPECT_DOUBLE_EQ(ll.rate(380e9), 0.92 * 380e9 / 3.8);
  EXPECT_DOUBLE_EQ(ll.rate(1000e9), 141e9);  // llMaxBw
  const ProtocolCosts ll128 = nccl.costs(AlgorithmKind::kTree, Protocol::kLL128);
  EXPECT_EQ(ll128.step_latency(LinkClass::kNvlink), ps_from_ns(1250));
  EXPECT_DOUBLE_EQ(ll128.rate(90e9), 0.92 * 7 / 9 * 90e9);
  const ProtocolCosts simple = nccl.costs(AlgorithmKind::kTree, std::nullopt);  // the bulk protocol
  EXPECT_EQ(simple.call_latency_ps, ps_from_ns(8400));
  EXPECT_EQ(simple.step_latency(LinkClass::kPcie), ps_from_us(4));
  EXPECT_DOUBLE_EQ(simple.rate(100e9), 92e9);
  // The estimate ranks tree by the same rows.
  std::vector<double> ranked;
  nccl.fastest(CollectiveKind::kAllReduce, AlgorithmKind::kTree, [&](Protocol, const ProtocolCosts& c) {
    ranked.push_back(c.efficiency);
    return 0.0;
  });
  EXPECT_EQ(ranked, (std::vector<double>{0.92 / 3.8, 0.92 * 7 / 9, 0.92}));
}

TEST(Library, NcclTreeCorrectionIsTuningCcsTableBySize) {
  // treeCorrectionFactor[protocol][log2(n / 64)], 64 B <= n < 512 MiB; 1 outside.
  using P = Protocol;
  EXPECT_EQ(nccl_tree_correction(P::kSimple, 63), 1.0);                      // below the table
  EXPECT_EQ(nccl_tree_correction(P::kSimple, 64), 0.9);                      // index 0
  EXPECT_EQ(nccl_tree_correction(P::kLL, 127), 1.0);                         // still index 0
  EXPECT_EQ(nccl_tree_correction(P::kLL, 1024), 0.9);                        // index 4
  EXPECT_EQ(nccl_tree_correction(P::kLL, 256 << 10), 0.4);                   // index 12, LL's least
  EXPECT_EQ(nccl_tree_correction(P::kLL128, 1 << 20), 0.6);                  // index 14
  EXPECT_EQ(nccl_tree_correction(P::kSimple, 32 << 20), 0.7);                // index 19
  EXPECT_EQ(nccl_tree_correction(P::kSimple, (Bytes{512} << 20) - 1), 0.9);  // index 22, the last
  EXPECT_EQ(nccl_tree_correction(P::kSimple, Bytes{512} << 20), 1.0);        // past the table
}

TEST(Library, NcclRingLlSharesAreTuningCcsByCollective) {
  // tuning.cc: a ring's LL moves min(llMaxBw, busBw / 4) for AllReduce and Reduce, busBw / 3
  // for AllGather, ReduceScatter and Broadcast on one node, busBw / 4 for every collective
  // across nodes; a P2P send (AllToAll, send/receive) moves LL's wire share, 8 bytes in 16.
  const LibraryProfile node = library_by_name("nccl", "--library");
  const LibraryProfile cluster = library_by_name("nccl-hopper-multinode", "--library");
  const auto ll_rate = [](const LibraryProfile& p, CollectiveKind kind, BandwidthBps link) {
    return p.costs(kind, AlgorithmKind::kRing, Protocol::kLL).rate(link);
  };
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kAllReduce, 240e9), 60e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kReduce, 240e9), 60e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kAllGather, 240e9), 80e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kReduceScatter, 240e9), 80e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kBroadcast, 240e9), 80e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kAllToAll, 240e9), 120e9);
  EXPECT_DOUBLE_EQ(node.costs(Protocol::kLL).rate(240e9), 120e9);
  EXPECT_DOUBLE_EQ(ll_rate(node, CollectiveKind::kAllReduce, 1000e9), 141e9);  // at most llMaxBw
  EXPECT_DOUBLE_EQ(ll_rate(cluster, CollectiveKind::kAllGather, 60e9), 15e9);
  EXPECT_DOUBLE_EQ(cluster.costs(CollectiveKind::kAllGather, AlgorithmKind::kRing, Protocol::kLL).efficiency, 0.25);
  // LL128, Simple, tree and NVLS keep their rows; the estimate ranks by the same shares.
  EXPECT_DOUBLE_EQ(node.costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, Protocol::kLL128).efficiency, 0.92);
  EXPECT_DOUBLE_EQ(node.costs(CollectiveKind::kAllReduce, AlgorithmKind::kTree, Protocol::kLL).efficiency, 0.92 / 3.8);
  std::vector<double> ranked;
  node.fastest(CollectiveKind::kAllGather, AlgorithmKind::kRing, [&](Protocol, const ProtocolCosts& c) {
    ranked.push_back(c.efficiency);
    return 0.0;
  });
  EXPECT_EQ(ranked, (std::vector<double>{0.5 * 2 / 3, 0.92, 1.0}));
}

TEST(Library, OneNodeRampIsSimAisRatioOverItsLast) {
  // SimAI's one-machine column: 0.45 at 16 MiB, 0.55 at 32 MiB, ... 0.81 at 16 GiB; log-linear
  // between sizes (24 MiB is log2(1.5) = 0.585 of the way from 16 to 32 MiB).
  const LibraryProfile nccl = library_by_name("nccl", "test");
  constexpr Bytes kMiB = Bytes{1} << 20;
  EXPECT_FALSE(nccl.one_node_ramp_at(8 * kMiB).has_value());         // below the first size
  EXPECT_FALSE(nccl.one_node_ramp_at(16 * 1024 * kMiB).has_value());  // the asymptote itself
  EXPECT_DOUBLE_EQ(*nccl.one_node_ramp_at(16 * kMiB), 0.45 / 0.81);
  EXPECT_DOUBLE_EQ(*nccl.one_node_ramp_at(8 * 1024 * kMiB), 0.80 / 0.81);
  EXPECT_NEAR(*nccl.one_node_ramp_at(24 * kMiB), (0.45 + std::log2(1.5) * 0.10) / 0.81, 1e-12);
  for (const char* name : {"nccl-ampere", "nccl-blackwell", "nccl-hopper-multinode"}) {
    EXPECT_EQ(library_by_name(name, "test").one_node_ramp.size(), 11u) << name;
  }
  EXPECT_TRUE(library_by_name("ideal", "test").one_node_ramp.empty());
  EXPECT_TRUE(library_by_name("gloo", "test").one_node_ramp.empty());
}

TEST(Library, NcclByArchitecture) {
  // tuning.cc's caps by compute capability: llMaxBws on one node Volta 39.0, Ampere 87.7,
  // Hopper 141.0, Blackwell 2 x 141.0 GB/s (on the Ring and Tree LL rows alike);
  // nvlsEfficiency Hopper 0.85, Blackwell 0.74, no NVLS before; P2P channels where a channel
  // rate was measured (Hopper 40 GB/s, Ampere 24.4 GB/s on NVLink, up to 8 channels).
  const auto ll_cap = [](const LibraryProfile& p, AlgorithmKind a) { return p.costs(a, Protocol::kLL).max_rate_Bps; };
  const LibraryProfile hopper = library_by_name("nccl", "--library");
  const LibraryProfile volta = library_by_name("nccl-volta", "--library");
  const LibraryProfile ampere = library_by_name("NCCL-Ampere", "--library");
  const LibraryProfile blackwell = library_by_name("nccl-blackwell", "--library");
  EXPECT_DOUBLE_EQ(ll_cap(volta, AlgorithmKind::kRing), 39e9);
  EXPECT_DOUBLE_EQ(ll_cap(ampere, AlgorithmKind::kRing), 87.7e9);
  EXPECT_DOUBLE_EQ(ll_cap(ampere, AlgorithmKind::kTree), 87.7e9);
  EXPECT_DOUBLE_EQ(ll_cap(hopper, AlgorithmKind::kTree), 141e9);
  EXPECT_DOUBLE_EQ(ll_cap(blackwell, AlgorithmKind::kRing), 282e9);
  EXPECT_FALSE(volta.in_switch);
  EXPECT_FALSE(ampere.in_switch);
  EXPECT_DOUBLE_EQ(hopper.in_switch->efficiency, 0.85);
  EXPECT_DOUBLE_EQ(blackwell.in_switch->efficiency, 0.74);
  ASSERT_TRUE(ampere.p2p);
  EXPECT_EQ(ampere.p2p->max_channels, 16u);
  EXPECT_DOUBLE_EQ(ampere.p2p_rate_cap(Bytes{1} << 30, LinkClass::kNvlink, 8), 16 * 12.2e9);
  EXPECT_FALSE(blackwell.p2p);
  // What does not depend on the GPU is the same everywhere.
  EXPECT_EQ(ampere.costs(Protocol::kSimple), hopper.costs(Protocol::kSimple));
  EXPECT_EQ(blackwell.costs(AlgorithmKind::kTree, Protocol::kLL128), hopper.costs(AlgorithmKind::kTree, Protocol::kLL128));
  EXPECT_EQ(library_names(),
            "ideal, nccl, nccl-volta, nccl-ampere, nccl-blackwell, nccl-hopper-multinode, nccl-ampere-multinode, "
            "nccl-blackwell-multinode, gloo");
}

TEST(Library, NcclP2pSendsStartOnMoreChannelsAmongFewerRanks) {
  // NCCL starts a send on its channels per peer halved while that many for every rank of the
  // communicator exceeds its P2P channels (src/enqueue.cc, scheduleP2pTasksToPlan): on H100
  // 32 of 20 GB/s halved while x ranks > 32. Among 8 ranks 4, among 4 ranks 8, among 2 ranks
  // 16, among 80 ranks 1; a 32 MiB send keeps them (16 MiB a channel at most twice 16 MiB)
  // and moves at most 80, 160 and 320 GB/s.
  const LibraryProfile hopper = library_by_name("nccl", "--library");
  const P2pChannels& c = *hopper.p2p;
  EXPECT_EQ(c.start_channels(8), 4u);
  EXPECT_EQ(c.start_channels(4), 8u);
  EXPECT_EQ(c.start_channels(2), 16u);
  EXPECT_EQ(c.start_channels(80), 1u);
  const Bytes mib32 = Bytes{32} << 20;
  EXPECT_DOUBLE_EQ(hopper.p2p_rate_cap(mib32, LinkClass::kNvlink, 8), 80e9);
  EXPECT_DOUBLE_EQ(hopper.p2p_rate_cap(mib32, LinkClass::kNvlink, 4), 160e9);
  EXPECT_DOUBLE_EQ(hopper.p2p_rate_cap(mib32, LinkClass::kNvlink, 2), 320e9);
  // 256 MiB among 8 ranks doubles from 4 to 16 (16 MiB a channel); across nodes 4 per peer.
  EXPECT_EQ(c.channels(Bytes{256} << 20, LinkClass::kNvlink, 8), 16u);
  EXPECT_EQ(c.channels(mib32, LinkClass::kNet, 4), 4u);
  // Without communicator channels every send starts on min_channels.
  P2pChannels fixed = c;
  fixed.communicator_channels = 0;
  fixed.min_channels = 2;
  EXPECT_EQ(fixed.start_channels(4), 2u);
  EXPECT_EQ(library_by_name("nccl-ampere", "--library").p2p->start_channels(8), 4u);
}

TEST(Library, NcclGivesANetworkPeerFewerChannelsInALargeCommunicator) {
  // NCCL 2.29 (src/graph/paths.cc, ncclTopoComputeP2pChannels): a network peer's 4 channels
  // halved while that many for each round of 8 peers exceeds the 32 P2P channels: 4 x
  // ceil(64 / 8) = 32 keeps 4, 65 ranks need 9 rounds (36 > 32): 2; 2 x 16 = 32 keeps 2 up
  // to 128 ranks, 129 ranks: 1. So 10 nodes of 8 H100s (80 ranks) send 2 x 7.6 = 15.2 GB/s
  // to a peer in another node where 10 nodes of 4 send 4 x 7.6 = 30.4, held to 25 (measured:
  // 15.2 and 26.2, nccl-tests sendrecv_perf, tests/data).
  const LibraryProfile hopper = library_by_name("nccl", "--library");
  const P2pChannels& c = *hopper.p2p;
  EXPECT_EQ(c.net_channels(10), 4u);
  EXPECT_EQ(c.net_channels(64), 4u);
  EXPECT_EQ(c.net_channels(65), 2u);
  EXPECT_EQ(c.net_channels(128), 2u);
  EXPECT_EQ(c.net_channels(129), 1u);
  EXPECT_EQ(c.net_channels(4096), 1u);
  const Bytes gib = Bytes{1} << 30;
  EXPECT_DOUBLE_EQ(c.rate_cap(gib, LinkClass::kNet, 40), 25e9);
  EXPECT_DOUBLE_EQ(c.rate_cap(gib, LinkClass::kNet, 80), 15.2e9);
  // Without communicator channels a network peer always has net_peer_channels.
  P2pChannels fixed = c;
  fixed.communicator_channels = 0;
  EXPECT_EQ(fixed.net_channels(4096), 4u);
}

TEST(Library, AThreadDrivingGpusIssuesCallsNoFasterThanItLaunchesTheirKernels) {
  // 2.1 us a call (nccl-tests issue 123) + 5.26 us per GPU a thread drives at one channel
  // (an A100 node's -g 8: 43.83 us; an H100 node's -g 4: 23.3 us), of which each channel of
  // the call takes 0.31 us on Ampere (the A100 table's 2.50 us a channel over 8 GPUs) and
  // 0.05 on Hopper (the H100's 4.6 us from 1 to 24 channels over 4). Ampere: 2.1 + 2 x 5.26
  // = 12.62 us for 2 GPUs, 2.1 + 8 x 5.26 = 44.18 for 8, 2.1 + 8 x (4.95 + 24 x 0.31) =
  // 101.22 on all 24 channels; Hopper, 4 GPUs: 23.14 us on one channel, 2.1 + 4 x (5.21 + 24
  // x 0.05) = 27.74 on 24. None without a thread.
  const LibraryProfile ampere = library_by_name("nccl-ampere", "--library");
  EXPECT_EQ(ampere.thread_issue_ps(2, 1), ps_from_ns(12620));
  EXPECT_EQ(ampere.thread_issue_ps(8, 1), ps_from_ns(44180));
  EXPECT_EQ(ampere.thread_issue_ps(8, 24), ps_from_ns(101220));
  EXPECT_EQ(ampere.thread_issue_ps(0, 24), 0);
  const LibraryProfile hopper = library_by_name("nccl", "--library");
  EXPECT_EQ(hopper.thread_issue_ps(4, 1), ps_from_ns(23140));
  EXPECT_EQ(hopper.thread_issue_ps(4, 24), ps_from_ns(27740));
  EXPECT_EQ(LibraryProfile{}.thread_issue_ps(8, 24), 0);
  EXPECT_EQ(library_by_name("nccl-hopper-multinode", "--library").thread_issue_ps(1, 1), ps_from_ns(7360));
  EXPECT_EQ(library_by_name("nccl-volta", "--library").thread_launch, ampere.thread_launch);
  EXPECT_EQ(library_by_name("nccl-blackwell", "--library").thread_launch, hopper.thread_launch);
  EXPECT_EQ(ampere.collective_channels, 24u);  // HGX A100, NCCL_DEBUG=INFO "Channel 23/24"
  EXPECT_EQ(describe_thread_launch(ampere.thread_launch), "2.1 us + G x (4.95 us + 310 ns per channel)");
  EXPECT_EQ(describe_thread_launch(hopper.thread_launch), "2.1 us + G x (5.21 us + 50 ns per channel)");
}

TEST(Library, NcclRunsSmallCollectivesOnFewerChannels) {
  // enqueue.cc: channels drop while bytes < nc x threads x threshold. An 8-rank ring LL:
  // 512 threads x 8 B x 8 ranks = 32 KiB a channel, so 32 KiB runs on 1 channel, 256 KiB on
  // 8, 1 MiB on 32 -> the communicator's 24. LL128: 640 x 8 B = 5 KiB a channel (4 channels
  // at 20 KiB); Simple 512 x 64 B = 32 KiB; a tree's LL has no x ranks (4 KiB); in-switch
  // runs keep all.
  const auto nc = [](Bytes bytes, AlgorithmKind a, std::optional<Protocol> p) {
    return nccl_call_channels(24, bytes, a, p, 8);
  };
  EXPECT_EQ(nc(32 << 10, AlgorithmKind::kRing, Protocol::kLL), 1u);
  EXPECT_EQ(nc((32 << 10) - 1, AlgorithmKind::kRing, Protocol::kLL), 1u);
  EXPECT_EQ(nc(64 << 10, AlgorithmKind::kRing, Protocol::kLL), 2u);
  EXPECT_EQ(nc((64 << 10) - 1, AlgorithmKind::kRing, Protocol::kLL), 1u);
  EXPECT_EQ(nc(256 << 10, AlgorithmKind::kRing, Protocol::kLL), 8u);
  EXPECT_EQ(nc(1 << 20, AlgorithmKind::kRing, Protocol::kLL), 24u);
  EXPECT_EQ(nc(20 << 10, AlgorithmKind::kRing, Protocol::kLL128), 4u);
  EXPECT_EQ(nc(96 << 10, AlgorithmKind::kRing, Protocol::kSimple), 3u);
  EXPECT_EQ(nc(96 << 10, AlgorithmKind::kRing, std::nullopt), 3u);  // ideal: as Simple
  EXPECT_EQ(nc(16 << 10, AlgorithmKind::kTree, Protocol::kLL), 4u);
  EXPECT_EQ(nc(8, AlgorithmKind::kNvls, Protocol::kSimple), 24u);
  EXPECT_EQ(nccl_call_channels(0, 1 << 30, AlgorithmKind::kRing, Protocol::kSimple, 8), 1u);
}

TEST(Library, NvlsRunsOnItsOwnChannels) {
  // src/transport/nvls.cc: NVLS_NCHANNELS_SM90 16 on Hopper, whatever the size; Blackwell 24
  // in a node (NVLS_NCHANNELS_SM100_NVL), 32 across nodes (NVLS_NCHANNELS_SM100). A ring
  // keeps the communicator's 24 (Blackwell's 32, nccl issue 1646), fewer when small; where
  // the communicator's count is not known (any across nodes) a ring's is not either (0).
  const auto channels = [](const char* library, Bytes bytes, AlgorithmKind a, Protocol p) {
    return library_by_name(library, "--library").call_channels(bytes, a, p, 8);
  };
  EXPECT_EQ(channels("nccl", 8, AlgorithmKind::kNvls, Protocol::kSimple), 16u);
  EXPECT_EQ(channels("nccl", Bytes{1} << 30, AlgorithmKind::kNvls, Protocol::kSimple), 16u);
  EXPECT_EQ(channels("nccl", Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple), 24u);
  EXPECT_EQ(channels("nccl", 64 << 10, AlgorithmKind::kRing, Protocol::kLL), 2u);
  EXPECT_EQ(channels("nccl-hopper-multinode", Bytes{1} << 30, AlgorithmKind::kNvlsTree, Protocol::kSimple), 16u);
  EXPECT_EQ(channels("nccl-hopper-multinode", Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple), 0u);
  EXPECT_EQ(channels("nccl-blackwell", 8, AlgorithmKind::kNvls, Protocol::kSimple), 24u);
  EXPECT_EQ(channels("nccl-blackwell", Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple), 32u);
  EXPECT_EQ(channels("nccl-blackwell", 1 << 20, AlgorithmKind::kRing, Protocol::kLL), 32u);
  EXPECT_EQ(channels("nccl-blackwell", 256 << 10, AlgorithmKind::kRing, Protocol::kLL), 8u);
  EXPECT_EQ(channels("nccl-blackwell-multinode", Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple), 0u);
  EXPECT_EQ(channels("nccl-blackwell-multinode", 8, AlgorithmKind::kNvls, Protocol::kSimple), 32u);
  EXPECT_EQ(channels("nccl-ampere", 8, AlgorithmKind::kNvls, Protocol::kSimple), 24u);  // no NVLS: all
  EXPECT_EQ(channels("ideal", Bytes{1} << 30, AlgorithmKind::kRing, Protocol::kSimple), 0u);
}

TEST(Library, NcclLoopsARingThroughItsBuffers) {
  // enqueue.cc calcCollChunking: nLoops = ceil(bytes / (nChannels x nRanks x chunkSize)),
  // chunk Simple 4 MiB / 8 steps x 4 = 2 MiB, LL128 614400 x 15/16 = 576000 B, LL 64 KiB / 2.
  // An 8-rank ring on 24 channels: Simple 384 MiB a loop, LL128 110592000 B, LL 6 MiB.
  const LibraryProfile nccl = library_by_name("nccl-ampere", "--library");
  const auto loops = [&](CollectiveKind kind, AlgorithmKind a, Protocol p, Bytes bytes) {
    return nccl.ring_loops(kind, a, p, bytes, 8);
  };
  using K = CollectiveKind;
  using A = AlgorithmKind;
  const Bytes mib = Bytes{1} << 20;
  EXPECT_EQ(loops(K::kAllReduce, A::kRing, Protocol::kSimple, 384 * mib), 1u);
  EXPECT_EQ(loops(K::kAllReduce, A::kRing, Protocol::kSimple, 384 * mib + 1), 2u);
  EXPECT_EQ(loops(K::kAllReduce, A::kRing, Protocol::kSimple, Bytes{1} << 30), 3u);
  EXPECT_EQ(loops(K::kAllGather, A::kRing, Protocol::kSimple, Bytes{16} << 30), 43u);  // 16 GiB / 384 MiB = 42.7
  EXPECT_EQ(loops(K::kReduceScatter, A::kRing, Protocol::kLL128, 110592000), 1u);
  EXPECT_EQ(loops(K::kReduceScatter, A::kRing, Protocol::kLL128, 110592001), 2u);
  EXPECT_EQ(loops(K::kAllReduce, A::kRing, Protocol::kLL, 64 * mib), 11u);  // 64 / 6 = 10.7
  // Fewer channels for a small call make a loop smaller: 256 KiB of LL on 8 channels
  // (NcclRunsSmallCollectivesOnFewerChannels) is 8 x 8 x 32 KiB = 2 MiB a loop.
  EXPECT_EQ(loops(K::kAllReduce, A::kRing, Protocol::kLL, 256 << 10), 1u);
  // Only the ring's AllReduce, AllGather and ReduceScatter loop so; where the channels are not
  // known (across nodes) or the library has no chunk (ideal), one loop.
  EXPECT_EQ(loops(K::kAllReduce, A::kTree, Protocol::kSimple, Bytes{1} << 30), 1u);
  EXPECT_EQ(loops(K::kBroadcast, A::kRing, Protocol::kSimple, Bytes{1} << 30), 1u);
  EXPECT_EQ(library_by_name("nccl-hopper-multinode", "--library")
                .ring_loops(K::kAllReduce, A::kRing, Protocol::kSimple, Bytes{1} << 30, 8),
            1u);
  EXPECT_EQ(library_by_name("ideal", "--library").ring_loops(K::kAllReduce, A::kRing, std::nullopt, Bytes{1} << 30, 8),
            1u);
  EXPECT_EQ(library_by_name("gloo", "--library").ring_loops(K::kAllReduce, A::kRing, std::nullopt, Bytes{1} << 30, 8),
            1u);
  // A run's costs carry its loops; a step waits its NVLink and PCIe latency once per loop, its
  // network latency once; an estimate has one loop.
  const ProtocolCosts run = nccl.costs(K::kAllReduce, A::kRing, Protocol::kSimple, Bytes{1} << 30, 8);
  EXPECT_EQ(run.loops, 3u);
  EXPECT_EQ(run.run_step_latency(LinkClass::kNvlink), 3 * ps_from_ns(3400));
  EXPECT_EQ(run.run_step_latency(LinkClass::kPcie), 3 * ps_from_ns(5700));
  EXPECT_EQ(run.run_step_latency(LinkClass::kNet), ps_from_us(14));
  EXPECT_EQ(nccl.ranked_costs(K::kAllReduce, A::kRing, Protocol::kSimple).loops, 1u);
}

TEST(Library, NcclOnSeveralNodesByHost) {
  // tuning.cc with more than one node: a ring's step inside a node costs at least the
  // network's post overhead (1 us on Intel, 2 us on AMD; x3 for Simple), LL's cap is the
  // host CPU's for 3+ nodes (Intel 20.4, AMD 19.0 GB/s), Tree LL128 moves 0.92 x 120/128.
  const auto step = [](const LibraryProfile& p, Protocol protocol, LinkClass c) {
    return p.costs(AlgorithmKind::kRing, protocol).step_latency(c);
  };
  const LibraryProfile hopper = library_by_name("nccl-hopper-multinode", "--library");  // DGX H100: Intel
  const LibraryProfile ampere = library_by_name("nccl-ampere-multinode", "--library");  // DGX A100: AMD
  EXPECT_EQ(step(hopper, Protocol::kLL, LinkClass::kNvlink), ps_from_us(1));         // max(0.6, 1)
  EXPECT_EQ(step(hopper, Protocol::kLL, LinkClass::kPcie), ps_from_us(1));           // max(1.0, 1)
  EXPECT_EQ(step(hopper, Protocol::kLL128, LinkClass::kNvlink), ps_from_ns(1900));   // max(1.9, 1)
  EXPECT_EQ(step(hopper, Protocol::kSimple, LinkClass::kNvlink), ps_from_ns(3400));  // max(3.4, 3)
  EXPECT_EQ(step(hopper, Protocol::kSimple, LinkClass::kPcie), ps_from_ns(5700));    // max(5.7, 3)
  EXPECT_EQ(step(ampere, Protocol::kLL, LinkClass::kNvlink), ps_from_us(2));         // max(0.6, 2)
  EXPECT_EQ(step(ampere, Protocol::kLL128, LinkClass::kNvlink), ps_from_us(2));      // max(1.9, 2)
  EXPECT_EQ(step(ampere, Protocol::kLL128, LinkClass::kPcie), ps_from_ns(2500));     // max(2.5, 2)
  EXPECT_EQ(step(ampere, Protocol::kSimple, LinkClass::kNvlink), ps_from_us(6));     // max(3.4, 6)
  EXPECT_EQ(step(ampere, Protocol::kSimple, LinkClass::kPcie), ps_from_us(6));       // max(5.7, 6)
  EXPECT_EQ(step(ampere, Protocol::kSimple, LinkClass::kNet), ps_from_us(14));       // the network's own
  for (const AlgorithmKind a : {AlgorithmKind::kRing, AlgorithmKind::kTree}) {
    EXPECT_DOUBLE_EQ(hopper.costs(a, Protocol::kLL).max_rate_Bps, 20.4e9);
    EXPECT_DOUBLE_EQ(ampere.costs(a, Protocol::kLL).max_rate_Bps, 19e9);
  }
  EXPECT_DOUBLE_EQ(hopper.costs(AlgorithmKind::kTree, Protocol::kLL128).efficiency, 0.8625);
  // Tree latencies, NVLS and P2P channels are the GPU's.
  const LibraryProfile one_node = library_by_name("nccl", "--library");
  EXPECT_EQ(hopper.costs(AlgorithmKind::kTree, Protocol::kSimple), one_node.costs(AlgorithmKind::kTree, Protocol::kSimple));
  EXPECT_EQ(hopper.in_switch, one_node.in_switch);
  EXPECT_EQ(hopper.p2p, one_node.p2p);
  EXPECT_DOUBLE_EQ(library_by_name("nccl-blackwell-multinode", "--library").in_switch->efficiency, 0.74);
}

TEST(Library, ARouteIsInTheClassOfItsSlowestLink) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 2;
  c.gpus_per_node = 2;
  const Topology t = build_topology(c);
  EXPECT_EQ(t.route_class(t.route(0, 1)), LinkClass::kNvlink);  // through the node's NVSwitch
  EXPECT_EQ(t.route_class(t.route(0, 2)), LinkClass::kNet);     // through the NICs
  EXPECT_EQ(t.route_class(t.route(0, 0)), LinkClass::kNvlink);
  EXPECT_EQ(link_class(LinkKind::kPcie), LinkClass::kPcie);
  EXPECT_EQ(link_class(LinkKind::kEthernet), LinkClass::kNet);
}

}  // namespace
}  // namespace commsim
