// Trace replay at scale: one PyTorch DDP step on 512 GPUs (64 nodes x 8 on the hierarchical
// topology: NVSwitch inside a node, a 400 Gb/s NIC per GPU to one network switch), 100
// layers, 25 MiB buckets. The target of the workload issue: under 5 s.
//
// Each layer has 10 MiB of gradients (1000 MiB in all: ~262 M fp32 parameters), so a 25 MiB
// bucket closes at 3 layers (30 MiB): 34 AllReduces, each hierarchical (intra-node
// ReduceScatter, 8 inter-node rings of 64, intra-node AllGather).

#include <benchmark/benchmark.h>

#include "topology/builders.h"
#include "workload/generators.h"
#include "workload/replay.h"

namespace commsim {
namespace {

void BM_ReplayDdp512(benchmark::State& state) {
  TopologyConfig c;
  c.kind = TopologyKind::kHierarchical;
  c.nodes = 64;
  c.gpus_per_node = 8;
  const Topology topology = build_topology(c);
  DdpShape s;
  s.ranks = 512;
  s.layers = 100;
  s.forward_ps = ps_from_us(200);
  s.backward_ps = ps_from_us(400);
  s.layer_bytes = Bytes{10} << 20;
  s.bucket_bytes = Bytes{25} << 20;
  const Workload workload = generate_ddp(s);
  ReplayResult result;
  for (auto _ : state) {
    result = replay_workload(workload, topology, {});
    benchmark::DoNotOptimize(result.total_ps);
  }
  state.counters["buckets"] = static_cast<double>(ddp_buckets(s).size());
  state.counters["step_us"] = us_from_ps(result.total_ps);
  state.counters["exposed_comm_us"] = us_from_ps(result.ranks[0].exposed_comm_ps);
}
BENCHMARK(BM_ReplayDdp512)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace commsim
