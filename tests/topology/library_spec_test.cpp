// A spec file's `library` block and --library-file: the built-in profiles by name, or every
// protocol in full, with errors that name the file and the field.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "base/error.h"
#include "topology/spec_file.h"
#include "topology/spec_message.h"

namespace commsim {
namespace {

constexpr const char* kRing = R"(name: "r" builder { kind: RING npus: 4 link { bandwidth: "100GB/s" latency: "1us" } })";

std::string error_of(const std::string& text) {
  try {
    parse_topology_spec(text, "spec.textproto", false);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LibrarySpec, ABuiltInProfileByName) {
  const Topology t = parse_topology_spec(std::string(kRing) + R"( library { name: "nccl" })", "s", false);
  EXPECT_EQ(t.library().name, "nccl");
  EXPECT_EQ(t.library().costs(Protocol::kLL).call_latency_ps, ps_from_ns(6600));
  // No block: the wire alone.
  EXPECT_TRUE(parse_topology_spec(kRing, "s", false).library().ideal());
}

TEST(LibrarySpec, EveryProtocolInFull) {
  const Topology t = parse_topology_spec(std::string(kRing) + R"( library { name: "mine"
      protocols { protocol: SIMPLE call_latency: "10us" nvlink_step: "2us" pcie_step: "3us" net_step: "4us"
                  efficiency: 0.9 max_bandwidth: "80GB/s" } })",
                                         "s", false);
  ASSERT_EQ(t.library().protocols.size(), 1u);
  const ProtocolCosts simple = t.library().costs(Protocol::kSimple);
  EXPECT_EQ(simple.call_latency_ps, ps_from_us(10));
  EXPECT_EQ(simple.step_latency(LinkClass::kPcie), ps_from_us(3));
  EXPECT_DOUBLE_EQ(simple.rate(100e9), 80e9);  // min(0.9 x 100, 80) GB/s
  EXPECT_THROW(t.library().costs(Protocol::kLL), InputError);
}

TEST(LibrarySpec, BadBlocksNameTheField) {
  const std::string ring(kRing);
  EXPECT_NE(error_of(ring + R"( library { name: "mpich" })").find("spec.textproto: library.name: unknown library 'mpich'"),
            std::string::npos);
  EXPECT_NE(error_of(ring + " library { }").find("spec.textproto: library.name is missing"), std::string::npos);
  const std::string no_step = ring + R"( library { name: "x" protocols { protocol: LL call_latency: "1us"
      pcie_step: "1us" net_step: "1us" efficiency: 0.5 } })";
  EXPECT_NE(error_of(no_step).find("library.protocols[0].nvlink_step is missing"), std::string::npos);
  const std::string zero = ring + R"( library { name: "x" protocols { protocol: LL call_latency: "1us"
      nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 0 } })";
  EXPECT_NE(error_of(zero).find("library.protocols[0].efficiency must be in (0, 1], got 0"), std::string::npos);
  const std::string twice = ring + R"( library { name: "x"
      protocols { protocol: LL call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 1 }
      protocols { protocol: LL call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 1 } })";
  EXPECT_NE(error_of(twice).find("library.protocols[1]: protocol ll is given twice"), std::string::npos);
  EXPECT_NE(error_of(ring + " library { name: \"x\" colour: 2 }").find("spec.textproto: line 1"), std::string::npos);
}

TEST(LibrarySpec, InSwitchReductionCostsAndReducingSwitches) {
  // A built-in profile by name may take its own in-switch costs (Blackwell's efficiency).
  const std::string nvls_switch = R"(name: "n" builder { kind: SWITCH npus: 8 nvls: true
      link { bandwidth: "100GB/s" latency: "1us" } })";
  const Topology t = parse_topology_spec(nvls_switch + R"( library { name: "nccl"
      in_switch { call_latency: "0us" nvlink_step: "25us" pcie_step: "0us" net_step: "14us" efficiency: 0.74 } })",
                                         "s", false);
  ASSERT_TRUE(t.library().in_switch);
  EXPECT_DOUBLE_EQ(t.library().costs(AlgorithmKind::kNvls, std::nullopt).efficiency, 0.74);
  EXPECT_EQ(t.library().costs(AlgorithmKind::kRing, std::nullopt).call_latency_ps, ps_from_ns(8400));
  EXPECT_TRUE(t.vertex(8).reduces);  // the switch, after the 8 NPUs
  // The built-in nccl profile has NCCL's: 25 us per round, efficiency 0.85.
  EXPECT_DOUBLE_EQ(library_by_name("nccl", "x").in_switch->efficiency, 0.85);

  const std::string ring(kRing);
  const std::string ll = ring + R"( library { name: "nccl" in_switch { protocol: LL call_latency: "0us"
      nvlink_step: "25us" pcie_step: "0us" net_step: "14us" efficiency: 0.8 } })";
  EXPECT_NE(error_of(ll).find("library.in_switch.protocol: in-switch reduction runs the SIMPLE protocol only"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "ideal" in_switch { call_latency: "0us" nvlink_step: "1us"
      pcie_step: "0us" net_step: "1us" efficiency: 1 } })").find("library.in_switch: the ideal library has no costs"),
            std::string::npos);
  const std::string nvls_ring = R"(name: "r" builder { kind: RING npus: 4 nvls: true link { bandwidth: "100GB/s" latency: "1us" } })";
  EXPECT_NE(error_of(nvls_ring).find("builder.nvls does not apply to a ring builder (only to switch, hierarchical)"),
            std::string::npos);
  const std::string reducing_npu = R"(name: "g" graph { vertices { name: "a" reduces: true } vertices { name: "b" }
      links { a: "a" b: "b" link { bandwidth: "1GB/s" latency: "1us" } } })";
  EXPECT_NE(error_of(reducing_npu).find("graph.vertices[0].reduces: only a switch reduces, and 'a' is an NPU"),
            std::string::npos);
  const Topology graph = parse_topology_spec(R"(name: "g" graph { vertices { name: "a" } vertices { name: "b" }
      vertices { name: "sw" kind: SWITCH reduces: true }
      links { a: "a" b: "sw" link { bandwidth: "1GB/s" latency: "1us" } }
      links { a: "b" b: "sw" link { bandwidth: "1GB/s" latency: "1us" } } })",
                                             "g", false);
  EXPECT_TRUE(graph.vertex(2).reduces);
}

