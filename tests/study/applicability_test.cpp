// The one table of collectives x algorithms (base/collectives.h) ties the simulator to the
// closed form: every pair the simulator accepts on a topology has a finite closed form and
// bound, and every pair outside the table is refused by both.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/simulate.h"
#include "model/collective_model.h"
#include "study/collective_study.h"
#include "topology/builders.h"

namespace commsim {
namespace {

// One topology of every kind, small, with in-switch reduction where a kind can have it.
std::vector<Topology> topologies() {
  std::vector<TopologyConfig> configs;
  const auto add = [&](TopologyKind kind, auto&& shape) {
    TopologyConfig c;
    c.kind = kind;
    shape(c);
    configs.push_back(c);
  };
  add(TopologyKind::kRing, [](TopologyConfig& c) { c.npus = 5; });
  add(TopologyKind::kSwitch, [](TopologyConfig& c) { c.npus = 6; });
  add(TopologyKind::kSwitch, [](TopologyConfig& c) { c.nvls = true; });
  add(TopologyKind::kFullyConnected, [](TopologyConfig& c) { c.npus = 4; });
  add(TopologyKind::kTree, [](TopologyConfig& c) { c.npus = 8; });
  add(TopologyKind::kHierarchical, [](TopologyConfig& c) { c.gpus_per_node = 4; });
  add(TopologyKind::kHierarchical, [](TopologyConfig& c) {
    c.gpus_per_node = 4;
    c.nvls = true;
  });
  add(TopologyKind::kMesh, [](TopologyConfig& c) { c.dims = {2, 3}; });
  add(TopologyKind::kTorus, [](TopologyConfig& c) { c.dims = {3, 3}; });
  std::vector<Topology> built;
  for (const TopologyConfig& c : configs) built.push_back(build_topology(c));
  return built;
}

TEST(Applicability, EveryPairTheSimulatorAcceptsHasAClosedForm) {
  CollectiveStudyOptions options;
  options.library = library_by_name("nccl", "test");  // has in-switch costs for nvls
  std::set<std::pair<AlgorithmKind, CollectiveKind>> accepted;
  for (const Topology& t : topologies()) {
    for (const CollectiveKind kind : all_collectives()) {
      for (const AlgorithmKind a : all_algorithms()) {
        if (inapplicable_reason(kind, a, t)) continue;
        accepted.insert({a, kind});
        SCOPED_TRACE(t.name() + " " + std::string(algorithm_name(a)) + " " + std::string(collective_name(kind)));
        const Bytes size = nccl_size(kind, 1 << 20, t.npu_count());
        const CollectivePoint p = run_collective_point(t, kind, a, size, options);
        EXPECT_TRUE(std::isfinite(p.model_s) && p.model_s > 0) << p.model_s;
        EXPECT_TRUE(std::isfinite(p.bound_s) && p.bound_s > 0) << p.bound_s;
        EXPECT_GT(p.sim_ps, 0);
        EXPECT_FALSE(p.cost.formula.empty());
      }
    }
  }
  // Every pair of the table ran on some topology above.
  for (const AlgorithmKind a : all_algorithms()) {
    for (const CollectiveKind kind : implemented_collectives(a)) {
      EXPECT_TRUE(accepted.count({a, kind})) << algorithm_name(a) << " " << collective_name(kind) << " never ran";
    }
  }
}

TEST(Applicability, PairsOutsideTheTableAreRefusedByBoth) {
  const Topology t = build_topology(TopologyConfig{});  // a switch, where direct applies too
  for (const CollectiveKind kind : all_collectives()) {
    for (const AlgorithmKind a : all_algorithms()) {
      if (implements(a, kind)) continue;
      SCOPED_TRACE(std::string(algorithm_name(a)) + " " + std::string(collective_name(kind)));
      EXPECT_TRUE(inapplicable_reason(kind, a, t));
      EXPECT_THROW(simulate_collective(t, kind, a, 1024, {}), InputError);
      EXPECT_THROW(collective_cost(t, kind, a, 1024, {}), InputError);
    }
  }
}

TEST(Applicability, EveryAlgorithmImplementsSomething) {
  for (const AlgorithmKind a : all_algorithms()) {
    EXPECT_FALSE(implemented_collectives(a).empty()) << algorithm_name(a);
    for (const CollectiveKind kind : implemented_collectives(a)) EXPECT_TRUE(implements(a, kind));
  }
  EXPECT_EQ(collective_names(implemented_collectives(AlgorithmKind::kBruck)), "allgather, alltoall");
}

}  // namespace
}  // namespace commsim
