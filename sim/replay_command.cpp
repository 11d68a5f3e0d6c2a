// commsim replay: a workload trace (commsim's format or Chakra ET) on the simulated network.

#include <optional>

#include "base/error.h"
#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "link_stats_output.h"
#include "report/table.h"
#include "study/timelines.h"
#include "topology/spec_file.h"
#include "replay_rows.h"
#include "run_progress.h"
#include "topology_options.h"
#include "workload/chakra_reader.h"
#include "workload/chakra_writer.h"
#include "workload/replay.h"
#include "workload/trace_file.h"

namespace commsim::cli {
namespace {

/// "allreduce=ring,alltoall=direct".
std::map<CollectiveKind, AlgorithmKind> algorithm_choices(const std::string& text) {
  std::map<CollectiveKind, AlgorithmKind> choices;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      throw InputError("--algorithm: expected COLLECTIVE=ALGORITHM[,...] such as allreduce=ring, got '" + item + "'");
    }
    const std::string what = "--algorithm '" + item + "'";
    choices[parse_collective(item.substr(0, eq), what)] = parse_algorithm(item.substr(eq + 1), what);
    start = end + 1;
  }
  return choices;
}

/// Without a topology option: the 8-GPU H100 node, or enough such nodes joined by InfiniBand.

std::string describe(const Workload& w, Rank rank, std::size_t index) {
  const WorkloadNode& n = w.ranks[rank].nodes[index];
  std::string text = "rank " + std::to_string(rank) + " node " + std::to_string(n.id) + " " +
                     std::string(node_kind_name(n.kind));
  if (!n.name.empty()) text += " '" + n.name + "'";
  return text;
}

po::options_description replay_options() {
  po::options_description options("commsim replay: replay a workload trace on the simulated network");
  options.add_options()("help,h", "show this help");
  add_option(options, "trace", "FILE", "a commsim trace (proto/workload.proto): binary, or text format if it ends in .textproto");
  add_option(options, "chakra", "PREFIX", "a Chakra execution trace: PREFIX.0.et, PREFIX.1.et, ...");
  add_option(options, "comm-groups", "FILE",
             "Chakra communicator groups, JSON {\"name\": [ranks...]} (default: PREFIX.comm_groups.json if it "
             "exists, else every collective spans all ranks)");
  add_option(options, "algorithm", "C=A[,..]",
             "algorithm per collective, e.g. allreduce=ring,alltoall=direct (default: under a "
             "library, NCCL's choice on the GPUs each collective's group spans, nvls where their "
             "switch reduces; under ideal, the topology's own for allreduce/allgather/reducescatter, "
             "tree for broadcast/reduce, direct for alltoall)");
  add_option(options, "overhead", "T", "per-message software overhead o (default 0)");
  add_option(options, "timeline", "FILE", "write a Chrome trace JSON: a track per rank");
  options.add_options()("link-tracks", "with --timeline, also a track per busy link");
  add_option(options, "csv", "FILE", "also write per-rank rows: rank,finish_time_us,compute_us,exposed_comm_us");
  add_link_stats_option(options, "of the whole replay");
  add_option(options, "collectives-csv", "FILE",
             "also write a row per collective, in the order they started: " + collective_rows_header());
  add_option(options, "collectives-json", "FILE", "the same rows as JSON Lines");
  add_quiet_option(options);
  options.add(topology_options("Topology (default: the 8-GPU H100 node, or as many such nodes as the trace needs)"));
  options.add(library_options());
  return options;
}

constexpr const char* kExamples =
    "Examples:\n"
    "  commsim replay --trace workloads/ddp-8ranks.textproto\n"
    "  commsim replay --chakra tests/data/chakra-samples/allreduce-ring8-1MiB/all_reduce --topology ring --npus 8\n";

// The trace to replay, and for a Chakra trace the line of the report that says where its
// communicator groups came from.
struct ReplayInput {
  Workload workload;
  std::optional<std::string> groups_line;
};