TEST(LibrarySpec, P2pChannels) {
  const std::string ring(kRing);
  const Topology t = parse_topology_spec(ring + R"( library { name: "nccl" p2p { min_channels: 1 max_channels: 4
      max_bytes_per_channel: "1MiB" net_peer_channels: 1 nvlink_channel_rate: "10GB/s" } })",
                                         "s", false);
  ASSERT_TRUE(t.library().p2p);
  EXPECT_EQ(t.library().p2p->channels(3 << 20, LinkClass::kNvlink, 8), 4u);
  EXPECT_DOUBLE_EQ(t.library().p2p_rate_cap(3 << 20, LinkClass::kNvlink, 8), 40e9);
  EXPECT_EQ(t.library().p2p_rate_cap(3 << 20, LinkClass::kNet, 8), std::numeric_limits<double>::infinity());
  // communicator_channels: 4 for each of 2 ranks fit in 8, for each of 4 ranks 2 do.
  const Topology c = parse_topology_spec(ring + R"( library { name: "nccl" p2p { max_channels: 4
      max_bytes_per_channel: "1MiB" net_peer_channels: 1 communicator_channels: 8 } })",
                                         "s", false);
  EXPECT_EQ(c.library().p2p->start_channels(2), 4u);
  EXPECT_EQ(c.library().p2p->start_channels(4), 2u);
  // A network peer's 1 channel stays 1 however many rounds of 8 peers; min_bytes_per_channel
  // 256 KiB: a 300 KiB send on 2 of the 4 (or 2) channels it would start on.
  const Topology m = parse_topology_spec(ring + R"( library { name: "nccl" p2p { max_channels: 4
      max_bytes_per_channel: "1MiB" net_peer_channels: 4 communicator_channels: 8 min_bytes_per_channel: "256KiB" } })",
                                         "s", false);
  EXPECT_EQ(m.library().p2p->min_bytes_per_channel, Bytes{256} << 10);
  EXPECT_EQ(m.library().p2p->channels(300 << 10, LinkClass::kNvlink, 2), 2u);
  EXPECT_EQ(m.library().p2p->channels(300 << 10, LinkClass::kNet, 2), 2u);
  // 4 network channels x 1 round of 8 peers fit in 8; x 3 rounds (17 ranks) halve to 2; x 5
  // rounds (33 ranks) to 1.
  EXPECT_EQ(m.library().p2p->net_channels(8), 4u);
  EXPECT_EQ(m.library().p2p->net_channels(17), 2u);
  EXPECT_EQ(m.library().p2p->net_channels(33), 1u);
  // net_peer_rate holds a send to a network peer below its channels' sum: 4 x 30 GB/s to 50.
  const Topology capped = parse_topology_spec(ring + R"( library { name: "nccl" p2p { min_channels: 1 max_channels: 4
      max_bytes_per_channel: "1MiB" net_peer_channels: 4 nvlink_channel_rate: "40GB/s" net_channel_rate: "30GB/s"
      net_peer_rate: "50GB/s" } })",
                                              "s", false);
  EXPECT_DOUBLE_EQ(capped.library().p2p_rate_cap(Bytes{1} << 30, LinkClass::kNet, 2), 50e9);
  EXPECT_DOUBLE_EQ(capped.library().p2p_rate_cap(Bytes{1} << 30, LinkClass::kNvlink, 2), 4 * 40e9);
  EXPECT_EQ(library_from_spec(library_message(capped.library()), "test").p2p->net_peer_rate_Bps, 50e9);
  EXPECT_EQ(m.library().p2p->net_peer_rate_Bps, std::numeric_limits<double>::infinity());
  EXPECT_NE(error_of(ring + R"( library { name: "nccl" p2p { min_channels: 1 max_channels: 2
      max_bytes_per_channel: "1MiB" net_peer_channels: 1 min_bytes_per_channel: "2MiB" } })")
                .find("library.p2p.min_bytes_per_channel (2MiB) is above max_bytes_per_channel (1MiB)"),
            std::string::npos);
  const auto p2p = [&](const std::string& body) { return error_of(ring + " library { name: \"nccl\" p2p { " + body + " } }"); };
  EXPECT_NE(p2p(R"(min_channels: 4 max_channels: 2 max_bytes_per_channel: "1MiB" net_peer_channels: 1)")
                .find("library.p2p.max_channels (2) is below min_channels (4)"),
            std::string::npos);
  EXPECT_NE(p2p(R"(min_channels: 1 max_channels: 2 net_peer_channels: 1)").find("library.p2p.max_bytes_per_channel is missing"),
            std::string::npos);
  EXPECT_NE(
      p2p(R"(min_channels: 1 max_channels: 2 max_bytes_per_channel: "1MiB" net_peer_channels: 1 net_peer_rate: "0GB/s")")
          .find("library.p2p.net_peer_rate"),
      std::string::npos);
  EXPECT_NE(p2p(R"(max_channels: 2 max_bytes_per_channel: "1MiB" net_peer_channels: 1)").find("library.p2p.min_channels must be at least 1"),
            std::string::npos);
  EXPECT_NE(p2p(R"(min_channels: 1 max_channels: 2 max_bytes_per_channel: "1MiB" net_peer_channels: 1 nvlink_channel_rate: "fast")")
                .find("library.p2p.nvlink_channel_rate"),
            std::string::npos);
}

