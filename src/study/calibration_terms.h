#pragma once
// The terms `commsim calibrate` fits: what a library adds to the wire (topology/library.h)
// and how much of each class of link it sustains. On a given topology and library they are
//   bandwidth scale  per class of link present (NVLink, PCIe, network): every link of the
//                    class carries scale x its bandwidth
//   call latency     per protocol, us
//   step latency     per protocol and class of link present, us
//   efficiency       per protocol but the bulk one (the profile's last, NCCL's Simple, whose
//                    share of the link is the bandwidth scale): the share of the link that
//                    protocol's size regime sustains, LL's 1/2 and LL128's 120/128 to start
//   in-switch        call latency, step latencies and efficiency (a reducing switch only)
//   P2P channel rate per class of link present, GB/s (a library with P2P channels)
//   both-ways efficiency of the half-duplex links, if the topology has any
//   bandwidth factor per collective measured but the first (the reference, whose factor
//                    stays): what that collective sustains beside the reference's share
//                    (LibraryProfile::collective_bandwidth), when the rows hold several; for
//                    rows inside one NVLink node, the profile's factor for calls there where
//                    it has one (collective_bandwidth_one_node)
//   launch           the system's own cost per call, us, on every call alike
//                    (LibraryProfile::launch_ps): what an intercept common to all the rows
//                    goes to, rather than the library's own constants
// each with bounds that keep it physical: latencies >= 0, an efficiency in (0, 1], a scale
// within [0.1, 2] of the spec's bandwidth, a collective's factor within [0.1, 2].

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// What a calibration varies: a library profile and a bandwidth scale per class of link.
struct LibraryFit {
  LibraryProfile library;
  std::array<double, 3> bandwidth_scale{1, 1, 1};  // by LinkClass
  /// Of every half-duplex link (LinkParams::both_ways_efficiency); none: as the topology has.
  std::optional<double> both_ways_efficiency;
};

/// A collective whose bandwidth factor is fitted, and which of the profile's: that of calls
/// across nodes (LibraryProfile::collective_bandwidth), or, `one_node`, that of calls inside
/// one NVLink node (collective_bandwidth_one_node).
struct FactoredCollective {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  bool one_node = false;
  bool operator==(const FactoredCollective&) const = default;
};

/// One fitted number, in the unit it is shown in.
struct CalibrationTerm {
  std::string name;  // "simple nvlink step", "nvlink bandwidth scale"
  std::string unit;  // "us", "GB/s", "" for a ratio
  double lo = 0;
  double hi = 0;
  double scale = 1;  // a typical magnitude, for difference steps
  std::function<double(const LibraryFit&)> get;
  std::function<void(LibraryFit&, double)> set;
};

/// The terms of `fit` that the `topologies` the rows ran on can show: classes of link any
/// of them has, the in-switch terms only with a reducing switch, P2P rates only where the
/// profile limits them, a bandwidth factor for each of `factored` (collectives measured
/// beside the reference; each must be in the profile's list it names), and the thread's
/// launch per GPU and per channel when rows were `thread_driven` (nccl-tests -g G) and the
/// profile has such a cost.
std::vector<CalibrationTerm> calibration_terms(const std::vector<const Topology*>& topologies, const LibraryFit& fit,
                                               const std::vector<FactoredCollective>& factored, bool thread_driven);

}  // namespace commsim
