#include "topology/spec_message.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/error.h"
#include "base/text_proto.h"
#include "topology/presets.h"

namespace commsim {
namespace {

namespace pb = commsim::spec;

// Exact, in microseconds: TimePs is whole picoseconds, six decimals of a microsecond
// ("6.6us", "18.586832us").
std::string time_text(TimePs t) {
  std::string fraction = std::to_string(kPsPerUs + t % kPsPerUs).substr(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return std::to_string(t / kPsPerUs) + (fraction.empty() ? "" : "." + fraction) + "us";
}

// 9 significant digits, as the rates are written.
double rounded(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return std::strtod(text, nullptr);
}

std::string bandwidth_text(BandwidthBps rate) {
  char text[48];
  std::snprintf(text, sizeof text, "%.9gGB/s", rate / kBytesPerGB);
  return text;
}

pb::Protocol protocol_message(Protocol protocol) {
  switch (protocol) {
    case Protocol::kLL: return pb::LL;
    case Protocol::kLL128: return pb::LL128;
    case Protocol::kSimple: return pb::SIMPLE;
  }
  return pb::PROTOCOL_UNSPECIFIED;
}

void fill_costs(const ProtocolCosts& c, pb::ProtocolSpec& out) {
  out.set_call_latency(time_text(c.call_latency_ps));
  out.set_nvlink_step(time_text(c.step_latency(LinkClass::kNvlink)));
  out.set_pcie_step(time_text(c.step_latency(LinkClass::kPcie)));
  out.set_net_step(time_text(c.step_latency(LinkClass::kNet)));
  out.set_efficiency(rounded(c.efficiency));
  if (std::isfinite(c.max_rate_Bps)) out.set_max_bandwidth(bandwidth_text(c.max_rate_Bps));
  if (c.loop_chunk_bytes > 0) out.set_loop_chunk(std::to_string(c.loop_chunk_bytes) + "B");
}

void fill_p2p(const P2pChannels& c, pb::P2pSpec& out) {
  out.set_min_channels(c.min_channels);
  out.set_max_channels(c.max_channels);
  out.set_max_bytes_per_channel(std::to_string(c.max_bytes_per_channel) + "B");
  out.set_net_peer_channels(c.net_peer_channels);
  const auto rate = [&](LinkClass k) {
    const BandwidthBps r = c.channel_rate_Bps[static_cast<int>(k)];
    return std::isfinite(r) ? bandwidth_text(r) : std::string();
  };
  out.set_nvlink_channel_rate(rate(LinkClass::kNvlink));
  out.set_pcie_channel_rate(rate(LinkClass::kPcie));
  out.set_net_channel_rate(rate(LinkClass::kNet));
  if (std::isfinite(c.net_peer_rate_Bps)) out.set_net_peer_rate(bandwidth_text(c.net_peer_rate_Bps));
  if (c.ll_max_bytes_per_channel > 0) out.set_ll_max_bytes_per_channel(std::to_string(c.ll_max_bytes_per_channel) + "B");
  out.set_communicator_channels(c.communicator_channels);
  if (c.min_bytes_per_channel > 0) out.set_min_bytes_per_channel(std::to_string(c.min_bytes_per_channel) + "B");
}

void scale(pb::LinkSpec& link, const std::array<double, 3>& factor_by_class) {
  if (link.bandwidth().empty()) return;
  const double factor = factor_by_class[static_cast<int>(link_class(link_kind(link.kind())))];
  if (factor == 1) return;
  link.set_bandwidth(bandwidth_text(parse_bandwidth(link.bandwidth(), "bandwidth") * factor));
}

}  // namespace

LinkKind link_kind(pb::LinkKind kind) {
  switch (kind) {
    case pb::NVLINK: return LinkKind::kNvlink;
    case pb::PCIE: return LinkKind::kPcie;
    case pb::INFINIBAND: return LinkKind::kInfiniband;
    case pb::ETHERNET: return LinkKind::kEthernet;
    default: return LinkKind::kOther;
  }
}

bool is_json_spec_path(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

pb::TopologySpec parse_spec_message(const std::string& text, const std::string& origin, bool json) {
  pb::TopologySpec spec;
  if (json) {
    parse_json_proto(text, spec, origin, "invalid JSON topology spec");
  } else {
    parse_text_proto(text, spec, origin);
  }
  return spec;
}

pb::TopologySpec read_spec_message(const std::string& path) {
  return parse_spec_message(read_topology_spec_text(path), path, is_json_spec_path(path));
}

pb::LibrarySpec library_message(const LibraryProfile& profile) {
  pb::LibrarySpec out;
  out.set_name(profile.name);
  for (const auto& [protocol, costs] : profile.protocols) {
    pb::ProtocolSpec& p = *out.add_protocols();
    p.set_protocol(protocol_message(protocol));
    fill_costs(costs, p);
  }
  for (const auto& [protocol, costs] : profile.tree) {
    pb::ProtocolSpec& p = *out.add_tree();
    p.set_protocol(protocol_message(protocol));
    fill_costs(costs, p);
  }
  if (profile.in_switch) {
    out.mutable_in_switch()->set_protocol(pb::SIMPLE);
    fill_costs(*profile.in_switch, *out.mutable_in_switch());
  }
  if (profile.p2p) fill_p2p(*profile.p2p, *out.mutable_p2p());
  const auto add_factors = [](const auto& factors, auto* specs, bool one_node = false) {
    for (const auto& [kind, factor] : factors) {
      pb::CollectiveBandwidthSpec& c = *specs->Add();
      c.set_collective(std::string(collective_name(kind)));
      c.set_factor(rounded(factor));
      if (one_node) c.set_one_node(true);
    }
  };
  add_factors(profile.collective_bandwidth, out.mutable_collective_bandwidth());
  add_factors(profile.collective_bandwidth_one_node, out.mutable_collective_bandwidth(), true);
  add_factors(profile.ll_share, out.mutable_ll_share());
  if (profile.launch_ps > 0) out.set_launch(time_text(profile.launch_ps));
  const ThreadLaunch& launch = profile.thread_launch;
  if (launch.per_call_ps > 0) out.set_thread_launch(time_text(launch.per_call_ps));
  if (launch.per_gpu_ps > 0) out.set_thread_launch_per_gpu(time_text(launch.per_gpu_ps));
  if (launch.per_channel_ps > 0) out.set_thread_launch_per_channel(time_text(launch.per_channel_ps));
  if (profile.collective_channels > 0) out.set_collective_channels(profile.collective_channels);
  if (profile.nvls_channels > 0) out.set_nvls_channels(profile.nvls_channels);
  if (profile.gpus_per_thread > 0) out.set_gpus_per_thread(static_cast<std::uint32_t>(profile.gpus_per_thread));
  if (std::isfinite(profile.net_channel_rate_Bps))
    out.set_net_channel_rate(bandwidth_text(profile.net_channel_rate_Bps));
  if (std::isfinite(profile.nvls_tree_net_rate_Bps))
    out.set_nvls_tree_net_rate(bandwidth_text(profile.nvls_tree_net_rate_Bps));
  for (const auto& [kind, algorithm] : profile.own_algorithms) {
    pb::CollectiveAlgorithmSpec& entry = *out.add_algorithm();
    entry.set_collective(std::string(collective_name(kind)));
    entry.set_algorithm(std::string(algorithm_name(algorithm)));
  }
  for (const SizeRatio& point : profile.one_node_ramp) {
    pb::SizeRatioSpec& r = *out.add_one_node_ramp();
    r.set_size(std::to_string(point.bytes) + "B");
    r.set_ratio(rounded(point.ratio));
  }
  if (profile.estimate) {  // its costs alone: the channels a send runs on are the profile's
    *out.mutable_estimate() = library_message(*profile.estimate);
    out.mutable_estimate()->clear_p2p();
    out.mutable_estimate()->clear_collective_bandwidth();
    out.mutable_estimate()->clear_launch();
    out.mutable_estimate()->clear_thread_launch();
    out.mutable_estimate()->clear_thread_launch_per_gpu();
    out.mutable_estimate()->clear_thread_launch_per_channel();
    out.mutable_estimate()->clear_collective_channels();
    out.mutable_estimate()->clear_nvls_channels();
    out.mutable_estimate()->clear_gpus_per_thread();
    out.mutable_estimate()->clear_net_channel_rate();
    out.mutable_estimate()->clear_one_node_ramp();
    out.mutable_estimate()->clear_algorithm();
  }
  return out;
}

void scale_link_bandwidths(pb::TopologySpec& spec, const std::array<double, 3>& factor_by_class) {
  if (spec.has_builder()) {
    if (spec.builder().has_link()) scale(*spec.mutable_builder()->mutable_link(), factor_by_class);
    if (spec.builder().has_nic()) scale(*spec.mutable_builder()->mutable_nic(), factor_by_class);
  }
  if (spec.has_graph()) {
    for (pb::ExplicitLinkSpec& l : *spec.mutable_graph()->mutable_links()) scale(*l.mutable_link(), factor_by_class);
  }
}

void set_both_ways_efficiency(pb::TopologySpec& spec, double efficiency) {
  const auto set = [&](pb::LinkSpec& link) {
    if (link.duplex() == pb::HALF) link.set_both_ways_efficiency(rounded(efficiency));
  };
  if (spec.has_builder()) {
    if (spec.builder().has_link()) set(*spec.mutable_builder()->mutable_link());
    if (spec.builder().has_nic()) set(*spec.mutable_builder()->mutable_nic());
  }
  if (spec.has_graph()) {
    for (pb::ExplicitLinkSpec& l : *spec.mutable_graph()->mutable_links()) set(*l.mutable_link());
  }
}

std::string spec_text(const pb::TopologySpec& spec) {
  return "# proto-file: proto/topology.proto\n# proto-message: commsim.spec.TopologySpec\n" + print_text_proto(spec);
}

}  // namespace commsim