TEST(LibrarySpec, CollectiveBandwidthFactors) {
  // AllToAll at 0.8 of what the profile gives: its Simple flows at 0.8 x 100 GB/s, on
  // 1 / 0.8 of the bytes; AllGather, left out, at 1; the choice's estimate has no factor.
  const std::string ring(kRing);
  const Topology t = parse_topology_spec(ring + R"( library { name: "nccl"
      collective_bandwidth { collective: "alltoall" factor: 0.8 } })",
                                         "s", false);
  const LibraryProfile& l = t.library();
  EXPECT_DOUBLE_EQ(l.bandwidth_factor(CollectiveKind::kAllToAll), 0.8);
  EXPECT_DOUBLE_EQ(l.bandwidth_factor(CollectiveKind::kAllGather), 1);
  const ProtocolCosts a2a = l.costs(CollectiveKind::kAllToAll, AlgorithmKind::kDirect, Protocol::kSimple);
  EXPECT_DOUBLE_EQ(a2a.rate(100e9), 80e9);
  EXPECT_DOUBLE_EQ(a2a.efficiency, 0.8);
  // LL's 141 GB/s cap scales too: min(0.5 x 0.8 x 400, 0.8 x 141) GB/s.
  EXPECT_DOUBLE_EQ(l.costs(CollectiveKind::kAllToAll, AlgorithmKind::kDirect, Protocol::kLL).rate(400e9), 0.8 * 141e9);
  EXPECT_EQ(l.costs(CollectiveKind::kAllGather, AlgorithmKind::kRing, Protocol::kSimple), l.costs(Protocol::kSimple));

  const auto factors = [&](const std::string& body) {
    return error_of(ring + " library { name: \"nccl\" " + body + " }");
  };
  EXPECT_NE(factors(R"(collective_bandwidth { collective: "gather" factor: 0.8 })")
                .find("library.collective_bandwidth[0].collective: unknown collective 'gather'"),
            std::string::npos);
  EXPECT_NE(factors(R"(collective_bandwidth { collective: "alltoall" })")
                .find("library.collective_bandwidth[0].factor must be in (0, 2], got 0"),
            std::string::npos);
  EXPECT_NE(factors(R"(collective_bandwidth { collective: "alltoall" factor: 2.5 })").find("must be in (0, 2], got 2.5"),
            std::string::npos);
  EXPECT_NE(factors(R"(collective_bandwidth { collective: "alltoall" factor: 0.8 }
                       collective_bandwidth { collective: "all_to_all" factor: 0.9 })")
                .find("library.collective_bandwidth[1]: collective alltoall is given twice"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "ideal" collective_bandwidth { collective: "alltoall" factor: 0.8 } })")
                .find("library.collective_bandwidth: the ideal library has no costs to scale"),
            std::string::npos);
  EXPECT_NE(factors(R"(estimate { name: "nccl" collective_bandwidth { collective: "alltoall" factor: 0.8 } })")
                .find("library.estimate.collective_bandwidth: an estimate has no collective factors"),
            std::string::npos);
}

TEST(LibrarySpec, CollectiveBandwidthFactorsInsideOneNode) {
  // A cluster's AllToAll at 0.923 across nodes and 0.96 inside one node: the profile as
  // loaded has 0.923, inside_one_node() 0.96; written back and read again, both.
  const std::string ring(kRing);
  const Topology t = parse_topology_spec(ring + R"( library { name: "nccl"
      collective_bandwidth { collective: "alltoall" factor: 0.923 }
      collective_bandwidth { collective: "alltoall" factor: 0.96 one_node: true }
      collective_bandwidth { collective: "allgather" factor: 0.9 one_node: true } })",
                                         "s", false);
  const LibraryProfile& l = t.library();
  EXPECT_DOUBLE_EQ(l.bandwidth_factor(CollectiveKind::kAllToAll), 0.923);
  EXPECT_DOUBLE_EQ(l.bandwidth_factor(CollectiveKind::kAllGather), 1);
  const LibraryProfile inside = l.inside_one_node();
  EXPECT_DOUBLE_EQ(inside.bandwidth_factor(CollectiveKind::kAllToAll), 0.96);
  EXPECT_DOUBLE_EQ(inside.bandwidth_factor(CollectiveKind::kAllGather), 0.9);
  EXPECT_DOUBLE_EQ(inside.bandwidth_factor(CollectiveKind::kAllReduce), 1);
  EXPECT_TRUE(inside.collective_bandwidth_one_node.empty());
  const LibraryProfile reread = library_from_spec(library_message(l), "test");
  EXPECT_EQ(reread.collective_bandwidth, l.collective_bandwidth);
  EXPECT_EQ(reread.collective_bandwidth_one_node, l.collective_bandwidth_one_node);

  const auto factors = [&](const std::string& body) {
    return error_of(ring + " library { name: \"nccl\" " + body + " }");
  };
  EXPECT_NE(factors(R"(collective_bandwidth { collective: "alltoall" factor: 0.9 one_node: true }
                       collective_bandwidth { collective: "alltoall" factor: 0.8 one_node: true })")
                .find("library.collective_bandwidth[1]: collective alltoall is given twice inside one node"),
            std::string::npos);
  EXPECT_NE(factors(R"(ll_share { collective: "allreduce" factor: 0.5 one_node: true })")
                .find("library.ll_share[0].one_node: only a collective_bandwidth factor has a value inside one node"),
            std::string::npos);
}

