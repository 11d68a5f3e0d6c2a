#pragma once
// Switches that reduce in the fabric: NVIDIA's NVLink SHARP ("NVLS", third-generation
// NVSwitch and later). A GPU sends its data to the switch once; the switch adds what all
// GPUs sent (multimem.ld_reduce) and multicasts the result back (multimem.st), so an
// AllReduce moves about n bytes each way per GPU instead of a ring's 2(p-1)/p n.
// A spec marks such a switch (BuilderSpec.nvls, VertexSpec.reduces); the NPUs linked
// directly to one form its group.

#include <optional>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace commsim {

struct InSwitchGroup {
  VertexId switch_vertex = 0;
  std::vector<Rank> ranks;  // ascending
};

/// Each reducing switch with the NPUs linked directly to it (an NPU joins the first such
/// switch it is linked to), ordered by their lowest rank. Empty when no switch reduces.
std::vector<InSwitchGroup> in_switch_groups(const Topology& topology);
/// The same for the NPUs `members` of a communicator: each reducing switch with the members
/// among its NPUs, switches without members left out.
std::vector<InSwitchGroup> in_switch_groups(const Topology& topology, std::vector<Rank> members);

/// Why NVLS cannot run an AllReduce over all NPUs of `topology`, or nothing if it can:
///   across_nodes false (algorithm nvls): every NPU on one reducing switch;
///   across_nodes true (nvls-tree): every NPU on a reducing switch, at least two such
///   groups (nodes), all of one size.
std::optional<std::string> in_switch_unavailable(const Topology& topology, bool across_nodes);

}  // namespace commsim
