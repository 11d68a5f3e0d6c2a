// commsim analyze: a training job's memory per GPU and communication per parallel dimension,
// with the step's closed-form bound (the analysis: src/study/training_analysis.h).

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>
#include <utility>

#include "analyze_options.h"
#include "analyze_rows.h"
#include "base/output_file.h"
#include "base/error.h"
#include "commands.h"
#include "command_line.h"
#include "link_stats_output.h"
#include "model/parallel_config.h"
#include "report/table.h"
#include "topology/spec_file.h"
#include "study/training_search.h"
#include "study/training_step_sim.h"
#include "run_progress.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

po::options_description analyze_options() {
  po::options_description options("commsim analyze: memory and communication of a training step, per GPU and per "
                                  "parallel dimension");
  options.add_options()("help,h", "show this help");
  options.add_options()("verbose", "each memory term's formula");
  options.add_options()("closed-form-only", "do not simulate the step");
  add_quiet_option(options);
  options.add_options()("search", "try every (dp, tp, pp, cp) of powers of two that fits (the degrees given stay "
                                  "fixed) and rank them by simulated step time");
  add_option(options, "jobs", "N", "threads for --search (default: every core)");
  add_option(options, "top", "N", "--search simulates until the N fastest are certain (default 10)");
  add_option(options, "csv", "FILE", "also write a row per split (one, or each of --search): setup, memory, time per "
                                     "dimension, bound, simulated step, MFU");
  add_option(options, "json", "FILE", "the same rows as JSON Lines");
  add_link_stats_option(options, "of the simulated step (not with --search or --closed-form-only)");
  add_option(options, "straggler", "RANK:FACTOR[,..]", "slow one rank's compute by a factor, e.g. 5:2");
  add_option(options, "bucket-mb", "MB", "gradient bucket size in MiB, as DDP's bucket_cap_mb (default 25)");
  options.add(analyze_model_options()).add(analyze_parallel_options()).add(analyze_training_options());
  options.add(topology_options("Topology (default: H100 nodes of 8 GPUs, as many as --num-gpus needs)"));
  options.add(library_options());
  return options;
}

constexpr const char* kExamples =
    "Examples:\n"
    "  commsim analyze --model llama3-8b --num-gpus 64 --tp 8 --pp 2 --zero 1\n"
    "  commsim analyze --model llama3-70b --num-gpus 512 --tp 8 --pp 4 --cp 2 --sequence-parallel --recompute selective\n"
    "  commsim analyze --model gpt3-175b --num-gpus 1024 --tp 8 --pp 16 --schedule interleaved --dp-library gloo\n";

// --num-gpus, the topology's NPUs, or both when they agree.
Topology analysis_topology(const po::variables_map& vm) {
  const auto gpus_text = option_text(vm, "num-gpus");
  const bool given = vm.count("topology") || vm.count("topology-file");
  if (!gpus_text && !given) throw InputError("give --num-gpus N, or a topology (--topology, --topology-file)");
  const std::uint64_t gpus = gpus_text ? parse_count(*gpus_text, "--num-gpus", 1, 1u << 24) : 0;
  const Topology topology = topology_from_options(vm, default_cluster_config(gpus));
  if (gpus_text && topology.npu_count() != gpus) {
    throw InputError("--num-gpus " + *gpus_text + ": topology '" + topology.name() + "' has " +
                     std::to_string(topology.npu_count()) + " NPUs");
  }
  return topology;
}

std::string gigabytes(double bytes) { return fixed(bytes / 1e9, 2); }

void print_setup(std::ostream& out, const TrainingSetup& s, const Topology& topology, const TrainingAnalysis& a) {
  const ModelShape& m = s.model;
  const ParallelConfig& p = s.parallel;
  char params[32];
  std::snprintf(params, sizeof params, "%.3g", static_cast<double>(param_counts(m).total()));
  out << "# commsim analyze: " << m.name << ", " << (m.params_override ? std::to_string(*m.params_override) : params)
      << " parameters (" << m.layers << " layers, hidden " << m.hidden << ", " << m.heads << " heads"
      << (m.is_moe() ? ", " + std::to_string(m.experts) + " experts top-" + std::to_string(m.top_k) : "") << ") on "
      << a.gpus << " GPUs of " << topology.name() << " (" << topology.description() << ")\n"
      << "# dp " << p.dp << " x tp " << p.tp << " x pp " << p.pp << " x cp " << p.cp << ", ep " << p.ep << ", order "
      << placement_order_text(p.order) << (p.sequence_parallel ? ", sequence parallel" : "") << "; "
      << pp_schedule_name(p.schedule) << (p.virtual_stages > 1 ? " v " + std::to_string(p.virtual_stages) : "") << ", "
      << a.microbatches << " micro-batches of " << s.batch.micro_batch << " x " << s.batch.seq_length
      << " tokens per DP rank; " << dtype_name(s.dtype) << ", " << optimizer_name(s.optimizer) << ", ZeRO "
      << zero_name(s.zero) << ", recompute " << recompute_name(s.recompute) << "\n";
}

