#pragma once
// The topology a group of NPUs spans: the same graph, links and library, with the group's
// NPUs as the only NPUs (member i becomes NPU i) and every other vertex, other NPUs included,
// a forwarding vertex. The closed form of a collective among the group (model/) then sees
// the links the group's routes use: a tensor-parallel group inside a node NVLink, a
// data-parallel group across nodes the NICs. Routes are shortest paths (a grid's
// dimension-order routing is not kept), so on a torus a group's routes may differ from the
// whole topology's. A group of equal blocks of GPUs, one block on each of several nodes of
// a hierarchical topology, is hierarchical (that many GPUs a node); any other has no shape.

#include <vector>

#include "topology/topology.h"

namespace commsim {

/// Throws InputError for fewer than one member, a member that is not an NPU of `topology`,
/// or a member given twice.
Topology group_topology(const Topology& topology, const std::vector<Rank>& members);

}  // namespace commsim
