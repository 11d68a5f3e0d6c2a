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

// time, algbw and busbw of one placement; algbw and busbw may be missing.
struct PlacementColumns {
  std::size_t time;
  std::optional<std::size_t> algbw, busbw;
  std::optional<std::size_t> derived_time;  // where the time's cell is empty
};

// Only collective, size_bytes and a time are required; a column missing is a value unknown.
struct Columns {
  std::size_t collective, size;
  std::optional<std::size_t> nranks, nodes, gpus_per_node, count, type, redop, root;
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
  return PlacementColumns{header.require(names[0]), header.require(names[1]), header.require(names[2]), std::nullopt};
}

// The out-of-place columns. The time: oop_time_us, and where it is missing or its cell empty,
// time_us_derived (a time derived from a published bandwidth); "no column 'oop_time_us'"
// when there is neither.
PlacementColumns out_of_place_columns(const CsvHeader& header) {
  const std::optional<std::size_t> measured = header.find("oop_time_us"), derived = header.find("time_us_derived");
  const std::size_t time = measured || !derived ? header.require("oop_time_us") : *derived;
  return {time, header.find("oop_algbw_GBps"), header.find("oop_busbw_GBps"), measured ? derived : std::nullopt};
}

Columns columns_of(const CsvHeader& header, const std::string& where) {
  refuse_other_layouts(header, where);
  return Columns{.collective = header.require("collective"),
                 .size = header.require("size_bytes"),
                 .nranks = header.find("nranks"),
                 .nodes = header.find("nodes"),
                 .gpus_per_node = header.find("gpus_per_node"),
                 .count = header.find("count"),
                 .type = header.find("type"),
                 .redop = header.find("redop"),
                 .root = header.find("root"),
                 .out_of_place = out_of_place_columns(header),
                 .in_place = in_place_columns(header, where)};
}

// The field of `column` in `f`, empty where the header has no such column.
std::string_view field(const std::vector<std::string_view>& f, const std::optional<std::size_t>& column) {
  return column ? f[*column] : std::string_view();
}

// One placement's fields; where algbw is missing (no column, an empty cell) it is derived
// from the time; a busbw missing stays unknown (complete_for derives it at the ranks run).
MeasuredTime read_placement(const std::vector<std::string_view>& f, const PlacementColumns& c, const Measurement& row,
                            std::string_view placement, const std::string& where) {
  MeasuredTime t;
  const std::string_view time = f[c.time].empty() && c.derived_time ? f[*c.derived_time] : f[c.time];
  t.time_us = parse_time_field(time, placement, where);
  const std::string_view algbw = field(f, c.algbw), busbw = field(f, c.busbw);
  t.algbw_GBps = !algbw.empty() ? parse_bandwidth_field(algbw, placement, "algbw", where)
                                : static_cast<double>(row.size_bytes) / (t.time_us * 1e3);  // B/us -> GB/s
  if (!busbw.empty()) t.busbw_GBps = parse_bandwidth_field(busbw, placement, "busbw", where);
  return t;
}

std::size_t optional_rank_count(std::string_view text, std::string_view field,
                                const std::string& where) {
  return text.empty() ? 0 : parse_rank_count_field(text, field, where);
}

Measurement read_row(const std::vector<std::string_view>& f, const Columns& c, const std::string& where) {
  Measurement row;
  row.operation = parse_measured_operation(f[c.collective], where);
  row.ranks = optional_rank_count(field(f, c.nranks), "nranks", where);
  row.nodes = optional_rank_count(field(f, c.nodes), "nodes", where);
  row.gpus_per_node = optional_rank_count(field(f, c.gpus_per_node), "gpus_per_node", where);
  row.size_bytes = parse_size_field(f[c.size], where);
  if (const std::string_view count = field(f, c.count); !count.empty()) {
    row.count_elements = parse_count_field(count, where);
  }
  row.type = std::string(field(f, c.type));
  row.redop = std::string(field(f, c.redop));
  if (const std::string_view root = field(f, c.root); !root.empty()) row.root = parse_root_field(root, where);
  row.out_of_place = read_placement(f, c.out_of_place, row, "out-of-place", where);
  if (c.in_place) {
    const PlacementColumns& ip = *c.in_place;
    if (!f[ip.time].empty() || !field(f, ip.algbw).empty() || !field(f, ip.busbw).empty()) {
      row.in_place = read_placement(f, ip, row, "in-place", where);
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

// A row of an nccl-tests operation commsim does not model: counted in the run of the rows
// above it when they are of the same, else the first of a new run.
void count_left_out(std::string_view name, const std::string& where, std::vector<LeftOutRun>& left_out) {
  if (left_out.empty() || left_out.back().test != name) left_out.push_back({std::string(name), 0, where});
  ++left_out.back().rows;
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
    if (const std::string_view name = row.fields[columns.collective]; is_nccl_test_without_model(name)) {
      count_left_out(name, row.location, set.left_out);
      continue;
    }
    set.rows.push_back(read_row(row.fields, columns, row.location));
    set.rows.back().gpus_per_thread = gpus_per_thread;
  }
  if (set.rows.empty() && !set.left_out.empty()) throw InputError(nothing_but_left_out_message(origin, set.left_out));
  return set;
}

MeasurementSet read_measurement_csv(const std::string& path) {
  return parse_measurement_csv(read_input_file(path, "measurement CSV"), path);
}

}  // namespace commsim