void print_memory(std::ostream& out, const TrainingAnalysis& a, double gpu_memory_bytes, bool verbose) {
  out << "#\n# memory per GPU (the pipeline rank that holds the most)\n";
  std::vector<Column> columns{{"term", "", 12}, {"memory", "GB", 10}};
  if (verbose) columns.push_back({"formula", "", 1});
  Table table(std::move(columns));
  const auto row = [&](const char* name, const MemoryTerm& t) {
    std::vector<std::string> cells{name, gigabytes(t.bytes)};
    if (verbose) cells.push_back("  " + t.formula);
    table.add_row(std::move(cells));
  };
  row("weights", a.memory.weights);
  row("gradients", a.memory.gradients);
  row("optimizer", a.memory.optimizer);
  row("activations", a.memory.activations);
  table.print(out);
  out << "# total " << gigabytes(a.memory.total_bytes) << " GB of " << gigabytes(gpu_memory_bytes) << " GB: "
      << (a.fits ? "fits" : "does NOT fit") << "\n";
}

std::string group_text(const std::vector<Rank>& group) {
  std::string text;
  for (std::size_t i = 0; i < group.size() && i < 4; ++i) text.append(i ? "," : "").append(std::to_string(group[i]));
  return "{" + text + (group.size() > 4 ? ",..}" : "}");
}

void print_communication(std::ostream& out, const TrainingAnalysis& a) {
  out << "#\n# communication per step: each dimension's operations in rank 0's group, closed form on the links "
         "the group spans\n";
  Table table({{"dim", "", 4}, {"group", "", 14}, {"links", "", 6}, {"library", "", 8}, {"operation", "", 14},
               {"algo", "", 10}, {"proto", "", 6}, {"ch", "", 3}, {"phase", "", 10}, {"what", "", 26},
               {"size", "B", 12}, {"count", "", 7}, {"per op", "us", 10}, {"per step", "ms", 10}});
  for (const DimensionCost& d : a.dimensions) {
    for (const CostedTraffic& c : d.operations) {
      table.add_row({std::string(dimension_name(d.dimension)), group_text(d.group),
                     std::string(link_class_name(d.slowest)), d.library, std::string(traffic_op_name(c.entry)),
                     c.algorithm ? std::string(algorithm_name(*c.algorithm)) : "-",
                     c.protocol ? std::string(protocol_name(*c.protocol)) : "-",
                     c.channels ? std::to_string(*c.channels) : "-", std::string(traffic_phase_name(c.entry.phase)),
                     c.entry.what, std::to_string(c.entry.bytes_per_op),
                     std::to_string(c.entry.ops_per_step), fixed(c.time_per_op_s * 1e6, 2),
                     fixed(c.time_per_step_s * 1e3, 3)});
    }
  }
  table.print(out);
}

void print_step(std::ostream& out, const TrainingAnalysis& a, const TrainingAnalysisOptions& o) {
  out << "#\n# step, closed form with nothing overlapped:\n"
      << "#   compute        " << fixed(a.compute_s * 1e3, 3) << " ms ("
      << (o.layer_forward_s ? "the busiest GPU's layers at the given times"
                            : "the busiest GPU's " + fixed(a.flops.gpu_flops / 1e12, 1) + " TFLOP at " +
                                  fixed(o.tflops, 0) + " TFLOP/s")
      << ")\n"
      << "#   bubble         " << fixed(a.bubble_s * 1e3, 3) << " ms\n"
      << "#   communication  " << fixed(a.communication_s * 1e3, 3) << " ms (";
  for (std::size_t i = 0; i < a.dimensions.size(); ++i) {
    out << (i ? ", " : "") << dimension_name(a.dimensions[i].dimension) << " "
        << fixed(a.dimensions[i].time_per_step_s * 1e3, 3);
  }
  out << (a.dimensions.empty() ? "none" : "") << ")\n"
      << "#   bound          " << fixed(a.step_bound_s * 1e3, 3) << " ms; MFU at the bound "
      << fixed(a.mfu_at_bound * 100, 1) << "%\n";
}

