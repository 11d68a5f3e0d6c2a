// Whole collectives on the flow-level network, at the sizes of the published peer
// comparison (ASTRA-sim's analytical backend: 64 MiB ring AllReduce on 1024 and 2048 NPUs)
// and of the README's performance table: hierarchical AllReduce up to 2,048 nodes of 8 GPUs,
// direct AllToAll on a 1,024-NPU switch; and NCCL's pipelined tree across nodes of one GPU,
// whose flows share NICs up and down the tree (one max-min component of thousands of flows).

#include <benchmark/benchmark.h>

#include "allocation_counter.h"
#include "collective/simulate.h"
#include "topology/builders.h"

namespace commsim {
namespace {

void run(benchmark::State& state, TopologyConfig config, CollectiveKind kind, AlgorithmKind algorithm,
         Bytes size = 64 << 20, const CollectiveConfig& collective = {}) {
  const Topology topology = build_topology(config);
  std::uint64_t messages = 0;
  std::uint64_t allocations = 0;
  for (auto _ : state) {
    const std::uint64_t allocations_before = heap_allocations();
    const CollectiveResult r = simulate_collective(topology, kind, algorithm, size, collective);
    allocations = heap_allocations() - allocations_before;
    messages = r.messages;
    benchmark::DoNotOptimize(r.time_ps);
  }
  state.counters["messages"] = static_cast<double>(messages);
  // Set-up (the schedule, the runner's and the network's tables, routes) allocates; a
  // message should not.
  state.counters["allocations"] = static_cast<double>(allocations);
  state.counters["allocations_per_message"] = static_cast<double>(allocations) / static_cast<double>(messages);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(messages));
}

void BM_RingAllReduce64MiB(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kRing;
  c.npus = static_cast<std::uint32_t>(state.range(0));
  run(state, c, CollectiveKind::kAllReduce, AlgorithmKind::kRing);
}
BENCHMARK(BM_RingAllReduce64MiB)->Arg(256)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_HierarchicalAllReduce64MiB(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = static_cast<std::uint32_t>(state.range(0));
  c.gpus_per_node = 8;
  run(state, c, CollectiveKind::kAllReduce, AlgorithmKind::kHierarchical);
}
BENCHMARK(BM_HierarchicalAllReduce64MiB)->Arg(256)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_DirectAllToAll64MiB(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kSwitch;
  c.npus = static_cast<std::uint32_t>(state.range(0));
  run(state, c, CollectiveKind::kAllToAll, AlgorithmKind::kDirect);
}
BENCHMARK(BM_DirectAllToAll64MiB)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);

// 2 GiB in 256 chunks over nodes of one GPU and one NIC: 2 trees x (N - 1) edges x 2 ways x
// 256 chunks of flows, each rated as it starts and ends beside its neighbours up and down.
void BM_PipelinedTreeAllReduce2GiB(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = static_cast<std::uint32_t>(state.range(0));
  c.gpus_per_node = 1;
  CollectiveConfig tree;
  tree.chunks = 256;
  tree.tree_node_gpus = 1;
  run(state, c, CollectiveKind::kAllReduce, AlgorithmKind::kTree, Bytes{2} << 30, tree);
}
BENCHMARK(BM_PipelinedTreeAllReduce2GiB)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace commsim
