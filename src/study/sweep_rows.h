#pragma once
// The rows of a sweep, as CSV and as JSON Lines. Two layouts, told apart by their headers:
// collective rows (commsim sweep, commsim collective --csv) and pipeline rows (commsim sweep
// --pipeline, commsim pipeline --csv). Every row carries every parameter that made it, so
// rows of different sweeps of one layout can be concatenated.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "study/collective_study.h"
#include "study/pipeline_study.h"
#include "topology/topology.h"

namespace commsim {

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

/// How a point ran, beside its topology: the library profile, where ranks ran and the
/// overhead o per operation.
struct SweepRowSetting {
  std::string library = "ideal";
  std::string rank_order = "linear";
  TimePs overhead_ps = 0;
};

/// The collective layout.
std::string sweep_csv_header();
std::string sweep_csv_row(std::size_t index, const TopologyFacts& topology, const SweepRowSetting& setting,
                          CollectiveKind kind, const CollectivePoint& point);

/// The pipeline layout: one run of `shape` (its stage 0's forward and backward times) under
/// `protocol`. A deadlocked run has no row.
std::string pipeline_csv_header();
std::string pipeline_csv_row(std::size_t index, const TopologyFacts& topology, const SweepRowSetting& setting,
                             const PipelineShape& shape, const std::optional<Protocol>& protocol,
                             const PipelineRun& run);

/// The layout `header` is the header of; InputError naming `where` if neither.
enum class SweepLayout { kCollective, kPipeline };
SweepLayout sweep_layout(const std::string& header, const std::string& where);
std::string sweep_layout_header(SweepLayout layout);

/// A row of either layout as one JSON object on one line (JSON Lines): the header's names as
/// keys, numbers as numbers, "-" as null.
std::string sweep_json_row(const std::string& header, const std::string& csv_row);

}  // namespace commsim
