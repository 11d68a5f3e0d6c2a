// Building topologies and what `commsim topo` reports of them: a fully-connected topology
// of N NPUs has N(N-1)/2 links (2.1 M at 2,048), its diameter a closed form.

#include <benchmark/benchmark.h>

#include "topology/builders.h"

namespace commsim {
namespace {

void BM_FullyConnectedTopology(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kFullyConnected;
  c.npus = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    const Topology t = build_topology(c);
    benchmark::DoNotOptimize(t.diameter_hops());
  }
  state.counters["links"] = static_cast<double>(c.npus) * (c.npus - 1) / 2;
}
BENCHMARK(BM_FullyConnectedTopology)->Arg(512)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace commsim
