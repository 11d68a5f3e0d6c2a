// commsim collective: a collective on the simulated network, beside its closed form and
// lower bound, in the layout of nccl-tests (the study: src/study/collective_study.h).

#include <unistd.h>

#include <iostream>
#include <optional>

#include "base/collectives.h"
#include "base/error.h"
#include "base/output_file.h"
#include "collective/algorithms.h"
#include "command_line.h"
#include "commands.h"
#include "link_stats_output.h"
#include "model/one_node_ramp.h"
#include "report/progress.h"
#include "report/table.h"
#include "run_progress.h"
#include "study/collective_study.h"
#include "study/sweep_rows.h"
#include "study/timelines.h"
#include "topology/placement.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

constexpr const char* kDefaultSweep = "1K:1G";

po::options_description collective_options() {
  po::options_description options(
      "commsim collective: a collective on the simulated network, beside its closed form "
      "(alpha-beta-gamma) and lower bound");
  options.add_options()("help,h", "show this help");
  add_option(options, "collective", "KIND", collective_names() + " (default allreduce)");
  add_option(options, "algorithm", "NAME",
             "an algorithm of the table below; all: every one that applies; nccl: what NCCL would pick at "
             "each size (default: nccl under a library profile, else all)");
  add_size_options(options, kDefaultSweep);
  add_option(options, "chunks", "C",
             "split the data into C pieces that pipeline (default 1; under a library, the count of least "
             "closed-form time at each size, as the library pipelines)");
  add_option(options, "gamma", "G", "reduction cost: time per byte (0.5ps) or throughput (200GB/s); default 0");
  add_option(options, "overhead", "T", "per-message software overhead o, e.g. 5us (default 0)");
  add_gpus_per_thread_option(options);
  add_option(options, "rank-order", "ORDER",
             "where ranks run: linear, random:SEED, or a file listing an NPU per rank (default linear)");
  add_option(options, "root", "R", "root rank of broadcast and reduce (default 0)");
  add_option(options, "csv", "FILE",
             "also write one row per point, as commsim sweep does: " + sweep_csv_header());
  add_option(options, "timeline", "FILE",
             "write a Chrome trace JSON (Perfetto, chrome://tracing) of the largest size: each algorithm's run, "
             "a process per rank with its sends (bytes, peer, step, chunk, channel in each slice's args)");
  add_link_stats_option(options, "of the largest size (with several algorithms, of the fastest there)");
  options.add_options()("verbose", "print the closed form with the values substituted");
  options.add_options()("verify", "check symbolically that every rank ends with the right data");
  add_quiet_option(options);
  options.add(topology_options());
  options.add(library_options(true));
  return options;
}

// After the options: the algorithm x collective table (base/collectives.h) that the
// simulator and the closed form read, and examples.
std::string help_after_options() {
  std::string text = "Algorithms and the collectives each implements (some need a topology of their shape):\n";
  for (const AlgorithmKind algorithm : all_algorithms()) {
    const std::string name(algorithm_name(algorithm));
    text += "  " + name + std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') +
            collective_names(implemented_collectives(algorithm)) + "\n";
  }
  return text +
         "\nExamples:\n"
         "  commsim collective --collective allreduce --algorithm all --sizes 1K:1G\n"
         "  commsim collective --topology-file topologies/h100-2node-ib.textproto --algorithm hierarchical\n"
         "  commsim collective --topology torus --dims 4x4 --algorithm ring --rank-order random:1 --size 64M\n";
}

// "nccl" (the default under a library profile), "all" (the default otherwise), or one name.
std::vector<AlgorithmChoice> algorithm_option(const po::variables_map& vm, CollectiveKind kind,
                                              const Topology& topology, const LibraryProfile& library) {
  const std::string text = option_text(vm, "algorithm").value_or(library.ideal() ? "all" : "nccl");
  if (text == "nccl") return {std::nullopt};
  if (text == "all") {
    const std::vector<AlgorithmKind> all = applicable_algorithms(kind, topology);
    return std::vector<AlgorithmChoice>(all.begin(), all.end());
  }
  const AlgorithmKind algorithm = parse_algorithm(text, "--algorithm");
  if (const auto reason = inapplicable_reason(kind, algorithm, topology)) {
    throw InputError("--algorithm " + text + ": " + *reason);
  }
  return {algorithm};
}

