#pragma once
// The topology a group of NPUs spans: the links its members' routes take (between every two
// members, both ways; every link for a group of more than 1,024) with the vertices they join
// and the library, the group's NPUs as the only NPUs (member i becomes NPU i) and every
// other vertex, other NPUs included, a forwarding vertex. The closed form of a collective
// among the group (model/) then sees the links the group's routes use: a tensor-parallel
// group inside a node NVLink, a data-parallel group across nodes the NICs; and a group of a
// large cluster is as small as its routes. Routes are fastest paths (a grid's dimension-order
// routing is not kept), so on a torus a group's routes may differ from the whole topology's.
// A group of equal blocks of GPUs, one block on each of several nodes of a hierarchical
// topology, is hierarchical (that many GPUs a node); any other has no shape.

#include <vector>

#include "topology/topology.h"

namespace commsim {

/// Throws InputError for fewer than one member, a member that is not an NPU of `topology`,
/// or a member given twice.
Topology group_topology(const Topology& topology, const std::vector<Rank>& members);

}  // namespace commsim
