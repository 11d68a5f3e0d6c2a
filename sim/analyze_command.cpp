// commsim analyze: a training job's memory per GPU and communication per parallel dimension,
// with the step's closed-form bound (the analysis: src/study/training_analysis.h).

#include <cstdio>
#include <iostream>

#include "analyze_options.h"
#include "base/error.h"
#include "commands.h"
#include "command_line.h"
#include "model/parallel_config.h"
#include "report/table.h"
#include "topology/builders.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

po::options_description analyze_options() {
  po::options_description options("commsim analyze: memory and communication of a training step, per GPU and per "
                                  "parallel dimension");
  options.add_options()("help,h", "show this help");
  options.add_options()("verbose", "each memory term's formula");
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
               {"phase", "", 10}, {"what", "", 26}, {"size", "B", 12}, {"count", "", 7}, {"per op", "us", 10},
               {"per step", "ms", 10}});
  for (const DimensionCost& d : a.dimensions) {
    for (const CostedTraffic& c : d.operations) {
      table.add_row({std::string(dimension_name(d.dimension)), group_text(d.group),
                     std::string(link_class_name(d.slowest)), d.library, std::string(traffic_op_name(c.entry)),
                     std::string(traffic_phase_name(c.entry.phase)), c.entry.what, std::to_string(c.entry.bytes_per_op),
                     std::to_string(c.entry.ops_per_step), fixed(c.time_per_op_s * 1e6, 2),
                     fixed(c.time_per_step_s * 1e3, 3)});
    }
  }
  table.print(out);
}

void print_step(std::ostream& out, const TrainingAnalysis& a, double tflops) {
  out << "#\n# step, closed form with nothing overlapped:\n"
      << "#   compute        " << fixed(a.compute_s * 1e3, 3) << " ms (the busiest GPU's "
      << fixed(a.flops.gpu_flops / 1e12, 1) << " TFLOP at " << fixed(tflops, 0) << " TFLOP/s)\n"
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

}  // namespace

int run_analyze(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, analyze_options(), "analyze [options]", kExamples, out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const Topology topology = analysis_topology(vm);
  TrainingAnalysisOptions options = analysis_from_options(vm, topology.npu_count());
  options.library = library_from_options(vm, topology).profile;
  const TrainingAnalysis analysis = analyze_training(topology, options);
  print_setup(out, options.setup, topology, analysis);
  print_memory(out, analysis, options.gpu_memory_bytes, vm.count("verbose") > 0);
  print_communication(out, analysis);
  print_step(out, analysis, options.tflops);
  return 0;
}

}  // namespace commsim::cli
