#pragma once
// Graphviz DOT export of a topology (Boost.Graph's write_graphviz): NPUs as boxes, switches
// as ellipses, each link labelled with its bandwidth, latency and kind.

#include <ostream>

#include "topology/topology.h"

namespace commsim {

void write_dot(std::ostream& out, const Topology& topology);

}  // namespace commsim