// "5:2,9:1.5": each rank and its factor.
std::vector<Straggler> stragglers_option(const po::variables_map& vm) {
  std::vector<Straggler> stragglers;
  const auto text = option_text(vm, "straggler");
  if (!text) return stragglers;
  std::size_t start = 0;
  while (start <= text->size()) {
    const std::size_t end = std::min(text->find(',', start), text->size());
    const std::string item = text->substr(start, end - start);
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) throw InputError("--straggler: expected RANK:FACTOR, got '" + item + "'");
    stragglers.push_back({static_cast<Rank>(parse_count(item.substr(0, colon), "--straggler rank", 0, 1u << 24)),
                          parse_real(item.substr(colon + 1), "--straggler factor")});
    start = end + 1;
  }
  return stragglers;
}

StepSimulationOptions simulation_option(const po::variables_map& vm) {
  StepSimulationOptions o;
  o.stragglers = stragglers_option(vm);
  o.bucket_bytes = parse_count(option_text(vm, "bucket-mb").value_or("25"), "--bucket-mb", 1, 1u << 20) << 20;
  return o;
}

void print_simulated(std::ostream& out, const SimulatedStep& s, const TrainingAnalysis& a) {
  out << "#\n# step, simulated: laid out as a workload of " << s.nodes
      << " nodes and replayed, groups sharing links, gradient buckets overlapping the backward:\n"
      << "#   step           " << fixed(seconds_from_ps(s.step_ps) * 1e3, 3) << " ms ("
      << fixed(seconds_from_ps(s.step_ps) / a.step_bound_s * 100, 1) << "% of the bound; rank " << s.last_rank
      << " finished last)\n"
      << "#   its compute    " << fixed(seconds_from_ps(s.compute_ps) * 1e3, 3) << " ms\n"
      << "#   exposed comm.  " << fixed(seconds_from_ps(s.exposed_ps) * 1e3, 3) << " ms (";
  for (std::size_t i = 0; i < s.exposed_by_dimension.size(); ++i) {
    out << (i ? ", " : "") << dimension_name(s.exposed_by_dimension[i].first) << " "
        << fixed(seconds_from_ps(s.exposed_by_dimension[i].second) * 1e3, 3);
  }
  out << (s.exposed_by_dimension.empty() ? "none" : "") << ")\n"
      << "#   MFU            " << fixed(s.mfu * 100, 1) << "%\n";
}

TrainingSearch run_search(std::ostream& out, const po::variables_map& vm, const Topology& topology,
                          const TrainingAnalysisOptions& base, const StepSimulationOptions& simulation) {
  SearchConstraints held;
  for (auto [name, slot] : {std::pair{"dp", &held.dp}, {"tp", &held.tp}, {"pp", &held.pp}, {"cp", &held.cp}}) {
    if (const auto text = option_text(vm, name)) *slot = static_cast<std::uint32_t>(parse_count(*text, std::string("--") + name, 1, 1u << 24));
  }
  const unsigned jobs = jobs_option(vm);
  const std::size_t top = parse_count(option_text(vm, "top").value_or("10"), "--top", 1, 1u << 20);
  std::optional<Progress> progress;  // once the number of splits that fit is known
  const auto on_split = [&](std::size_t, std::size_t at_most) {
    if (!progress) progress.emplace(run_progress(vm, at_most, "splits simulated (at most)"));
    progress->advance();
  };
  const TrainingSearch search = search_training(topology, base, held, simulation, jobs, top, on_split);
  if (progress) progress->finish();
  const TrainingSetup& s = base.setup;
  out << "# commsim analyze --search: " << s.model.name << " on " << topology.npu_count() << " GPUs of " << topology.name()
      << ", global batch " << s.batch.global_batch << " x " << s.batch.seq_length << " tokens; "
      << search.considered << " splits, " << search.rejected << " not allowed (model, batch or topology), "
      << search.too_large << " over " << gigabytes(base.gpu_memory_bytes) << " GB; fastest first, those that "
      << "cannot enter the top " << top << " with their lower bound (compute + bubble) only\n";
  Table table({{"rank", "", 5}, {"dp", "", 5}, {"tp", "", 4}, {"pp", "", 4}, {"cp", "", 4}, {"m", "", 5},
               {"memory", "GB", 8}, {"bound", "ms", 10}, {"step", "ms", 10}, {"exposed", "ms", 10}, {"MFU", "%", 6}});
  for (std::size_t i = 0; i < search.rows.size(); ++i) {
    const SearchRow& r = search.rows[i];
    table.add_row({std::to_string(i + 1), std::to_string(r.parallel.dp), std::to_string(r.parallel.tp),
                   std::to_string(r.parallel.pp), std::to_string(r.parallel.cp), std::to_string(r.analysis.microbatches),
                   gigabytes(r.analysis.memory.total_bytes), fixed(r.analysis.step_bound_s * 1e3, 2),
                   r.simulated ? fixed(seconds_from_ps(r.simulated->step_ps) * 1e3, 2)
                               : std::string(">").append(fixed((r.analysis.compute_s + r.analysis.bubble_s) * 1e3, 2)),
                   r.simulated ? fixed(seconds_from_ps(r.simulated->exposed_ps) * 1e3, 2) : "-",
                   r.simulated ? fixed(r.simulated->mfu * 100, 1) : "-"});
  }
  table.print(out);
  return search;
}

