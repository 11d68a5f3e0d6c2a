#include "link_stats_output.h"

#include "report/table.h"

namespace commsim::cli {
namespace {

constexpr std::size_t kHottest = 5;
constexpr const char* kCsvHeader = "link,kind,direction,bandwidth_GBps,bytes,busy_us,utilisation,peak_flows";

std::string direction_text(const Topology& t, const LinkLoad& load) {
  const Link& link = t.link(load.link);
  const std::string& first = t.vertex(link.first).name;
  const std::string& second = t.vertex(link.second).name;
  switch (load.direction) {
    case LinkDirection::kForward: return first + " -> " + second;
    case LinkDirection::kBackward: return second + " -> " + first;
    case LinkDirection::kBoth: return first + " <-> " + second;
  }
  return "";
}

// "#   0.9129  sw -> npu2 (link 2, nvlink, 100 GB/s): 2097152 B, busy 20.97 us, peak 2 flows"
std::string hot_line(const Topology& t, const LinkLoad& load) {
  const std::string kind(link_kind_name(t.link(load.link).params.kind));
  return "#   " + fixed(load.utilisation, 4) + "  " + direction_text(t, load) + " (link " + std::to_string(load.link) +
         ", " + kind + ", " + format_bandwidth(load.bandwidth_Bps) + "): " + fixed(load.bytes, 0) + " B, busy " +
         fixed(us_from_ps(load.busy_ps), 2) + " us, peak " + std::to_string(load.peak_flows) +
         (load.peak_flows == 1 ? " flow" : " flows");
}

void write_csv(std::ostream& csv, const Topology& t, const LinkStats& stats) {
  csv << kCsvHeader << "\n";
  for (const LinkLoad& load : stats.loads) {
    write_csv_row(csv, {std::to_string(load.link), std::string(link_kind_name(t.link(load.link).params.kind)),
                        direction_text(t, load), fixed(gb_per_s(load.bandwidth_Bps), 3), fixed(load.bytes, 0),
                        fixed(us_from_ps(load.busy_ps), 6), fixed(load.utilisation, 6),
                        std::to_string(load.peak_flows)});
  }
}

}  // namespace

void add_link_stats_option(po::options_description& options, const std::string& which_run) {
  add_option(options, "link-stats", "FILE",
             "write per-link statistics as CSV: bytes, busy time, utilisation and peak flows of each direction of "
             "each link, " + which_run);
}

LinkStatsOutput::LinkStatsOutput(const po::variables_map& vm) : file_(output_option(vm, "link-stats")) {}

void LinkStatsOutput::report(std::ostream& out, const Topology& topology, const LinkStats& stats,
                             const std::string& run) {
  const std::vector<LinkLoad> hottest = hottest_links(stats, kHottest);
  out << "#\n# hottest links of " << run << ": utilisation = bytes / (bandwidth x "
      << fixed(us_from_ps(stats.simulated_ps), 2) << " us)" << (hottest.empty() ? "; none carried data" : "")
      << "\n";
  for (const LinkLoad& load : hottest) out << hot_line(topology, load) << "\n";
  if (file_) {
    write_csv(file_->stream(), topology, stats);
    file_->commit();
  }
}

}  // namespace commsim::cli