/// --gamma: a time per byte ("0.5ps") or a reduction throughput ("200GB/s").
double gamma_option(const po::variables_map& vm) {
  const auto text = option_text(vm, "gamma");
  if (!text) return 0;
  if (text->find("/s") != std::string::npos || text->find("bps") != std::string::npos) {
    return 1.0 / parse_bandwidth(*text, "--gamma");
  }
  return parse_seconds(*text, "--gamma");
}

std::vector<Bytes> sizes_option(const po::variables_map& vm, CollectiveKind kind, std::size_t p) {
  if (kind != CollectiveKind::kBarrier) return collective_sizes(kind, sizes_from_options(vm, kDefaultSweep), p);
  if (vm.count("size") || vm.count("sizes")) {
    throw InputError("--size and --sizes do not apply to barrier (it moves no data)");
  }
  return collective_sizes(kind, {}, p);
}

CollectiveConfig run_option(const po::variables_map& vm, CollectiveKind kind, std::size_t p, std::size_t channels) {
  CollectiveConfig run;
  run.chunks = parse_count(option_text(vm, "chunks").value_or("1"), "--chunks", 1, 1u << 20);
  run.channels = channels;
  run.gamma_s_per_byte = gamma_option(vm);
  run.overhead_ps = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  run.root = static_cast<Rank>(parse_count(option_text(vm, "root").value_or("0"), "--root", 0, p - 1));
  if (vm.count("root") && kind != CollectiveKind::kBroadcast && kind != CollectiveKind::kReduce) {
    throw InputError("--root applies to broadcast and reduce only");
  }
  run.npu_of_rank = parse_rank_order(option_text(vm, "rank-order").value_or("linear"), p);
  run.verify = vm.count("verify") > 0;
  run.record_link_stats = true;  // for the hottest links of the report (the largest size only)
  return run;
}

void print_header(std::ostream& out, CollectiveKind kind, const Topology& topology, const CollectiveStudyOptions& o,
                  const std::string& rank_order) {
  const std::size_t p = topology.npu_count();
  out << "# commsim collective: " << collective_name(kind) << ", " << p << " ranks on " << topology.name() << " ("
      << topology.description() << ")\n"
      << "# overhead o: " << format_time(o.run.overhead_ps) << ", gamma: " << o.run.gamma_s_per_byte * 1e12
      << " ps/B, chunks: "
      << (o.pipeline_as_library ? "as the library pipelines (least closed-form time)" : std::to_string(o.run.chunks))
      << ", rank order: " << rank_order << "\n";
  if (!o.library.ideal()) {
    out << "# library: " << o.library.name << ", protocol "
        << (o.protocol ? std::string(protocol_name(*o.protocol)) : "auto (the fastest by the library's estimate)")
        << ", rings at once " << o.run.channels << " (ch: the channels a call runs on)\n"
        << gpus_per_thread_line(o.library, o.gpus_per_thread) << one_node_ramp_line(topology, o.library);
    if (o.library.in_switch && kind == CollectiveKind::kAllReduce && nccl_leaves_nvls_out(topology)) {
      out << "# NVLS: not NCCL's choice with 2 GPUs or fewer a node (ncclNvlsInit turns it off); --algorithm nvls "
             "runs it\n";
    }
    if (!o.protocol && o.library.has_protocol(Protocol::kLL128) && nccl_leaves_ll128_out(topology)) {
      out << "# LL128: not NCCL's choice where GPUs talk over PCIe, no NVLink (tuning.cc); --protocol ll128 runs "
             "it\n";
    }
  }
  out << "# busbw = algbw x " << fixed(busbw_factor(kind, p), 4)
      << " (nccl-tests); model: closed form; bound: lower bound (Chan et al. 2007)\n";
}