// Where a Chakra trace's groups came from; warns on `err` when some of its collectives name
// a group that no file resolves, so that they span every rank.
std::string chakra_groups_report(const std::string& prefix, const ChakraTrace& trace, std::ostream& err) {
  if (trace.groups_file) {
    return *trace.groups_file + (trace.groups_found_beside ? " (found beside the trace)" : "") + ", " +
           std::to_string(trace.workload.groups.size()) + " groups";
  }
  const std::size_t named = trace.ungrouped_collectives;
  if (named == 0) return "none";
  const std::string collectives = std::to_string(named) + (named == 1 ? " collective names" : " collectives name");
  err << "commsim: warning: " << prefix << ": " << collectives
      << " a process group (pg_name), but no group file was given (--comm-groups) or found at "
      << chakra_groups_path(prefix) << ": every collective is taken to span all ranks\n";
  return "none, though " + collectives + " a process group: every collective spans all ranks";
}

ReplayInput workload_option(const po::variables_map& vm, std::ostream& err) {
  const auto trace = option_text(vm, "trace");
  const auto chakra = option_text(vm, "chakra");
  if (trace.has_value() == chakra.has_value()) throw InputError("give one of --trace FILE or --chakra PREFIX");
  if (trace && vm.count("comm-groups")) throw InputError("--comm-groups goes with --chakra");
  if (vm.count("link-tracks") && !vm.count("timeline")) throw InputError("--link-tracks goes with --timeline");
  if (trace) return {load_trace_file(*trace), std::nullopt};
  ChakraTrace loaded = load_chakra_trace_and_groups(*chakra, option_text(vm, "comm-groups"));
  std::string line = chakra_groups_report(*chakra, loaded, err);
  return {std::move(loaded.workload), std::move(line)};
}

ReplayOptions replay_option(const po::variables_map& vm, const Topology& topo) {
  ReplayOptions replay;
  replay.overhead_ps = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  const LibraryChoice library = library_from_options(vm, topo);
  replay.library = library.profile;
  replay.protocol = library.protocol;
  if (const auto text = option_text(vm, "algorithm")) replay.algorithms = algorithm_choices(*text);
  replay.record_timeline = vm.count("timeline") > 0;
  replay.record_link_busy = vm.count("link-tracks") > 0;
  return replay;
}

void print_report(std::ostream& out, const ReplayInput& input, const Topology& topo, const ReplayResult& result) {
  const Workload& workload = input.workload;
  std::size_t nodes = 0;
  for (const RankTrace& r : workload.ranks) nodes += r.nodes.size();
  out << "# commsim replay: " << workload.name << ", " << workload.rank_count() << " ranks on " << topo.name()
      << " (" << topo.description() << ")\n"
      << "# nodes: " << nodes << " (compute " << count_nodes(workload, NodeKind::kCompute) << ", collective "
      << count_nodes(workload, NodeKind::kCollective) << ", send " << count_nodes(workload, NodeKind::kSend)
      << ", receive " << count_nodes(workload, NodeKind::kRecv) << ", skipped "
      << count_nodes(workload, NodeKind::kSkipped) << ")\n";
  if (input.groups_line) out << "# communicator groups: " << *input.groups_line << "\n";
  out << "# total time " << fixed(us_from_ps(result.total_ps), 3) << " us\n#\n";
  Table table({{"rank", "", 7}, {"finish", "us", 14}, {"compute", "us", 14}, {"exposed comm", "us", 14}});
  for (Rank r = 0; r < result.ranks.size(); ++r) {
    const RankReplay& rr = result.ranks[r];
    table.add_row({std::to_string(r), fixed(us_from_ps(rr.finish_ps), 3), fixed(us_from_ps(rr.compute_ps), 3),
                   fixed(us_from_ps(rr.exposed_comm_ps), 3)});
  }
  table.print(out);
  out << "# exposed comm: time a rank computed nothing while its communication was under way\n#\n";
  print_collective_table(out, workload, result);
  out << "#\n"
      << "# critical path (" << result.critical_path.size() << " nodes):\n";
  const std::size_t n = result.critical_path.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (n > 40 && i == 20) {
      out << "#   ... " << n - 40 << " more\n";
      i = n - 20;
    }
    const ReplayedNode& c = result.critical_path[i];
    out << "#   " << describe(workload, c.rank, c.index) << ": " << fixed(us_from_ps(c.start_ps), 3) << " -> "
        << fixed(us_from_ps(c.end_ps), 3) << " us\n";
  }
}

