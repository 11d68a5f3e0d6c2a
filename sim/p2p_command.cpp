// commsim p2p: point-to-point messages on a topology, simulated beside the closed form (the
// study: src/study/p2p_study.h).

#include <functional>
#include <optional>

#include "base/error.h"
#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "link_stats_output.h"
#include "report/table.h"
#include "study/p2p_study.h"
#include "study/timelines.h"
#include "run_progress.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

constexpr const char* kDefaultSweep = "1:1G";

po::options_description p2p_options() {
  po::options_description options(
      "commsim p2p: point-to-point messages, simulated beside the closed form "
      "o + path latency + S / bottleneck");
  options.add_options()("help,h", "show this help");
  add_option(options, "pattern", "P",
             "one-way (src to dst), bidirectional (both ways at once), all-pairs (every "
             "directed pair alone in turn), shift:K (every rank r to r+K at once); "
             "default one-way");
  add_option(options, "src", "A", "source rank (default 0)");
  add_option(options, "dst", "B", "destination rank (default 1)");
  add_size_options(options, kDefaultSweep);
  add_option(options, "overhead", "T", "per-message software overhead o, e.g. 5us (default 0)");
  add_gpus_per_thread_option(options);
  add_option(options, "csv", "FILE",
             "also write one row per message: pattern,src,dst,size_bytes,sim_time_us,"
             "model_time_us,sim_over_model,algbw_GBps");
  add_option(options, "timeline", "FILE",
             "write a Chrome trace JSON (Perfetto, chrome://tracing) of the largest size: a process per sending "
             "rank, each message from its send to its arrival (all-pairs: one after another, as each ran alone)");
  add_link_stats_option(options, "of the largest size (all-pairs: every pair alone in turn, one after another)");
  add_quiet_option(options);
  options.add(topology_options());
  options.add(library_options());
  return options;
}

constexpr const char* kExamples =
    "Examples:\n"
    "  commsim p2p --sizes 1K:1G\n"
    "  commsim p2p --topology ring --npus 1024 --pattern shift:1\n"
    "  commsim p2p --topology torus --dims 4x4x4 --pattern all-pairs --size 64M\n";

Rank rank_option(const po::variables_map& vm, const char* name, Rank fallback, const Topology& topology) {
  const auto text = option_text(vm, name);
  const Rank rank = text ? static_cast<Rank>(parse_count(*text, std::string("--") + name, 0, UINT32_MAX)) : fallback;
  if (rank >= topology.npu_count()) {
    throw InputError(std::string("--") + name + " " + std::to_string(rank) + " is out of range: topology '" +
                     topology.name() + "' has " + std::to_string(topology.npu_count()) + " NPUs (ranks 0-" +
                     std::to_string(topology.npu_count() - 1) + ")");
  }
  return rank;
}

/// --pattern with --src and --dst, checked against the topology.
P2pPattern pattern_option(const po::variables_map& vm, const Topology& topology) {
  P2pPattern pattern = parse_p2p_pattern(option_text(vm, "pattern").value_or("one-way"), "--pattern");
  if (!pattern.pairwise() && (vm.count("src") || vm.count("dst"))) {
    throw InputError("--src and --dst do not apply to --pattern " + pattern.name);
  }
  pattern.src = rank_option(vm, "src", 0, topology);
  if (pattern.pairwise()) {
    pattern.dst = rank_option(vm, "dst", 1, topology);
    if (pattern.src == pattern.dst) {
      throw InputError("--src and --dst are both " + std::to_string(pattern.src) + "; give two ranks");
    }
  }
  if (const auto misfit = p2p_pattern_misfit(pattern, topology.npu_count())) {
    throw InputError("--pattern " + pattern.name + ": " + *misfit);
  }
  return pattern;
}