TEST(LibrarySpec, LlSharesByCollective) {
  // The built-in nccl's ring LL moves a quarter of the link in an AllReduce (factor 0.5 on
  // LL's 0.5); a block's ll_share replace the built-in's: here AllGather at 0.4 x 0.5 and
  // AllReduce, no longer listed, at LL's own 0.5. The estimate ranks by the same shares.
  const std::string ring(kRing);
  const LibraryProfile built_in = parse_topology_spec(ring + R"( library { name: "nccl" })", "s", false).library();
  EXPECT_DOUBLE_EQ(built_in.costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, Protocol::kLL).efficiency, 0.25);
  const LibraryProfile mine = parse_topology_spec(ring + R"( library { name: "nccl"
      ll_share { collective: "allgather" factor: 0.4 } })",
                                                  "s", false)
                                  .library();
  EXPECT_DOUBLE_EQ(mine.costs(CollectiveKind::kAllGather, AlgorithmKind::kRing, Protocol::kLL).efficiency, 0.2);
  EXPECT_DOUBLE_EQ(mine.ranked_costs(CollectiveKind::kAllGather, AlgorithmKind::kRing, Protocol::kLL).efficiency, 0.2);
  EXPECT_DOUBLE_EQ(mine.costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, Protocol::kLL).efficiency, 0.5);
  EXPECT_DOUBLE_EQ(mine.costs(CollectiveKind::kAllGather, AlgorithmKind::kRing, Protocol::kSimple).efficiency, 1);
  // A profile written out reads back with its shares, in its estimate too.
  LibraryProfile fitted = built_in;
  fitted.estimate_as(built_in);
  const LibraryProfile reread = library_from_spec(library_message(fitted), "test");
  EXPECT_EQ(reread.ll_share.size(), built_in.ll_share.size());
  EXPECT_NEAR(reread.ll_factor(CollectiveKind::kBroadcast), 2.0 / 3, 1e-6);
  EXPECT_NEAR(reread.estimated().ll_factor(CollectiveKind::kReduceScatter), 2.0 / 3, 1e-6);

  EXPECT_NE(error_of(ring + R"( library { name: "nccl" ll_share { collective: "gather" factor: 0.5 } })")
                .find("library.ll_share[0].collective: unknown collective 'gather'"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "nccl" ll_share { collective: "allreduce" factor: 3 } })")
                .find("library.ll_share[0].factor must be in (0, 2], got 3"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "gloo" ll_share { collective: "allreduce" factor: 0.5 } })")
                .find("library.ll_share: library 'gloo' has no LL protocol"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "ideal" ll_share { collective: "allreduce" factor: 0.5 } })")
                .find("library.ll_share: library 'ideal' has no LL protocol"),
            std::string::npos);
}

TEST(LibrarySpec, LaunchOnEveryCall) {
  // 20 us more on every call, of every protocol and algorithm (the tree's own rows and the
  // in-switch costs too), none in the ranking's estimate; written out, it reads back.
  const std::string ring(kRing);
  const LibraryProfile built_in = parse_topology_spec(ring + R"( library { name: "nccl" })", "s", false).library();
  const LibraryProfile l = parse_topology_spec(ring + R"( library { name: "nccl" launch: "20us" })", "s", false).library();
  EXPECT_EQ(l.launch_ps, ps_from_us(20));
  for (const Protocol p : {Protocol::kLL, Protocol::kLL128, Protocol::kSimple}) {
    EXPECT_EQ(l.costs(p).call_latency_ps, built_in.costs(p).call_latency_ps + ps_from_us(20));
    EXPECT_EQ(l.costs(AlgorithmKind::kTree, p).call_latency_ps,
              built_in.costs(AlgorithmKind::kTree, p).call_latency_ps + ps_from_us(20));
  }
  EXPECT_EQ(l.costs(AlgorithmKind::kNvls, std::nullopt).call_latency_ps, ps_from_us(20));  // NCCL's NVLS base is 0
  LibraryProfile fitted = l;
  fitted.estimate_as(built_in);
  EXPECT_EQ(fitted.ranked_costs(CollectiveKind::kAllReduce, AlgorithmKind::kRing, Protocol::kLL).call_latency_ps,
            ps_from_ns(6600));
  const LibraryProfile reread = library_from_spec(library_message(fitted), "test");
  EXPECT_EQ(reread.launch_ps, ps_from_us(20));
  EXPECT_EQ(reread.estimated().launch_ps, 0);

  EXPECT_NE(error_of(ring + R"( library { name: "nccl" launch: "soon" })").find("library.launch"), std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "ideal" launch: "20us" })")
                .find("library.launch: the ideal library has no calls to add it to"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "nccl" estimate { name: "nccl" launch: "20us" } })")
                .find("library.estimate.launch: an estimate has no launch cost"),
            std::string::npos);
}