Table block_table(const CollectiveBlock& block, bool ideal) {
  std::vector<Column> columns{{"size", "B", 12}, {"count", "elements", 12}, {"type", "", 6}};
  if (!block.algorithm) columns.push_back({"algo", "", 10});
  if (!ideal) columns.insert(columns.end(), {{"proto", "", 7}, {"ch", "", 4}});
  columns.insert(columns.end(), {{"time", "us", 11}, {"algbw", "GB/s", 8}, {"busbw", "GB/s", 8},
                                 {"model", "us", 11}, {"sim/model", "", 10}, {"bound", "us", 11}});
  return Table(std::move(columns));
}

std::vector<std::string> point_row(const CollectivePoint& point, CollectiveKind kind, std::size_t p, bool nccl) {
  std::vector<std::string> row{std::to_string(point.size), std::to_string(nccl_count(kind, point.size, p)),
                               kind == CollectiveKind::kBarrier ? "-" : "float"};
  if (nccl) row.emplace_back(algorithm_name(point.algorithm));
  if (point.protocol) row.insert(row.end(), {std::string(protocol_name(*point.protocol)), std::to_string(point.channels)});
  row.insert(row.end(), {fixed(us_from_ps(point.sim_ps), 2), fixed(point.algbw_GBps, 2), fixed(point.busbw_GBps, 2),
                         fixed(point.model_s * 1e6, 2),
                         point.sim_over_model ? fixed(*point.sim_over_model, 4) : "-", fixed(point.bound_s * 1e6, 2)});
  return row;
}

// --verbose: the closed form with the values substituted, and the library's terms.
std::string point_details(const CollectivePoint& point, CollectiveKind kind, std::size_t p,
                          const CollectiveStudyOptions& o) {
  std::string text = "# model at " + std::to_string(point.size) + " B" +
                     (point.chunks > 1 ? ", " + std::to_string(point.chunks) + " chunks" : std::string()) + ":\n";
  if (o.library.discards(kind, point.size, p)) {
    return text + "# no elements: library " + o.library.name + " discards the call, which takes no time\n";
  }
  if (point.protocol) {
    const double factor = o.library.bandwidth_factor(kind);
    text += "# library " + o.library.name + ", " + std::string(protocol_name(*point.protocol)) +
            (reduces_in_switch(point.algorithm) ? " (in-switch)" : "") + ": " + describe_costs(point.costs) +
            (factor != 1 ? " (with " + std::string(collective_name(kind)) + "'s bandwidth factor " + fixed(factor, 4) + ")"
                         : "") +
            "\n";
    if (o.library.estimate) text += "# chosen by the estimate of library " + o.library.estimate->name + "\n";
  }
  text += describe_cost(point.cost, model_options(o.run, point.costs));
  if (point.ramp_floor_ps > 0) {
    text += "# one-node ramp: a call takes at least its time at " + format_size(o.library.one_node_ramp.back().bytes) +
            " scaled to " + std::to_string(point.size) + " B, over " +
            fixed(o.library.one_node_ramp_at(point.size).value_or(1.0), 3) + ": " +
            fixed(us_from_ps(point.ramp_floor_ps), 2) + " us\n";
  }
  return text;
}

void print_block(std::ostream& out, const CollectiveBlock& block, CollectiveKind kind, std::size_t p,
                 const CollectiveStudyOptions& o, bool verbose) {
  const std::string choice =
      o.library.runs_own_algorithms()
          ? "of the algorithm " + o.library.name + " runs (its own for the collective, else as NCCL picks)"
          : "of the algorithm NCCL would pick at each size (least time by its estimate)";
  out << "#\n# algorithm " << (block.algorithm ? std::string(algorithm_name(*block.algorithm)) : "nccl") << ": model "
      << (block.algorithm ? block.formula : choice) << "\n";
  Table table = block_table(block, o.library.ideal());
  std::string details;
  for (const CollectivePoint& point : block.points) {
    table.add_row(point_row(point, kind, p, !block.algorithm));
    if (verbose) details += point_details(point, kind, p, o);
  }
  table.print(out);
  out << details;
  if (o.run.verify) {
    const CollectivePoint* failed = block.first_verify_failure();
    out << "# data check: "
        << (failed ? "FAILED at " + std::to_string(failed->size) + " B: " + failed->verify_error
                   : "every rank ends with the data " + std::string(collective_name(kind)) + " defines")
        << "\n";
  }
}