std::string protocol_text(const LibraryChoice& library) {
  const LibraryProfile& profile = library.profile;
  if (library.protocol) return std::string(protocol_name(*library.protocol));
  if (profile.p2p && profile.p2p->ll_max_bytes_per_channel > 0) {
    return "auto (LL while each channel carries at most " + format_size(profile.p2p->ll_max_bytes_per_channel) +
           " inside a node, else " + std::string(protocol_name(profile.protocols.back().first)) + ")";
  }
  return "auto (the fastest by the closed form)";
}

void print_pattern(std::ostream& out, const P2pPattern& pattern, const P2pStudy& study, std::size_t n) {
  if (study.route) {
    const PathParams& path = *study.route;
    out << "# pattern: " << pattern.name << ", " << pattern.src
        << (pattern.kind == P2pPattern::Kind::kOneWay ? " -> " : " <-> ") << pattern.dst << "\n"
        << "# route " << pattern.src << " -> " << pattern.dst << ": " << path.hops << " hops, latency "
        << format_time(path.latency_ps) << ", bottleneck " << format_bandwidth(path.bottleneck_Bps) << "\n";
  } else if (pattern.kind == P2pPattern::Kind::kShift) {
    out << "# pattern: " << pattern.name << ", every rank r sends to (r + " << pattern.shift << ") mod " << n
        << " at once\n";
  } else {
    out << "# pattern: all-pairs, every directed pair alone in turn\n";
  }
}

void print_header(std::ostream& out, const Topology& topology, const P2pPattern& pattern, const P2pStudy& study,
                  const LibraryChoice& library, TimePs overhead_ps, std::size_t gpus_per_thread) {
  out << "# commsim p2p\n"
      << "# topology: " << topology.name() << " (" << topology.description() << "), switches "
      << topology.switch_count() << ", links " << topology.link_count() << "\n";
  print_pattern(out, pattern, study, topology.npu_count());
  if (!library.profile.ideal()) {
    out << "# library: " << library.profile.name << ", protocol " << protocol_text(library)
        << "; model: L_call + o + step latency + path latency + S / protocol rate\n";
    if (library.profile.p2p) {
      out << "# ch: the P2P channels of the last message to arrive, each at most its channel rate\n";
    }
    out << gpus_per_thread_line(library.profile, gpus_per_thread);
  }
  out << "# overhead o: " << format_time(overhead_ps) << "\n"
      << "# model: o + path latency + S / bottleneck bandwidth, each message on an idle network\n"
      << "#\n";
}

void print_matrix(std::ostream& out, const std::string& title, const P2pPoint& point, std::size_t npus,
                  const std::function<std::string(const P2pMessageResult&)>& cell) {
  out << "# " << title << "; row = source, column = destination\n";
  std::vector<std::string> grid(npus * npus, "-");
  for (const P2pMessageResult& r : point.messages) grid[r.message.src * npus + r.message.dst] = cell(r);
  std::vector<Column> columns{{"src\\dst", "", 8}};
  for (std::size_t d = 0; d < npus; ++d) columns.push_back({std::to_string(d), "", 9});
  Table table(columns);
  for (std::size_t s = 0; s < npus; ++s) {
    std::vector<std::string> row{std::to_string(s)};
    row.insert(row.end(), grid.begin() + s * npus, grid.begin() + (s + 1) * npus);
    table.add_row(std::move(row));
  }
  table.print(out);
}

void print_all_pairs(std::ostream& out, const P2pStudy& study, std::size_t npus) {
  for (const P2pPoint& point : study.points) {
    std::string size = std::to_string(point.size) + " B";
    if (point.protocol) size += " (" + std::string(protocol_name(*point.protocol)) + ")";
    print_matrix(out, "size " + size + ": time (us)", point, npus,
                 [](const P2pMessageResult& r) { return fixed(us_from_ps(r.sim_ps), 2); });
    print_matrix(out, "size " + size + ": algbw (GB/s)", point, npus,
                 [](const P2pMessageResult& r) { return fixed(r.algbw_GBps, 2); });
    out << "#\n";
  }
}