TEST(LibrarySpec, ThreadLaunch) {
  // A thread driving G GPUs issues a call on C channels at most every thread_launch + G x
  // (per GPU + C x per channel): a block's own figures replace the built-in's (Hopper's 2.1 us +
  // G x (5.21 us + 50 ns a channel), 24 channels); written out, they read back.
  const std::string ring(kRing);
  const LibraryProfile l =
      parse_topology_spec(ring + R"( library { name: "nccl" thread_launch: "1us" thread_launch_per_gpu: "2us"
                                       thread_launch_per_channel: "500ns" collective_channels: 4
                                       nvls_channels: 6 gpus_per_thread: 4 })",
                          "s", false)
          .library();
  EXPECT_EQ(l.thread_issue_ps(3, 2), ps_from_us(1 + 3 * (2 + 2 * 0.5)));
  EXPECT_EQ(l.collective_channels, 4u);
  EXPECT_EQ(l.nvls_channels, 6u);
  EXPECT_EQ(l.gpus_per_thread, 4u);
  EXPECT_EQ(l.gpus_per_thread_or(0), 4u);
  EXPECT_EQ(l.gpus_per_thread_or(2), 2u);
  const LibraryProfile built_in = parse_topology_spec(ring + R"( library { name: "nccl" })", "s", false).library();
  EXPECT_EQ(built_in.thread_issue_ps(2, 1), ps_from_ns(12620));
  EXPECT_EQ(built_in.collective_channels, 24u);
  EXPECT_EQ(built_in.nvls_channels, 16u);
  EXPECT_EQ(built_in.gpus_per_thread, 0u);
  const LibraryProfile read_back = library_from_spec(library_message(l), "test");
  EXPECT_EQ(read_back.thread_launch, l.thread_launch);
  EXPECT_EQ(read_back.collective_channels, 4u);
  EXPECT_EQ(read_back.nvls_channels, 6u);
  EXPECT_EQ(read_back.gpus_per_thread, 4u);
  // A collective's channel across the network: Hopper's 20 GB/s built in (nccl issue 1221),
  // none for other architectures; a block's own replaces it and reads back.
  EXPECT_EQ(built_in.net_channel_rate_Bps, 20e9);
  // What a channel's bytes carry of data, by the protocols' line layouts.
  EXPECT_EQ(protocol_data_share(Protocol::kLL), 0.5);
  EXPECT_EQ(protocol_data_share(Protocol::kLL128), 120.0 / 128);
  EXPECT_EQ(protocol_data_share(Protocol::kSimple), 1.0);
  EXPECT_EQ(read_back.net_channel_rate_Bps, 20e9);
  for (const char* name : {"nccl-ampere", "nccl-blackwell", "nccl-volta", "gloo", "ideal"}) {
    EXPECT_FALSE(std::isfinite(library_by_name(name, "test").net_channel_rate_Bps)) << name;
  }
  const LibraryProfile slower =
      parse_topology_spec(ring + R"( library { name: "nccl" net_channel_rate: "12.5GB/s" })", "s", false).library();
  EXPECT_EQ(slower.net_channel_rate_Bps, 12.5e9);
  EXPECT_EQ(library_from_spec(library_message(slower), "test").net_channel_rate_Bps, 12.5e9);
  // The P2P channels written out read back whole, with their 64 KiB floor.
  const LibraryProfile p2p_back = library_from_spec(library_message(built_in), "test");
  ASSERT_TRUE(p2p_back.p2p);
  EXPECT_EQ(*p2p_back.p2p, *built_in.p2p);
  EXPECT_EQ(p2p_back.p2p->min_bytes_per_channel, Bytes{64} << 10);
  // Each bad block, and what its error says.
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"(name: "nccl" thread_launch_per_channel: "slow")", "library.thread_launch_per_channel"},
      {R"(name: "ideal" collective_channels: 8)",
       "library.collective_channels: the ideal library has no calls to launch"},
      {R"(name: "nccl" estimate { name: "nccl" collective_channels: 8 })",
       "library.estimate.collective_channels: an estimate has no thread launch cost"},
      {R"(name: "nccl" collective_channels: 4000000000)",
       "library.collective_channels: 4000000000 is more than NCCL's 64"},
      {R"(name: "nccl" nvls_channels: 65)", "library.nvls_channels: 65 is more than NCCL's 64"},
      {R"(name: "ideal" nvls_channels: 16)", "library.nvls_channels: the ideal library has no calls to launch"},
      {R"(name: "nccl" estimate { name: "nccl" nvls_channels: 8 })",
       "library.estimate.nvls_channels: an estimate has no thread launch cost"},
      {R"(name: "nccl" thread_launch_per_gpu: "fast")", "library.thread_launch_per_gpu"},
      {R"(name: "ideal" gpus_per_thread: 8)", "library.gpus_per_thread: the ideal library has no calls to launch"},
      {R"(name: "nccl" estimate { name: "nccl" gpus_per_thread: 8 })",
       "library.estimate.gpus_per_thread: an estimate has no thread launch cost"},
      {R"(name: "nccl" gpus_per_thread: 2000000)", "library.gpus_per_thread: 2000000 is more than 1048576"},
      {R"(name: "ideal" net_channel_rate: "20GB/s")", "library.net_channel_rate: the ideal library has no channels"},
      {R"(name: "nccl" net_channel_rate: "fast")", "library.net_channel_rate"},
      {R"(name: "nccl" net_channel_rate: "0GB/s")", "library.net_channel_rate"},
      {R"(name: "nccl" estimate { name: "nccl" net_channel_rate: "20GB/s" })",
       "library.estimate.net_channel_rate: an estimate has no channel rate"},
      {R"(name: "ideal" thread_launch: "2us")", "library.thread_launch: the ideal library has no calls to launch"},
      {R"(name: "nccl" estimate { name: "nccl" thread_launch: "2us" })",
       "library.estimate.thread_launch: an estimate has no thread launch cost"},
  };
  for (const auto& [block, error] : bad) {
    EXPECT_NE(error_of(ring + " library { " + block + " }").find(error), std::string::npos) << block;
  }
}

