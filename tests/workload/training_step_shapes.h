#pragma once
// Shapes and topologies the training-step tests share.

#include <algorithm>
#include <stdexcept>
#include <string>

#include "topology/builders.h"
#include "workload/replay.h"
#include "workload/training_step.h"

namespace commsim::testing {

inline Topology built(TopologyKind kind, std::uint32_t npus, BandwidthBps bandwidth, TimePs latency) {
  TopologyConfig c;
  c.kind = kind;
  c.npus = npus;
  c.link = {bandwidth, latency, LinkKind::kOther, Duplex::kFull};
  return build_topology(c);
}

inline ReplayOptions ring_algorithms() {
  ReplayOptions o;
  for (const CollectiveKind k :
       {CollectiveKind::kAllReduce, CollectiveKind::kAllGather, CollectiveKind::kReduceScatter}) {
    o.algorithms[k] = AlgorithmKind::kRing;
  }
  return o;
}

/// Every stage computes `forward` and `backward` per micro-batch; interleaved has 2 chunks.
inline PipelineShape pipeline(PipelineSchedule schedule, std::uint32_t stages, std::uint32_t microbatches,
                              TimePs forward, TimePs backward, Bytes activation) {
  PipelineShape s;
  s.schedule = schedule;
  s.stages = stages;
  s.microbatches = microbatches;
  s.virtual_stages = schedule == PipelineSchedule::kInterleaved ? 2 : 1;
  s.forward_ps.assign(stages, forward);
  s.backward_ps.assign(stages, backward);
  s.activation_bytes = activation;
  return s;
}

// `ranks` single-stage pipelines {0}, {1}, ... and one family "dp" of all of them: data
// parallelism alone.
inline TrainingStepShape data_parallel(std::uint32_t ranks, const PipelineShape& one_stage) {
  TrainingStepShape s;
  s.ranks = ranks;
  s.pipeline = one_stage;
  s.families = {{"dp", {{}}}};
  for (Rank r = 0; r < ranks; ++r) {
    s.pipelines.push_back({r});
    s.families[0].groups[0].push_back(r);
  }
  return s;
}

/// The node of `rank` called `name`.
inline const WorkloadNode& named(const RankTrace& rank, const std::string& name) {
  const auto it =
      std::find_if(rank.nodes.begin(), rank.nodes.end(), [&](const WorkloadNode& n) { return n.name == name; });
  if (it == rank.nodes.end()) throw std::runtime_error("no node " + name);
  return *it;
}

}  // namespace commsim::testing
