#pragma once
// A physical link's parameters (DESIGN.md section 3, "Links").

#include <optional>
#include <string>
#include <string_view>

#include "base/units.h"

namespace commsim {

enum class LinkKind { kNvlink, kPcie, kInfiniband, kEthernet, kOther };

/// Full duplex: two directed channels, each with the link's bandwidth.
/// Half duplex: both directions share one capacity.
enum class Duplex { kFull, kHalf };

struct LinkParams {
  BandwidthBps bandwidth_Bps = 0;  // per direction (full duplex) or shared (half duplex)
  TimePs latency_ps = 0;
  LinkKind kind = LinkKind::kOther;
  Duplex duplex = Duplex::kFull;
  /// Half duplex: the share of `bandwidth_Bps` left while flows cross the link in both
  /// directions at once, in (0, 1]. A medium that turns around (a shared bus, GPU traffic
  /// staged through host memory, which NCCL's SHM transport does without peer access) moves
  /// less both ways together than one way alone.
  double both_ways_efficiency = 1;
};

/// NCCL's hardware classes of a communication step (topology/library.h): a route is in the
/// class of its slowest kind of link, network over PCIe over NVLink.
enum class LinkClass { kNvlink = 0, kPcie = 1, kNet = 2 };
/// Other (unknown) hardware counts as NVLink, the class that adds least.
LinkClass link_class(LinkKind kind);
std::string_view link_class_name(LinkClass c);  // "nvlink", "pcie", "net"

std::string_view link_kind_name(LinkKind kind);
/// InputError "<what>: unknown link kind 'x' (known: ...)" for a name not in the list.
LinkKind parse_link_kind(std::string_view name, std::string_view what);
std::string_view duplex_name(Duplex duplex);
std::optional<Duplex> duplex_from_name(std::string_view name);

}  // namespace commsim
