// Flow-level network throughput on the patterns of `commsim p2p`.

#include <benchmark/benchmark.h>

#include "network/concurrent_messages.h"
#include "topology/builders.h"

namespace commsim {
namespace {

// Every rank of an N-ring sends 1 MiB to its neighbour at once.
void BM_RingShift1(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = static_cast<std::uint32_t>(state.range(0));
  const Topology t = build_topology(c);
  std::vector<Message> messages;
  for (Rank r = 0; r < c.npus; ++r) messages.push_back({r, (r + 1) % c.npus, 1 << 20});
  for (auto _ : state) benchmark::DoNotOptimize(simulate_concurrent_messages(t, 0, messages));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RingShift1)->Arg(1024)->Arg(8192)->Unit(benchmark::kMillisecond);

// Every rank of a switch sends to every other at once: N(N-1) flows sharing 2N channels.
void BM_SwitchAllToAllFlows(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = static_cast<std::uint32_t>(state.range(0));
  const Topology t = build_topology(c);
  std::vector<Message> messages;
  for (Rank a = 0; a < c.npus; ++a) {
    for (Rank b = 0; b < c.npus; ++b) {
      if (a != b) messages.push_back({a, b, 1 << 20});
    }
  }
  for (auto _ : state) benchmark::DoNotOptimize(simulate_concurrent_messages(t, 0, messages));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(messages.size()));
}
BENCHMARK(BM_SwitchAllToAllFlows)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

// Shift traffic on a 3-D torus: routes cross, so rates differ and flows finish apart.
void BM_TorusShift(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kTorus;
  c.dims = {8, 8, 8};
  const Topology t = build_topology(c);
  std::vector<Message> messages;
  for (Rank r = 0; r < 512; ++r) messages.push_back({r, (r + 73) % 512, (1u << 20) + r * 4096});
  for (auto _ : state) benchmark::DoNotOptimize(simulate_concurrent_messages(t, 0, messages));
  state.SetItemsProcessed(state.iterations() * 512);
}
BENCHMARK(BM_TorusShift)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace commsim
