#pragma once
// The closed-form model's plans: an algorithm as a list of phases, each a list of steps in
// which every participating rank sends messages at once, with its alpha, beta and gamma
// counts. collective_model.cpp evaluates a plan's phases on a topology.
// Phases and their evaluation on the topology.
//
// A phase is a list of steps; in a step every participating rank sends messages at once.
// Message sizes are in units of n (the nccl-tests size), so a phase's beta_s_per_byte does
// not depend on n (and is defined for n = 0).


#include <bit>
#include <cstddef>
#include <string>
#include <vector>

#include "base/collectives.h"
#include "model/collective_model.h"
#include "topology/topology.h"

namespace commsim::model {

using Kind = CollectiveKind;
using Algo = AlgorithmKind;

struct Send {
  Rank src;
  Rank dst;
  double units;  // bytes / n
};

struct Step {
  std::vector<Send> sends;
  double repeat = 1;     // the phase runs this step `repeat` times in a row
  bool by_link = false;  // also bound by the busiest link of the sends' routes
  bool by_nic = false;   // also bound by the busiest NIC (an NPU's network link) of the routes
};

struct Phase {
  std::string label;
  double alpha_count = 0;
  double beta_n = 0;   // critical-path bytes / n
  double gamma_n = 0;  // reduced bytes / n
  std::vector<Step> steps = {};
  bool chain = false;  // a chain level: its steps are its hops in order (evaluate_chains)
  std::size_t lane = 0;  // chains of different lanes run at once (two directions, channels)
  bool channel_rates = false;  // each lane at its channel's fixed rate (NCCL's Broadcast and
                               // Reduce chains): every hop of every lane shares the links at
                               // once, as when the pipeline is full; else (a ring's two mirrored
                               // directions) lanes keep in step and share them hop by hop
};

/// NCCL's tree AllReduce as it runs (nccl_tree; collective/tree.h): trees at once, each at
/// its channel's fixed rate, every edge moving `units` of n a chunk up to the parent and then
/// down from it (Evaluator::evaluate_trees).
struct PipelinedTrees {
  struct Edge {
    Rank child, parent;
  };
  std::vector<std::vector<Edge>> trees;  // each tree's edges
  double units = 0;                      // a chunk of one tree's share: bytes / n
};

struct Plan {
  std::vector<Phase> phases;
  std::string formula;
  bool pipelined = false;  // the phases hold the pipeline of ModelOptions::chunks themselves
  /// The flows a rank runs at once for the call (rings, chains, trees, directions): they
  /// share the protocol's rate cap, which is the call's (NCCL's llMaxBw caps a call's bus
  /// bandwidth, all its channels together).
  std::size_t channels = 1;
  PipelinedTrees pipelined_trees = {};  // NCCL's tree as it runs, in place of phases
};

inline unsigned ceil_log2(std::size_t p) { return p <= 1 ? 0 : std::bit_width(p - 1); }
inline unsigned floor_log2(std::size_t p) { return std::bit_width(p) - 1; }
inline Rank rank(std::size_t r) { return static_cast<Rank>(r); }

/// The algorithm's phases on `t`. Precondition: implements(algorithm, kind) (base/collectives.h).
Plan plan(const Topology& t, Kind kind, Algo algorithm, const ModelOptions& o);

// One per family (algorithm_plans.cpp, level_plans.cpp).
Plan levels_plan(const Topology& t, Kind kind, Algo algorithm, const ModelOptions& o);
Plan binomial(std::size_t p, Rank root, bool reduce);
Plan double_binary_tree(std::size_t p);
Plan nccl_tree(std::size_t p, std::size_t node_gpus, std::size_t trees, std::size_t chunks, bool estimate = false);
Plan recursive(Kind kind, Algo algorithm, std::size_t p);
Plan direct_plan(Kind kind, std::size_t p);
Plan pairwise(std::size_t p);
Plan bruck(Kind kind, std::size_t p);
Plan dissemination(std::size_t p);

}  // namespace commsim::model