void print_fastest(std::ostream& out, const std::vector<CollectivePoint>& fastest) {
  out << "#\n# fastest algorithm at each size\n";
  Table table({{"size", "B", 12}, {"algorithm", "", 20}, {"time", "us", 11}, {"busbw", "GB/s", 8}});
  for (const CollectivePoint& best : fastest) {
    table.add_row({std::to_string(best.size), std::string(algorithm_name(best.algorithm)),
                   fixed(us_from_ps(best.sim_ps), 2), fixed(best.busbw_GBps, 2)});
  }
  table.print(out);
}

// The rows of `commsim sweep` (study/sweep_rows.h), numbered in the order they are printed.
void write_csv(std::ostream& csv, const CollectiveStudy& study, CollectiveKind kind, const Topology& topology,
               const SweepRowSetting& setting) {
  const TopologyFacts facts = topology_facts(topology);
  csv << sweep_csv_header() << "\n";
  std::size_t index = 0;
  for (const CollectiveBlock& block : study.blocks) {
    for (const CollectivePoint& r : block.points) csv << sweep_csv_row(index++, facts, setting, kind, r) << "\n";
  }
}

}  // namespace

int run_collective(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, collective_options(), "collective [options]", help_after_options(), out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const Topology topology = topology_from_options(vm);
  const std::size_t p = topology.npu_count();
  if (p < 2) throw InputError("a collective needs at least 2 NPUs; topology '" + topology.name() + "' has 1");
  const CollectiveKind kind = parse_collective(option_text(vm, "collective").value_or("allreduce"), "--collective");
  const LibraryChoice library = library_from_options(vm, topology);
  const std::vector<AlgorithmChoice> algorithms = algorithm_option(vm, kind, topology, library.profile);
  const std::vector<Bytes> sizes = sizes_option(vm, kind, p);
  // Opened before the simulation, so that a bad path fails at once.
  std::optional<OutputFile> csv = output_option(vm, "csv");
  std::optional<OutputFile> timeline = output_option(vm, "timeline");
  LinkStatsOutput link_stats(vm);

  // Progress on stderr once the run has taken 2 s: one point per algorithm and size.
  Progress progress = run_progress(vm, algorithms.size() * sizes.size(), "points");
  CollectiveStudyOptions study_options{run_option(vm, kind, p, library.channels),
                                       library_for_span(library.profile, topology), library.protocol,
                                       [&] { progress.advance(); }, timeline.has_value()};
  study_options.pipeline_as_library = !library.profile.ideal() && !vm.count("chunks");
  study_options.gpus_per_thread = gpus_per_thread_option(vm, library.profile);
  const CollectiveStudy study = study_collective(topology, kind, algorithms, sizes, study_options);
  progress.finish();
  const std::string rank_order = option_text(vm, "rank-order").value_or("linear");
  print_header(out, kind, topology, study_options, rank_order);
  for (const CollectiveBlock& block : study.blocks) {
    print_block(out, block, kind, p, study_options, vm.count("verbose"));
  }
  if (!study.fastest.empty()) print_fastest(out, study.fastest);
  if (const CollectivePoint* point = study.link_stats_point()) {
    link_stats.report(out, topology, *point->link_stats,
                      std::string(algorithm_name(point->algorithm)) + " " + std::string(collective_name(kind)) + " at " +
                          std::to_string(point->size) + " B" + (study.fastest.empty() ? "" : " (the fastest there)"));
  }
  if (csv) {
    write_csv(csv->stream(), study, kind, topology, {study_options.library.name, rank_order, study_options.run.overhead_ps});
    csv->commit();
  }
  if (timeline) {
    write_collective_timeline(timeline->stream(), study, kind, p, study_options.run.npu_of_rank);
    timeline->commit();
  }
  return study.all_verified() ? 0 : 1;
}

}  // namespace commsim::cli