void print_table(std::ostream& out, const P2pStudy& study, const LibraryProfile& library) {
  const std::size_t messages = study.points.empty() ? 0 : study.points.front().messages.size();
  if (messages > 1) {
    out << "# time: until the last of the " << messages
        << " messages arrived; algbw = size / time; model: the slowest message alone\n";
  }
  std::vector<Column> columns{{"size", "B", 12}};
  if (!library.ideal()) columns.push_back({"proto", "", 7});
  if (library.p2p) columns.push_back({"ch", "", 4});
  columns.insert(columns.end(), {{"time", "us", 12}, {"algbw", "GB/s", 9}, {"model", "us", 12}, {"sim/model", "", 10}});
  Table table(std::move(columns));
  for (const P2pPoint& point : study.points) {
    std::vector<std::string> row{std::to_string(point.size)};
    if (point.protocol) row.emplace_back(protocol_name(*point.protocol));
    if (point.channels) row.push_back(std::to_string(*point.channels));
    row.insert(row.end(), {fixed(us_from_ps(point.sim_ps), 2), fixed(point.algbw_GBps, 2), fixed(point.model_s * 1e6, 2),
                           point.sim_over_model ? fixed(*point.sim_over_model, 4) : "-"});
    table.add_row(std::move(row));
  }
  table.print(out);
}

void write_csv(std::ostream& csv, const P2pStudy& study, const P2pPattern& pattern) {
  write_csv_row(csv, {"pattern", "src", "dst", "size_bytes", "sim_time_us", "model_time_us", "sim_over_model",
                      "algbw_GBps"});
  for (const P2pPoint& point : study.points) {
    for (const P2pMessageResult& r : point.messages) {
      write_csv_row(csv, {pattern.name, std::to_string(r.message.src), std::to_string(r.message.dst),
                          std::to_string(r.message.bytes), fixed(us_from_ps(r.sim_ps), 6), fixed(r.model_s * 1e6, 6),
                          r.sim_over_model ? fixed(*r.sim_over_model, 9) : "-", fixed(r.algbw_GBps, 6)});
    }
  }
}

}  // namespace

int run_p2p(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, p2p_options(), "p2p [options]", kExamples, out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const Topology topology = topology_from_options(vm);
  const P2pPattern pattern = pattern_option(vm, topology);
  const std::vector<Bytes> sizes = sizes_from_options(vm, kDefaultSweep);
  const TimePs overhead = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  // Opened before the simulation, so that a bad path fails at once.
  std::optional<OutputFile> csv = output_option(vm, "csv");
  std::optional<OutputFile> timeline = output_option(vm, "timeline");
  LinkStatsOutput link_stats(vm);
  const LibraryChoice library = library_from_options(vm, topology);

  Progress progress = run_progress(vm, sizes.size(), "sizes");
  // Link statistics of the largest size, for the hottest links of every report.
  P2pStudyOptions study_options{overhead, library.profile, library.protocol, [&] { progress.advance(); }, true};
  study_options.gpus_per_thread = gpus_per_thread_option(vm, library.profile);
  const P2pStudy study = study_p2p(topology, pattern, sizes, study_options);
  progress.finish();
  print_header(out, topology, pattern, study, library, overhead, study_options.gpus_per_thread);
  if (pattern.kind == P2pPattern::Kind::kAllPairs) {
    print_all_pairs(out, study, topology.npu_count());
  } else {
    print_table(out, study, library.profile);
  }
  if (const LinkStats* stats = study.link_stats()) {
    const bool alone = pattern.kind == P2pPattern::Kind::kAllPairs;
    link_stats.report(out, topology, *stats,
                      pattern.name + " at " + std::to_string(sizes.back()) + " B" +
                          (alone ? ", every pair alone in turn, one after another" : ""));
  }
  if (csv) {
    write_csv(csv->stream(), study, pattern);
    csv->commit();
  }
  if (timeline) {
    write_p2p_timeline(timeline->stream(), study, pattern);
    timeline->commit();
  }
  return 0;
}

}  // namespace commsim::cli