// --csv and --json, opened before the work.
struct RowFiles {
  std::optional<OutputFile> csv;
  std::optional<OutputFile> json;

  explicit RowFiles(const po::variables_map& vm) : csv(output_option(vm, "csv")), json(output_option(vm, "json")) {
    if (csv) csv->stream() << analysis_csv_header() << "\n";
  }
  void write(const TrainingSetup& setup, const TrainingAnalysis& a, const std::optional<SimulatedStep>& simulated) {
    const std::vector<std::string> cells = analysis_cells(setup, a, simulated);
    if (csv) write_csv_row(csv->stream(), cells);
    if (json) json->stream() << analysis_json_line(cells) << "\n";
  }
  void commit() {
    if (csv) csv->commit();
    if (json) json->commit();
  }
};

}  // namespace

int run_analyze(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, analyze_options(), "analyze [options]", kExamples, out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const Topology topology = analysis_topology(vm);
  TrainingAnalysisOptions options = analysis_from_options(vm, topology.npu_count());
  options.library = library_from_options(vm, topology).profile;
  const StepSimulationOptions simulation = simulation_option(vm);
  if (vm.count("link-stats") && (vm.count("search") || vm.count("closed-form-only"))) {
    throw InputError("--link-stats writes the links of one simulated step: not with --search or --closed-form-only");
  }
  RowFiles rows(vm);
  LinkStatsOutput link_stats(vm);
  if (vm.count("search")) {
    const TrainingSearch search = run_search(out, vm, topology, options, simulation);
    for (const SearchRow& r : search.rows) {
      TrainingSetup setup = options.setup;
      setup.parallel = r.parallel;
      rows.write(setup, r.analysis, r.simulated);
    }
    rows.commit();
    return 0;
  }
  const TrainingAnalysis analysis = analyze_training(topology, options);
  print_setup(out, options.setup, topology, analysis);
  print_memory(out, analysis, options.gpu_memory_bytes, vm.count("verbose") > 0);
  print_communication(out, analysis);
  print_step(out, analysis, options);
  std::optional<SimulatedStep> simulated;
  if (!vm.count("closed-form-only")) {
    std::optional<Progress> layout, progress;  // once each total is known
    StepSimulationOptions with_progress = simulation;
    with_progress.record_link_stats = true;  // for the hottest links of the report
    with_progress.on_layout_progress = [&](std::size_t done, std::size_t total) {
      if (!layout) layout.emplace(run_progress(vm, total, "ranks laid out"));
      layout->advance();
      if (done == total) layout->finish();
    };
    with_progress.on_progress = [&](double work, std::size_t total, double total_work) {
      if (!progress) {
        progress.emplace(run_progress(vm, total, "nodes"));
        progress->set_total_work(total_work);
      }
      progress->advance_work(work);
    };
    simulated = simulate_training_step(topology, options, analysis, with_progress);
    if (progress) progress->finish();
    print_simulated(out, *simulated, analysis);
    link_stats.report(out, topology, *simulated->link_stats, "the simulated step");
  }
  rows.write(options.setup, analysis, simulated);
  rows.commit();
  return 0;
}

}  // namespace commsim::cli
