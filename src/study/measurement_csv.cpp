#include "study/measurement_csv.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>

#include "base/error.h"
#include "base/input_file.h"
#include "study/measurement_fields.h"
#include "study/text_table.h"

namespace commsim {
namespace {

// time, algbw and busbw of one placement.
using PlacementColumns = std::array<std::size_t, 3>;

struct Columns {
  std::size_t collective, nranks, nodes, gpus_per_node, size, count, type, redop, root;
  PlacementColumns out_of_place;
  std::optional<PlacementColumns> in_place;
};

// The other CSV layouts of ../shared/validation, refused with what they are.
void refuse_other_layouts(const CsvHeader& header, const std::string& where) {
  if (header.has("matrix") && header.has("src_gpu")) {
    throw InputError(where +
                     ": a p2pBandwidthLatencyTest matrix file (matrix,src_gpu,dst_gpu,"
                     "value), not nccl-tests rows: read it with read_p2p_matrices");
  }
  if (header.has("busbw_factor")) {
    throw InputError(where +
                     ": nccl-tests' bus-bandwidth factors per collective "
                     "(collective,busbw_factor,...), not measurements");
  }
  if (header.has("config_id") && header.has("duration_ns")) {
    throw InputError(where +
                     ": a P2P profile log (config_id,src,dst,size,...,duration_ns), "
                     "not nccl-tests rows: read it with read_p2p_profile_log");
  }
}

std::optional<PlacementColumns> in_place_columns(const CsvHeader& header,
                                                 const std::string& where) {
  const std::array<const char*, 3> names{"ip_time_us", "ip_algbw_GBps", "ip_busbw_GBps"};
  int present = 0;
  for (const char* name : names) present += header.has(name) ? 1 : 0;
  if (present == 0) return std::nullopt;
  if (present < 3) {
    throw InputError(where +
                     ": the header has some of ip_time_us, ip_algbw_GBps, "
                     "ip_busbw_GBps but not all three");
  }
  return PlacementColumns{header.require(names[0]), header.require(names[1]),
                          header.require(names[2])};
}

Columns columns_of(const CsvHeader& header, const std::string& where) {
  refuse_other_layouts(header, where);
  return Columns{.collective = header.require("collective"),
                 .nranks = header.require("nranks"),
                 .nodes = header.require("nodes"),
                 .gpus_per_node = header.require("gpus_per_node"),
                 .size = header.require("size_bytes"),
                 .count = header.require("count"),
                 .type = header.require("type"),
                 .redop = header.require("redop"),
                 .root = header.require("root"),
                 .out_of_place = {header.require("oop_time_us"), header.require("oop_algbw_GBps"),
                                  header.require("oop_busbw_GBps")},
                 .in_place = in_place_columns(header, where)};
}

std::size_t optional_rank_count(std::string_view text, std::string_view field,
                                const std::string& where) {
  return text.empty() ? 0 : parse_rank_count_field(text, field, where);
}

Measurement read_row(const std::vector<std::string_view>& f, const Columns& c,
                     const std::string& where) {
  Measurement row;
  row.operation = parse_measured_operation(f[c.collective], where);
  row.ranks = optional_rank_count(f[c.nranks], "nranks", where);
  row.nodes = optional_rank_count(f[c.nodes], "nodes", where);
  row.gpus_per_node = optional_rank_count(f[c.gpus_per_node], "gpus_per_node", where);
  row.size_bytes = parse_size_field(f[c.size], where);
  if (!f[c.count].empty()) row.count_elements = parse_count_field(f[c.count], where);
  row.type = std::string(f[c.type]);
  row.redop = std::string(f[c.redop]);
  if (!f[c.root].empty()) row.root = parse_root_field(f[c.root], where);
  const auto& oop = c.out_of_place;
  row.out_of_place = parse_measured_time(f[oop[0]], f[oop[1]], f[oop[2]], "out-of-place", where);
  if (c.in_place) {
    const auto& ip = *c.in_place;
    if (!f[ip[0]].empty() || !f[ip[1]].empty() || !f[ip[2]].empty()) {
      row.in_place = parse_measured_time(f[ip[0]], f[ip[1]], f[ip[2]], "in-place", where);
    }
  }
  row.source = where;
  return row;
}

// "nccl=2.29.2" in a comment such as "test: all_reduce_perf; nranks=8; nccl=2.29.2".
std::string nccl_version_in(std::string_view comment) {
  constexpr std::string_view kKey = "nccl=";
  const std::size_t at = comment.find(kKey);
  if (at == std::string_view::npos) return "";
  std::string_view value = comment.substr(at + kKey.size());
  value = value.substr(0, value.find_first_of("; \t"));
  return !value.empty() && value[0] >= '0' && value[0] <= '9' ? std::string(value) : "";
}

// "-g 8" in a comment such as "system: ...; single process -g 8": the GPUs each host thread
// drove (nccl-tests -g); 0 when no comment says.
std::size_t gpus_per_thread_in(std::string_view comment) {
  const std::vector<std::string_view> words = whitespace_fields(comment);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] != "-g") continue;
    const std::string_view count = words[i + 1];  // "8", or "2;" at the end of a clause
    std::uint32_t gpus = 0;
    const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), gpus);
    if (error == std::errc() && end != count.data() && gpus > 0) return gpus;
  }
  return 0;
}

}  // namespace

MeasurementSet parse_measurement_csv(std::string_view text, const std::string& origin) {
  const CsvFile csv = split_csv(text, origin, "collective,nranks,...,oop_time_us,...");
  const Columns columns = columns_of(csv.header, csv.header.location());
  MeasurementSet set;
  set.origin = origin;
  std::size_t gpus_per_thread = 0;
  for (const std::string_view comment : csv.comments) {
    set.comments.emplace_back(comment);
    if (set.nccl_version.empty()) set.nccl_version = nccl_version_in(comment);
    if (gpus_per_thread == 0) gpus_per_thread = gpus_per_thread_in(comment);
  }
  for (const CsvRow& row : csv.rows) {
    set.rows.push_back(read_row(row.fields, columns, row.location));
    set.rows.back().gpus_per_thread = gpus_per_thread;
  }
  return set;
}

MeasurementSet read_measurement_csv(const std::string& path) {
  return parse_measurement_csv(read_input_file(path, "measurement CSV"), path);
}

}  // namespace commsim
