#include "study/sweep.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/input_file.h"
#include "collective/algorithms.h"
#include "report/table.h"
#include "study/text_table.h"
#include "topology/placement.h"

namespace commsim {
namespace {

template <typename T>
void require_some(const std::vector<T>& list, const char* what) {
  if (list.empty()) throw InputError(std::string("a sweep needs at least one ") + what);
}

// The algorithm choices a name stands for on this topology and collective.
std::vector<AlgorithmChoice> choices(const std::string& name, CollectiveKind kind, const Topology& topology) {
  if (name == "nccl") return {std::nullopt};
  if (name == "all") {
    const std::vector<AlgorithmKind> all = applicable_algorithms(kind, topology);
    return std::vector<AlgorithmChoice>(all.begin(), all.end());
  }
  const AlgorithmKind algorithm = parse_algorithm(name, "--algorithm");
  if (inapplicable_reason(kind, algorithm, topology)) return {};
  return {algorithm};
}

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

// The rows of a sweep CSV by point index (text_table.h's line and field splitting), each as
// wide as the header.
std::map<std::size_t, std::string> rows_of(const std::string& path, const std::string& text) {
  const std::vector<TextLine> lines = split_lines(text);
  if (lines.empty() || lines.front().text != sweep_csv_header()) {
    throw InputError(line_location(path, 1) + ": not a sweep CSV (its header is not commsim sweep's)");
  }
  const CsvHeader header(lines.front().text, line_location(path, 1));
  std::map<std::size_t, std::string> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string where = line_location(path, lines[i].number);
    const std::vector<std::string_view> fields = header.row_fields(lines[i].text, where);
    const std::uint64_t index = parse_count(fields.front(), where + ": point", 0, std::numeric_limits<std::uint64_t>::max());
    rows[index] = std::string(lines[i].text);
  }
  return rows;
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepPlan& plan) {
  require_some(plan.topologies, "topology");
  require_some(plan.libraries, "library");
  require_some(plan.collectives, "collective");
  require_some(plan.algorithms, "algorithm");
  require_some(plan.sizes, "message size");
  std::vector<SweepPoint> points;
  std::map<std::string, bool> named_applies;  // an explicit algorithm name: applies somewhere
  for (std::size_t t = 0; t < plan.topologies.size(); ++t) {
    const Topology topology = build_topology(plan.topologies[t]);
    if (topology.npu_count() < 2) continue;
    for (const std::string& order : plan.rank_orders) parse_rank_order(order, topology.npu_count());
    for (std::size_t l = 0; l < plan.libraries.size(); ++l) {
      for (std::size_t o = 0; o < plan.rank_orders.size(); ++o) {
        for (const CollectiveKind kind : plan.collectives) {
          const std::vector<Bytes> sizes = collective_sizes(kind, plan.sizes, topology.npu_count());
          for (const std::string& name : plan.algorithms) {
            const std::vector<AlgorithmChoice> runs = choices(name, kind, topology);
            named_applies[name] = named_applies[name] || !runs.empty() || name == "all";
            for (const AlgorithmChoice& algorithm : runs) {
              for (const Bytes size : sizes) points.push_back({points.size(), t, l, o, kind, algorithm, size});
            }
          }
        }
      }
    }
  }
  for (const auto& [name, applies] : named_applies) {
    if (!applies) throw InputError("--algorithm " + name + " applies to none of the sweep's topologies and collectives");
  }
  if (points.empty()) throw InputError("the sweep has no points (every topology has one NPU)");
  return points;
}

CollectivePoint run_sweep_point(const SweepPlan& plan, const SweepPoint& point) {
  const Topology topology = build_topology(plan.topologies.at(point.topology));
  CollectiveStudyOptions options;
  options.run = plan.run;
  options.library = plan.libraries.at(point.library);
  options.run.channels = default_channels(topology, options.library);
  options.run.npu_of_rank = parse_rank_order(plan.rank_orders.at(point.rank_order), topology.npu_count());
  return run_collective_point(topology, point.kind, point.algorithm, point.size, options);
}

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
  return "point,topology,kind,npus,shape,link_GBps,link_latency_us,nic_GBps,nic_latency_us,library,rank_order,"
         "collective,algorithm,protocol,size_bytes,sim_time_us,model_time_us,sim_over_model,lower_bound_us,algbw_GBps,busbw_GBps";
}

std::string sweep_csv_row(std::size_t index, const TopologyFacts& t, const std::string& library,
                          const std::string& rank_order, CollectiveKind kind, const CollectivePoint& p) {
  std::ostringstream row;
  write_csv_row(row, {std::to_string(index), t.name, t.kind, std::to_string(t.npus), t.shape, link_cell(t.link, true),
                      link_cell(t.link, false), link_cell(t.nic, true), link_cell(t.nic, false), library,
                      rank_order, std::string(collective_name(kind)), std::string(algorithm_name(p.algorithm)),
                      p.protocol ? std::string(protocol_name(*p.protocol)) : "-", std::to_string(p.size),
                      fixed(us_from_ps(p.sim_ps), 6), fixed(p.model_s * 1e6, 6),
                      p.sim_over_model ? fixed(*p.sim_over_model, 9) : "-", fixed(p.bound_s * 1e6, 6),
                      fixed(p.algbw_GBps, 6), fixed(p.busbw_GBps, 6)});
  std::string text = row.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string sweep_json_row(const std::string& csv_row) {
  static const std::set<std::string, std::less<>> kText{"topology", "kind", "shape", "library", "rank_order", "collective", "algorithm", "protocol"};
  const std::string header = sweep_csv_header();
  const std::vector<std::string_view> names = comma_fields(header);
  const std::vector<std::string_view> cells = comma_fields(csv_row);
  COMMSIM_CHECK(names.size() == cells.size(), "a sweep row with " + std::to_string(cells.size()) + " cells");
  std::string json = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) json += ',';
    json += '"';
    json += names[i];
    json += "\":";
    if (cells[i] == "-") {
      json += "null";
    } else if (kText.count(names[i])) {
      json += '"';
      json += cells[i];
      json += '"';
    } else {
      json += cells[i];
    }
  }
  return json + "}";
}

std::vector<std::string> merge_sweep_csv(const std::vector<std::string>& paths) {
  std::map<std::size_t, std::pair<std::string, std::string>> merged;  // index -> (row, its file)
  for (const std::string& path : paths) {
    for (const auto& [index, row] : rows_of(path, read_input_file(path, "sweep CSV"))) {
      const auto [it, fresh] = merged.emplace(index, std::pair(row, path));
      if (!fresh && it->second.first != row) {
        throw InputError(path + ": point " + std::to_string(index) + " differs from the same point in " +
                         it->second.second);
      }
    }
  }
  std::vector<std::string> lines{sweep_csv_header()};
  for (const auto& [index, row] : merged) lines.push_back(row.first);
  return lines;
}

std::vector<std::size_t> points_in_sweep_csv(const std::string& path) {
  if (!std::ifstream(path)) return {};
  std::vector<std::size_t> points;
  for (const auto& [index, row] : rows_of(path, read_input_file(path, "sweep CSV"))) points.push_back(index);
  return points;
}

}  // namespace commsim