TEST(LibrarySpec, NvlsTreeNetRate) {
  // What NCCL's estimate lets an nvls-tree head move across the network beyond two nodes
  // (perChMaxNVLSTreeBws, tuning.cc after 2.26): Hopper 45.5 GB/s, Blackwell 80; none where
  // there is no NVLS.
  EXPECT_EQ(library_by_name("nccl", "test").nvls_tree_net_rate_Bps, 45.5e9);
  EXPECT_EQ(library_by_name("nccl-hopper-multinode", "test").nvls_tree_net_rate_Bps, 45.5e9);
  EXPECT_EQ(library_by_name("nccl-blackwell", "test").nvls_tree_net_rate_Bps, 80e9);
  for (const char* name : {"nccl-ampere", "nccl-volta", "gloo", "ideal"}) {
    EXPECT_FALSE(std::isfinite(library_by_name(name, "test").nvls_tree_net_rate_Bps)) << name;
  }
  const std::string ring = R"(name: "r" builder { kind: RING npus: 4 link { bandwidth: "10GB/s" latency: "1us" } })";
  const LibraryProfile own =
      parse_topology_spec(ring + R"( library { name: "nccl" nvls_tree_net_rate: "40GB/s" })", "s", false).library();
  EXPECT_EQ(own.nvls_tree_net_rate_Bps, 40e9);
  EXPECT_EQ(library_from_spec(library_message(own), "test").nvls_tree_net_rate_Bps, 40e9);
  // It ranks choices, so an estimate block's is the one that counts, and it reads back.
  const LibraryProfile ranked =
      parse_topology_spec(ring + R"( library { name: "nccl" estimate { name: "nccl" nvls_tree_net_rate: "30GB/s" } })",
                          "s", false)
          .library();
  EXPECT_EQ(ranked.estimated().nvls_tree_net_rate_Bps, 30e9);
  EXPECT_EQ(library_from_spec(library_message(ranked), "test").estimated().nvls_tree_net_rate_Bps, 30e9);
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"(name: "ideal" nvls_tree_net_rate: "45GB/s")", "library.nvls_tree_net_rate: the ideal library ranks nothing"},
      {R"(name: "nccl" nvls_tree_net_rate: "fast")", "library.nvls_tree_net_rate"},
      {R"(name: "nccl" nvls_tree_net_rate: "0GB/s")", "library.nvls_tree_net_rate: bandwidth must be positive"},
  };
  for (const auto& [block, error] : bad) {
    EXPECT_NE(error_of(ring + " library { " + block + " }").find(error), std::string::npos) << block;
  }
}

