#pragma once
// Max-min fair rate allocation by progressive filling. Resources (directed channels, or
// half-duplex links) have capacities; each flow crosses a set of resources and may have
// its own rate cap. No engine dependency: the network asks it for rates.
//
// Progressive filling raises the rates of all unfrozen flows together. A resource r
// saturates when its remaining capacity c_r (capacity minus the rates of flows frozen
// earlier) equals n_r * s, where n_r is the number of unfrozen flows on it and s their
// common rate; so the next level is s = min_r c_r / n_r (or a flow cap, if smaller).
// Every flow crossing a saturated resource freezes at s. Repeat until all are frozen.
// The result is the unique allocation where no flow can gain without taking from a flow
// whose rate is no larger (Bertsekas & Gallager, Data Networks, section 6.5.2).
//
// Cost: O(L * R + total route length) for L distinct rate levels over R resources.
// Resources whose shares lie within a relative 1e-12 of the level saturate together, so
// symmetric flows get bit-identical rates.

#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace commsim {

/// A problem in compressed form: flow f crosses the resources
/// flow_resources[flow_begin[f] .. flow_begin[f+1]); only flows with a cap keep one (a
/// million-flow all-to-all has none that can bind: Network passes those as kNoCap).
class MaxMinProblem {
 public:
  static constexpr double kNoCap = std::numeric_limits<double>::infinity();
  struct CappedFlow {
    std::uint32_t flow;
    double cap_Bps;
  };

  void clear();
  /// Clears and returns the memory (after a problem much larger than the usual).
  void release_memory() { *this = MaxMinProblem(); }
  /// Returns the resource's index. Capacity in bytes per second, > 0.
  std::uint32_t add_resource(double capacity_Bps);
  /// Returns the flow's index. A flow must cross a resource or have a cap.
  std::uint32_t add_flow(std::span<const std::uint32_t> resources, double cap_Bps = kNoCap);

  std::size_t resource_count() const { return capacity_.size(); }
  std::size_t flow_count() const { return flow_begin_.size() - 1; }
  double capacity(std::uint32_t r) const { return capacity_[r]; }
  /// The flows with a finite cap, in flow order.
  const std::vector<CappedFlow>& capped() const { return capped_; }
  std::span<const std::uint32_t> resources_of(std::uint32_t f) const {
    return {flow_resources_.data() + flow_begin_[f], flow_begin_[f + 1] - flow_begin_[f]};
  }

 private:
  std::vector<double> capacity_;
  std::vector<std::uint32_t> flow_begin_{0};
  std::vector<std::uint32_t> flow_resources_;
  std::vector<CappedFlow> capped_;
};

/// Keeps its working memory between calls, so repeated solves do not allocate.
class MaxMinSolver {
 public:
  /// Rates in bytes per second, one per flow, valid until the next call.
  const std::vector<double>& solve(const MaxMinProblem& problem);
  /// Returns the working memory (after a problem much larger than the usual).
  void release_memory() { *this = MaxMinSolver(); }
  /// Returns the working memory but the rates of the last solve, which stay valid.
  void release_working_memory() {
    std::vector<double> rates = std::move(rate_);
    *this = MaxMinSolver();
    rate_ = std::move(rates);
  }

 private:
  std::vector<double> rate_;
  std::vector<double> remaining_;
  std::vector<std::uint32_t> unfrozen_on_;  // per resource
  std::vector<std::uint32_t> resource_begin_;
  std::vector<std::uint32_t> resource_flows_;
  std::vector<std::uint32_t> active_resources_;
  std::vector<std::uint32_t> newly_frozen_;
  std::vector<char> frozen_;
};

}  // namespace commsim
