#include "study/sweep_rows.h"

#include <sstream>

#include "base/error.h"
#include "report/table.h"
#include "study/text_table.h"
#include "topology/builders.h"

namespace commsim {
namespace {

std::string link_cell(const std::optional<LinkParams>& link, bool bandwidth) {
  if (!link) return "-";
  return bandwidth ? fixed(link->bandwidth_Bps / kBytesPerGB, 3) : fixed(us_from_ps(link->latency_ps), 3);
}

std::string shape_text(const Topology& t) {
  const auto& levels = t.shape().levels;
  if (levels.empty()) return std::to_string(t.npu_count());
  std::string text;
  for (const std::uint32_t l : levels) {
    if (!text.empty()) text += 'x';
    text += std::to_string(l);
  }
  return text;
}

// The cells both layouts start with: the point, its topology and its setting.
constexpr const char* kCommonColumns =
    "point,topology,kind,npus,shape,link_GBps,link_latency_us,nic_GBps,nic_latency_us,library,rank_order,overhead_us";

std::vector<std::string> common_cells(std::size_t index, const TopologyFacts& t, const SweepRowSetting& s) {
  return {std::to_string(index), t.name, t.kind, std::to_string(t.npus), t.shape, link_cell(t.link, true),
          link_cell(t.link, false), link_cell(t.nic, true), link_cell(t.nic, false), s.library, s.rank_order,
          fixed(us_from_ps(s.overhead_ps), 3)};
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::ostringstream row;
  write_csv_row(row, cells);
  std::string text = row.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

TopologyFacts topology_facts(const Topology& t) {
  TopologyFacts facts{t.name(), t.shape().kind ? std::string(topology_kind_name(*t.shape().kind)) : "graph",
                      t.npu_count(), shape_text(t), std::nullopt, std::nullopt};
  for (const Link& link : t.links()) {
    if (link.first != 0 && link.second != 0) continue;
    const bool network = link_class(link.params.kind) == LinkClass::kNet;
    std::optional<LinkParams>& slot = network ? facts.nic : facts.link;
    if (!slot) slot = link.params;
  }
  return facts;
}

std::string sweep_csv_header() {
  return std::string(kCommonColumns) +
         ",collective,algorithm,protocol,channels,size_bytes,sim_time_us,model_time_us,sim_over_model,lower_bound_us,"
         "algbw_GBps,busbw_GBps";
}

std::string sweep_csv_row(std::size_t index, const TopologyFacts& t, const SweepRowSetting& s, CollectiveKind kind,
                          const CollectivePoint& p) {
  std::vector<std::string> cells = common_cells(index, t, s);
  cells.insert(cells.end(), {std::string(collective_name(kind)), std::string(algorithm_name(p.algorithm)),
                             p.protocol ? std::string(protocol_name(*p.protocol)) : "-", std::to_string(p.channels),
                             std::to_string(p.size),
                             fixed(us_from_ps(p.sim_ps), 6), fixed(p.model_s * 1e6, 6),
                             p.sim_over_model ? fixed(*p.sim_over_model, 9) : "-", fixed(p.bound_s * 1e6, 6),
                             fixed(p.algbw_GBps, 6), fixed(p.busbw_GBps, 6)});
  return csv_line(cells);
}

std::string pipeline_csv_header() {
  return std::string(kCommonColumns) +
         ",schedule,p2p_mode,protocol,stages,microbatches,virtual_stages,forward_us,backward_us,activation_bytes,"
         "step_time_us,model_step_time_us,sim_over_model,bubble_fraction,model_bubble_fraction,p2p_wait_us,"
         "peak_activations";
}

std::string pipeline_csv_row(std::size_t index, const TopologyFacts& t, const SweepRowSetting& s,
                             const PipelineShape& shape, const std::optional<Protocol>& protocol, const PipelineRun& r) {
  COMMSIM_CHECK(r.deadlock.empty(), "a row of a deadlocked pipeline run");
  std::vector<std::string> cells = common_cells(index, t, s);
  cells.insert(cells.end(), {std::string(schedule_name(r.schedule)), std::string(p2p_mode_name(r.mode)),
                             protocol ? std::string(protocol_name(*protocol)) : "-", std::to_string(shape.stages),
                             std::to_string(shape.microbatches), std::to_string(r.virtual_stages),
                             fixed(us_from_ps(shape.forward_ps.at(0)), 3), fixed(us_from_ps(shape.backward_ps.at(0)), 3),
                             std::to_string(shape.activation_bytes), fixed(us_from_ps(r.result.step_ps), 6),
                             fixed(r.model.step_with_p2p_s * 1e6, 6), fixed(r.sim_over_model, 9), fixed(r.bubble, 6),
                             fixed(r.model.bubble, 6), fixed(us_from_ps(r.mean_p2p_wait_ps), 6),
                             std::to_string(r.peak_in_flight)});
  return csv_line(cells);
}

SweepLayout sweep_layout(const std::string& header, const std::string& where) {
  if (header == sweep_csv_header()) return SweepLayout::kCollective;
  if (header == pipeline_csv_header()) return SweepLayout::kPipeline;
  throw InputError(where + ": not a sweep CSV (its header is not commsim sweep's)");
}

std::string sweep_layout_header(SweepLayout layout) {
  return layout == SweepLayout::kCollective ? sweep_csv_header() : pipeline_csv_header();
}

std::string sweep_json_row(const std::string& header, const std::string& csv_row) {
  static const std::vector<std::string_view> kText{"topology", "kind",      "shape",    "library",  "rank_order",
                                                   "collective", "algorithm", "protocol", "schedule", "p2p_mode"};
  const std::vector<std::string_view> names = comma_fields(header);
  const std::vector<std::string_view> cells = comma_fields(csv_row);
  COMMSIM_CHECK(names.size() == cells.size(), "a sweep row with " + std::to_string(cells.size()) + " cells");
  return json_line(names, cells, kText);
}

}  // namespace commsim