TEST(LibrarySpec, TreeRows) {
  // The tree algorithm's own rows: the built-in nccl's are NCCL's Tree row; a block's replace
  // them, for the same protocols in the same order; other algorithms keep the protocols'.
  const std::string ring(kRing);
  const LibraryProfile built_in = parse_topology_spec(ring + R"( library { name: "nccl" })", "s", false).library();
  EXPECT_EQ(built_in.costs(AlgorithmKind::kTree, Protocol::kSimple).call_latency_ps, ps_from_ns(8400));
  EXPECT_EQ(built_in.costs(AlgorithmKind::kTree, Protocol::kSimple).step_latency(LinkClass::kNvlink), ps_from_us(4));
  EXPECT_EQ(built_in.costs(AlgorithmKind::kRing, Protocol::kSimple).step_latency(LinkClass::kNvlink), ps_from_ns(3400));

  const std::string one_protocol = R"( library { name: "mine"
      protocols { protocol: SIMPLE call_latency: "10us" nvlink_step: "2us" pcie_step: "3us" net_step: "4us" efficiency: 1 }
      tree { protocol: SIMPLE call_latency: "1us" nvlink_step: "5us" pcie_step: "6us" net_step: "7us" efficiency: 0.5 } })";
  const LibraryProfile mine = parse_topology_spec(ring + one_protocol, "s", false).library();
  const ProtocolCosts tree = mine.costs(CollectiveKind::kAllReduce, AlgorithmKind::kTree, std::nullopt);
  EXPECT_EQ(tree.call_latency_ps, ps_from_us(1));
  EXPECT_EQ(tree.step_latency(LinkClass::kNet), ps_from_us(7));
  EXPECT_DOUBLE_EQ(tree.rate(100e9), 50e9);
  EXPECT_EQ(mine.costs(AlgorithmKind::kRecursiveDoubling, std::nullopt).call_latency_ps, ps_from_us(10));

  const LibraryProfile replaced =
      parse_topology_spec(ring + R"( library { name: "nccl"
          tree { protocol: LL call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 0.2 }
          tree { protocol: LL128 call_latency: "2us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 0.2 }
          tree { protocol: SIMPLE call_latency: "3us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 0.2 } })",
                          "s", false)
          .library();
  EXPECT_EQ(replaced.costs(AlgorithmKind::kTree, Protocol::kLL128).call_latency_ps, ps_from_us(2));
  EXPECT_EQ(replaced.protocols, built_in.protocols);

  EXPECT_NE(error_of(ring + R"( library { name: "nccl"
      tree { protocol: SIMPLE call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 1 } })")
                .find("spec.textproto: library.tree names other protocols than the library"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "ideal"
      tree { protocol: SIMPLE call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us" efficiency: 1 } })")
                .find("library.tree: the ideal library has no costs to add to"),
            std::string::npos);
  EXPECT_NE(error_of(ring + R"( library { name: "nccl"
      tree { protocol: SIMPLE call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" efficiency: 1 } })")
                .find("library.tree[0].net_step is missing"),
            std::string::npos);
}

TEST(LibrarySpec, RingLoopChunk) {
  // A protocol's loop_chunk: a ring call of n bytes on C channels and p ranks makes
  // ceil(n / (C p chunk)) loops (4 channels x 4 ranks x 1 MiB = 16 MiB a loop: 64 MiB is 4).
  // The built-in nccl's rows carry NCCL's chunks; written out, they read back.
  const std::string ring(kRing);
  const LibraryProfile mine = parse_topology_spec(ring + R"( library { name: "mine" collective_channels: 4
      protocols { protocol: SIMPLE call_latency: "10us" nvlink_step: "2us" pcie_step: "3us" net_step: "4us"
                  efficiency: 1 loop_chunk: "1MiB" } })",
                                                  "s", false)
                                  .library();
  EXPECT_EQ(mine.costs(Protocol::kSimple).loop_chunk_bytes, Bytes{1} << 20);
  EXPECT_EQ(mine.ring_loops(CollectiveKind::kAllReduce, AlgorithmKind::kRing, std::nullopt, Bytes{64} << 20, 4), 4u);
  EXPECT_EQ(library_from_spec(library_message(mine), "test").protocols, mine.protocols);
  const LibraryProfile nccl = library_by_name("nccl", "test");
  EXPECT_EQ(nccl.costs(Protocol::kLL128).loop_chunk_bytes, 576000u);
  EXPECT_EQ(library_from_spec(library_message(nccl), "test").protocols, nccl.protocols);
  const std::string row = R"(protocol: SIMPLE call_latency: "1us" nvlink_step: "1us" pcie_step: "1us" net_step: "1us"
      efficiency: 1 )";
  const std::vector<std::pair<std::string, std::string>> bad{
      {"protocols { " + row + R"(loop_chunk: "0" })", "library.protocols[0].loop_chunk must be positive, got '0'"},
      {"protocols { " + row + R"(loop_chunk: "big" })", "library.protocols[0].loop_chunk"},
      {"protocols { " + row + R"(loop_chunk: "1MiB" } tree { )" + row + R"(loop_chunk: "1MiB" })",
       "library.tree[0].loop_chunk: only the ring's protocols loop through the buffers"},
      {"protocols { " + row + R"(} in_switch { )" + row + R"(loop_chunk: "1MiB" })",
       "library.in_switch.loop_chunk: only the ring's protocols loop through the buffers"},
  };
  for (const auto& [block, error] : bad) {
    EXPECT_NE(error_of(ring + R"( library { name: "mine" )" + block + " }").find(error), std::string::npos)
        << block << ": " << error_of(ring + R"( library { name: "mine" )" + block + " }");
  }
}

TEST(LibrarySpec, ClusterSpecsScaleOnTheCommandLine) {
  const std::string cluster = R"(name: "c" builder { kind: HIERARCHICAL nodes: 2 gpus_per_node: 8
      link { bandwidth: "100GB/s" latency: "1us" } nic { bandwidth: "50GB/s" latency: "1us" } })";
  const Topology t = parse_topology_spec(cluster, "c", false, SpecScale{10, 1});
  EXPECT_EQ(t.npu_count(), 10u);
  EXPECT_EQ(parse_topology_spec(cluster, "c", false, SpecScale{4, std::nullopt}).npu_count(), 32u);
  // A switch spec is one node: --gpus-per-node scales its GPUs, more nodes are an error.
  const std::string node = R"(name: "n" builder { kind: SWITCH npus: 8 link { bandwidth: "100GB/s" latency: "1us" } })";
  EXPECT_EQ(parse_topology_spec(node, "n", false, SpecScale{std::nullopt, 4}).npu_count(), 4u);
  EXPECT_EQ(parse_topology_spec(node, "n", false, SpecScale{1, 2}).npu_count(), 2u);
  try {
    parse_topology_spec(node, "n.textproto", false, SpecScale{2, 4});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("n.textproto: a switch builder spec is one node, not 2"), std::string::npos) << e.what();
  }
  try {
    parse_topology_spec(kRing, "ring.textproto", false, SpecScale{4, std::nullopt});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "ring.textproto: --nodes and --gpus-per-node scale a hierarchical or switch builder spec, and this is not one");
  }
}