void write_csv(std::ostream& csv, const ReplayResult& result) {
  write_csv_row(csv, {"rank", "finish_time_us", "compute_us", "exposed_comm_us"});
  for (Rank r = 0; r < result.ranks.size(); ++r) {
    const RankReplay& rr = result.ranks[r];
    write_csv_row(csv, {std::to_string(r), fixed(us_from_ps(rr.finish_ps), 6), fixed(us_from_ps(rr.compute_ps), 6),
                        fixed(us_from_ps(rr.exposed_comm_ps), 6)});
  }
}

// --collectives-csv and --collectives-json: a row per collective.
void write_collective_rows(OutputFile* csv, OutputFile* json, const Workload& workload, const ReplayResult& result) {
  if (csv) csv->stream() << collective_rows_header() << "\n";
  for (std::size_t i = 0; i < result.collectives.size(); ++i) {
    const std::vector<std::string> cells = collective_cells(workload, i, result.collectives[i]);
    if (csv) write_csv_row(csv->stream(), cells);
    if (json) json->stream() << collective_json_line(cells) << "\n";
  }
  if (csv) csv->commit();
  if (json) json->commit();
}

// The nodes a replay runs (progress): all but the skipped ones.
std::size_t simulated_node_count(const Workload& workload) {
  std::size_t nodes = 0;
  for (const RankTrace& rank : workload.ranks) nodes += rank.nodes.size();
  return nodes - count_nodes(workload, NodeKind::kSkipped);
}

}  // namespace

int run_replay(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const auto parsed =
      parse_command(args, replay_options(), "replay (--trace FILE | --chakra PREFIX) [options]", kExamples, out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const ReplayInput input = workload_option(vm, err);
  const Workload& workload = input.workload;
  const Topology topo = topology_from_options(vm, default_cluster_config(workload.rank_count()));
  ReplayOptions replay = replay_option(vm, topo);
  // Opened before the replay, so that a bad path fails at once.
  std::optional<OutputFile> timeline = output_option(vm, "timeline");
  std::optional<OutputFile> csv = output_option(vm, "csv");
  LinkStatsOutput link_stats(vm);
  replay.record_link_stats = true;  // for the hottest links of the report
  std::optional<OutputFile> collectives_csv = output_option(vm, "collectives-csv");
  std::optional<OutputFile> collectives_json = output_option(vm, "collectives-json");
  Progress progress = run_progress(vm, simulated_node_count(workload), "nodes");
  progress.set_total_work(replay_work(workload));
  replay.on_node_done = [&](double work) { progress.advance_work(work); };
  const ReplayResult result = replay_workload(workload, topo, replay);
  progress.finish();

  print_report(out, input, topo, result);
  link_stats.report(out, topo, *result.link_stats, "the replay");
  if (timeline) {
    write_replay_timeline(timeline->stream(), workload, topo, result, vm.count("link-tracks"));
    timeline->commit();
  }
  if (csv) {
    write_csv(csv->stream(), result);
    csv->commit();
  }
  write_collective_rows(collectives_csv ? &*collectives_csv : nullptr, collectives_json ? &*collectives_json : nullptr,
                        workload, result);
  return 0;
}

}  // namespace commsim::cli
