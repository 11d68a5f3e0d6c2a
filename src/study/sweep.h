#pragma once
// A sweep: the cross product of topologies (kinds x sizes), library profiles, collectives,
// algorithms and message sizes, each point a collective study point (study/collective_study.h)
// on its own topology. Points are numbered in a fixed order, so a sweep's output does not
// depend on threads or shards: topology, then library, rank order, collective, algorithm,
// size.
//
// Every row carries every parameter that made it, so rows of different sweeps can be
// concatenated, and `commsim collective --csv` writes the same rows for its own points.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "study/collective_study.h"
#include "topology/builders.h"

namespace commsim {

struct SweepPlan {
  std::vector<TopologyConfig> topologies;  // in order; each point builds its own
  std::vector<LibraryProfile> libraries;
  /// Where ranks run (topology/placement.h parse_rank_order): "linear", "random:SEED", or a
  /// file naming an NPU per rank.
  std::vector<std::string> rank_orders{"linear"};
  std::vector<CollectiveKind> collectives;
  /// Names: an algorithm, "all" (every one that applies) or "nccl" (NCCL's choice per size).
  std::vector<std::string> algorithms;
  std::vector<Bytes> sizes;  // requested; each collective rounds them as nccl-tests does
  CollectiveConfig run;      // overhead, chunks, gamma, ...; library and channels per point
};

struct SweepPoint {
  std::size_t index = 0;  // in the unsharded sweep
  std::size_t topology = 0;
  std::size_t library = 0;
  std::size_t rank_order = 0;
  CollectiveKind kind = CollectiveKind::kAllReduce;
  AlgorithmChoice algorithm;
  Bytes size = 0;
};

/// Every point, in order; algorithms that do not apply to a topology and collective are left
/// out (an algorithm named explicitly that applies nowhere is an InputError), and so are
/// topologies of one NPU. Throws InputError on an empty list, or a rank order that does not
/// fit a topology.
std::vector<SweepPoint> sweep_points(const SweepPlan& plan);

/// Runs one point on a topology built for it (so points may run on several threads).
CollectivePoint run_sweep_point(const SweepPlan& plan, const SweepPoint& point);

/// What a row says about its topology: kind ("graph" for an explicit one), NPUs, shape
/// ("4x4"; G x N for a hierarchical one; else the NPU count), and NPU 0's NPU link and NIC.
struct TopologyFacts {
  std::string name;
  std::string kind;
  std::size_t npus = 0;
  std::string shape;
  std::optional<LinkParams> link;
  std::optional<LinkParams> nic;
};
TopologyFacts topology_facts(const Topology& topology);

/// The CSV layout of sweep rows (and of `commsim collective --csv`).
std::string sweep_csv_header();
std::string sweep_csv_row(std::size_t index, const TopologyFacts& topology, const std::string& library,
                          const std::string& rank_order, CollectiveKind kind, const CollectivePoint& point);

/// The same row as one JSON object on one line (JSON Lines): the header's names as keys,
/// numbers as numbers, "-" as null.
std::string sweep_json_row(const std::string& csv_row);

/// Joins sweep CSV files (shards, or parts of a resumed sweep) into one, ordered by point
/// index: rows given twice must be identical. Throws InputError naming FILE:LINE on a file
/// that is not a sweep CSV or rows that disagree.
std::vector<std::string> merge_sweep_csv(const std::vector<std::string>& paths);

/// The point indices a sweep CSV already holds (empty if the file does not exist), for a
/// resumed sweep. Throws InputError if it exists and is not a sweep CSV.
std::vector<std::size_t> points_in_sweep_csv(const std::string& path);

}  // namespace commsim
