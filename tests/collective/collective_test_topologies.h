#pragma once
// Topologies on which to run an algorithm over p ranks in tests.

#include "base/collectives.h"
#include "collective/simulate.h"
#include "topology/builders.h"

namespace commsim::testing {

/// The links of the hand-derived timing tests: 50 GB/s (20 ps per byte) and 300 ns, so a
/// route through a switch costs 600 ns and every transfer a whole number of picoseconds.
inline LinkParams test_link() { return {50e9, ps_from_ns(300), LinkKind::kNvlink, Duplex::kFull}; }

/// A switch, ring or fully-connected topology of such links.
inline Topology idle_topology(TopologyKind kind, std::uint32_t npus) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.link = test_link();
  return build_topology(c);
}

inline CollectiveResult simulate_on(TopologyKind kind, std::uint32_t npus, CollectiveKind collective,
                                    AlgorithmKind algorithm, Bytes size, CollectiveConfig config = {}) {
  return simulate_collective(idle_topology(kind, npus), collective, algorithm, size, config);
}

/// Smallest divisor of p above 1 (p itself if prime).
inline std::uint32_t smallest_factor(std::uint32_t p) {
  for (std::uint32_t f = 2; f * f <= p; ++f) {
    if (p % f == 0) return f;
  }
  return p;
}

/// A topology of p NPUs that the algorithm needs: hierarchical for `hierarchical`, a torus
/// for `dimensional`, otherwise a switch.
inline Topology topology_for(AlgorithmKind algorithm, std::uint32_t p, LinkParams link = default_npu_link()) {
  TopologyConfig c;
  c.link = link;
  if (algorithm == AlgorithmKind::kHierarchical) {
    c.kind = TopologyKind::kHierarchical;
    c.gpus_per_node = p % 4 == 0 ? 4 : smallest_factor(p);
    c.nodes = p / c.gpus_per_node;
  } else if (algorithm == AlgorithmKind::kDimensional) {
    c.kind = TopologyKind::kTorus;
    const std::uint32_t x = p % 4 == 0 ? 4 : smallest_factor(p);
    const std::uint32_t rest = p / x;
    const std::uint32_t y = rest % 4 == 0 && rest > 4 ? 4 : rest;
    c.dims = rest == y ? std::vector<std::uint32_t>{x, y} : std::vector<std::uint32_t>{x, y, rest / y};
  } else {
    c.kind = TopologyKind::kSwitch;
    c.npus = p;
  }
  return build_topology(c);
}

}  // namespace commsim::testing