TEST(LibrarySpec, ALibraryNamesTheAlgorithmsItRunsAsItsOwn) {
  const std::string ring(kRing);
  // The built-in gloo has its own; a block of its name alone keeps them.
  const LibraryProfile gloo = parse_topology_spec(ring + R"( library { name: "gloo" })", "s", false).library();
  EXPECT_EQ(gloo.own_algorithm(CollectiveKind::kAllReduce), AlgorithmKind::kRing);
  EXPECT_EQ(gloo.own_algorithm(CollectiveKind::kBroadcast), AlgorithmKind::kTree);
  EXPECT_TRUE(library_by_name("nccl", "test").own_algorithms.empty());
  // A library of its own costs names them, and they read back as written.
  const LibraryProfile mpi = parse_topology_spec(ring + R"( library { name: "mpi"
      protocols { protocol: SIMPLE call_latency: "5us" nvlink_step: "1us" pcie_step: "1us" net_step: "3us"
                  efficiency: 1 }
      algorithm { collective: "allreduce" algorithm: "rabenseifner" }
      algorithm { collective: "allgather" algorithm: "recursive-doubling" } })",
                                                 "s", false)
                                 .library();
  ASSERT_TRUE(mpi.runs_own_algorithms());
  EXPECT_EQ(mpi.own_algorithm(CollectiveKind::kAllReduce), AlgorithmKind::kRabenseifner);
  EXPECT_EQ(mpi.own_algorithm(CollectiveKind::kReduce), std::nullopt);
  EXPECT_EQ(library_from_spec(library_message(mpi), "test").own_algorithms, mpi.own_algorithms);
  EXPECT_EQ(library_from_spec(library_message(gloo), "test").own_algorithms, gloo.own_algorithms);
  // What cannot be: an algorithm the collective lacks, in-switch reduction, one that needs a
  // topology of its shape (direct AllReduce: a switch), a collective twice, the ideal library,
  // an estimate. Direct AllToAll runs anywhere (Gloo's).
  const std::string mpi_block =
      ring + R"( library { name: "mpi" protocols { protocol: SIMPLE call_latency: "5us" nvlink_step: "1us"
      pcie_step: "1us" net_step: "3us" efficiency: 1 } )";
  for (const auto& [collective, algorithm] :
       std::vector<std::pair<std::string, std::string>>{{"alltoall", "ring"},
                                                        {"allreduce", "nvls"},
                                                        {"allreduce", "hierarchical"},
                                                        {"allgather", "dimensional"},
                                                        {"allreduce", "direct"}}) {
    EXPECT_EQ(
        error_of(mpi_block + "algorithm { collective: \"" + collective + "\" algorithm: \"" + algorithm + "\" } }"),
        "spec.textproto: library.algorithm[0]: " + algorithm + " cannot be a library's own algorithm for " +
            collective + " (one that runs it on any topology, from one thread)");
  }
  EXPECT_EQ(error_of(mpi_block + R"(algorithm { collective: "allreduce" algorithm: "ring" }
      algorithm { collective: "allreduce" algorithm: "tree" } })"),
            "spec.textproto: library.algorithm[1]: collective allreduce is given twice");
  EXPECT_NE(error_of(mpi_block + R"(algorithm { collective: "allreduce" algorithm: "fast" } })")
                .find("spec.textproto: library.algorithm[0].algorithm: unknown algorithm 'fast'"),
            std::string::npos);
  EXPECT_EQ(error_of(ring + R"( library { name: "ideal" algorithm { collective: "allreduce" algorithm: "ring" } })"),
            "spec.textproto: library.algorithm: the ideal library runs no algorithm of its own");
  EXPECT_EQ(
      error_of(mpi_block + R"(estimate { name: "mpi" protocols { protocol: SIMPLE call_latency: "5us" nvlink_step: "1us"
      pcie_step: "1us" net_step: "3us" efficiency: 1 }
      algorithm { collective: "allreduce" algorithm: "ring" } } })"),
      "spec.textproto: library.estimate.algorithm: an estimate ranks; the library's own algorithms are the "
      "library's");
}

TEST(LibrarySpec, LibraryFile) {
  const std::string path = std::string(COMMSIM_TEST_TMP_DIR) + "/gloo-like.textproto";
  std::ofstream(path) << R"(name: "tcp" protocols { protocol: SIMPLE call_latency: "30us" nvlink_step: "5us"
      pcie_step: "5us" net_step: "25us" efficiency: 0.8 })";
  const LibraryProfile p = load_library_file(path);
  EXPECT_EQ(p.name, "tcp");
  EXPECT_EQ(p.costs(std::nullopt).step_latency(LinkClass::kNet), ps_from_us(25));
  EXPECT_THROW(load_library_file("/nonexistent/lib.textproto"), InputError);
}

}  // namespace
}  // namespace commsim
