#include "replay_rows.h"

#include <algorithm>

#include "report/table.h"
#include "study/text_table.h"

namespace commsim::cli {
namespace {

constexpr std::size_t kMaxTableRows = 40;

// The group's name, or "all" for a collective among every rank of the trace.
std::string group_label(const Workload& workload, const CollectiveCall& call) {
  return call.group ? workload.groups[*call.group].name : "all";
}

std::string protocol_label(const CollectiveCall& call) {
  return call.protocol ? std::string(protocol_name(*call.protocol)) : "-";
}

std::string us(TimePs t) { return fixed(us_from_ps(t), 3); }

}  // namespace

void print_collective_table(std::ostream& out, const Workload& workload, const ReplayResult& result) {
  if (result.collectives.empty()) {
    out << "# collectives: none\n";
    return;
  }
  const std::vector<CollectiveTally> rows = tally_collectives(result.collectives);
  out << "# collectives: " << result.collectives.size() << " run, " << rows.size()
      << " distinct (collective, group, size, algorithm, protocol, channels), the most total time first\n";
  Table table({{"count", "", 7},      {"collective", "", 13}, {"group", "", 8},     {"ranks", "", 6},
               {"size", "B", 12},     {"algorithm", "", 18},  {"protocol", "", 8},  {"ch", "", 4},
               {"mean", "us", 11},
               {"min", "us", 11},     {"max", "us", 11},      {"total", "us", 12},  {"algbw", "GB/s", 8},
               {"busbw", "GB/s", 8}});
  for (std::size_t i = 0; i < std::min(rows.size(), kMaxTableRows); ++i) {
    const CollectiveTally& r = rows[i];
    table.add_row({std::to_string(r.count), std::string(collective_name(r.call.kind)), group_label(workload, r.call),
                   std::to_string(r.call.ranks), std::to_string(r.call.bytes),
                   std::string(algorithm_name(r.call.algorithm)), protocol_label(r.call),
                   std::to_string(r.call.channels), fixed(r.mean_us(), 3),
                   us(r.min_ps), us(r.max_ps), fixed(r.total_us, 3), fixed(r.algbw_GBps(), 2),
                   fixed(r.busbw_GBps(), 2)});
  }
  table.print(out);
  if (rows.size() > kMaxTableRows) {
    out << "#   ... " << rows.size() - kMaxTableRows << " more distinct collectives (each one in --collectives-csv)\n";
  }
  out << "# time: from the last member's arrival to the end of every member's part (with the library's call\n"
      << "# latency); algbw = size / mean time, busbw = algbw x the bus factor (nccl-tests); group all: every rank\n";
}

std::string collective_rows_header() {
  return "index,rank,node,name,collective,group,ranks,size_bytes,algorithm,protocol,channels,start_us,time_us,"
         "algbw_GBps,busbw_GBps";
}

std::vector<std::string> collective_cells(const Workload& workload, std::size_t index, const ReplayedCollective& c) {
  const WorkloadNode& node = workload.ranks[c.first_rank].nodes[c.first_node];
  return {std::to_string(index),
          std::to_string(c.first_rank),
          std::to_string(node.id),
          node.name,
          std::string(collective_name(c.call.kind)),
          group_label(workload, c.call),
          std::to_string(c.call.ranks),
          std::to_string(c.call.bytes),
          std::string(algorithm_name(c.call.algorithm)),
          protocol_label(c.call),
          std::to_string(c.call.channels),
          fixed(us_from_ps(c.start_ps), 6),
          fixed(us_from_ps(c.time_ps()), 6),
          fixed(algbw_GBps(c.call, c.time_ps()), 6),
          fixed(busbw_GBps(c.call, c.time_ps()), 6)};
}

std::string collective_json_line(const std::vector<std::string>& cells) {
  static const std::string header = collective_rows_header();
  static const std::vector<std::string_view> kText{"name", "collective", "group", "algorithm", "protocol"};
  const std::vector<std::string_view> views(cells.begin(), cells.end());
  return json_line(comma_fields(header), views, kText);
}

}  // namespace commsim::cli
