// commsim generate: synthetic workload traces (src/workload/generators.h) in commsim's
// format or as Chakra execution traces.

#include <cmath>
#include <map>
#include <set>

#include "base/error.h"
#include "base/name_table.h"
#include "collective/algorithms.h"
#include "commands.h"
#include "command_line.h"
#include "topology/builders.h"
#include "workload/chakra_writer.h"
#include "workload/generators.h"
#include "workload/trace_file.h"

namespace commsim::cli {
namespace {

enum class Kind { kCollective, kPipeline, kDdp, kDdpPipeline };

constexpr NameTable<Kind, 4> kKindNames{{
    {Kind::kCollective, "collective"},
    {Kind::kPipeline, "pipeline"},
    {Kind::kDdp, "ddp"},
    {Kind::kDdpPipeline, "ddp-pipeline"},
}};

std::string kind_name(Kind kind) { return std::string(name_in(kKindNames, kind)); }

enum class Format { kCommsim, kChakra };

constexpr NameTable<Format, 2> kFormatNames{{
    {Format::kCommsim, "commsim"},
    {Format::kChakra, "chakra"},
}};

// Which kinds each option applies to; the rest are an error, not ignored.
const std::map<std::string, std::set<Kind>>& applicability() {
  using K = Kind;
  static const std::map<std::string, std::set<Kind>> table{
      {"collective", {K::kCollective}},
      {"size", {K::kCollective}},
      {"ranks", {K::kCollective, K::kDdp}},
      {"algorithm", {K::kCollective, K::kDdp, K::kDdpPipeline}},
      {"schedule", {K::kPipeline, K::kDdpPipeline}},
      {"stages", {K::kPipeline, K::kDdpPipeline}},
      {"microbatches", {K::kPipeline, K::kDdpPipeline}},
      {"virtual-stages", {K::kPipeline, K::kDdpPipeline}},
      {"activation-size", {K::kPipeline, K::kDdpPipeline}},
      {"forward-time", {K::kPipeline, K::kDdp, K::kDdpPipeline}},
      {"backward-time", {K::kPipeline, K::kDdp, K::kDdpPipeline}},
      {"layers", {K::kDdp}},
      {"layer-size", {K::kDdp}},
      {"bucket-mb", {K::kDdp}},
      {"first-bucket-mb", {K::kDdp}},
      {"optimizer-time", {K::kDdp, K::kDdpPipeline}},
      {"replicas", {K::kDdpPipeline}},
      {"gradient-size", {K::kDdpPipeline}},
  };
  return table;
}

void reject_inapplicable(const po::variables_map& vm, Kind kind) {
  for (const auto& [name, kinds] : applicability()) {
    if (!vm.count(name) || kinds.count(kind)) continue;
    std::string list;
    for (const Kind k : kinds) list += (list.empty() ? "" : ", ") + std::string(kind_name(k));
    throw InputError("--" + name + " does not apply to 'generate " + kind_name(kind) +
                     "' (it applies to " + list + ")");
  }
}

std::string text_or(const po::variables_map& vm, const char* name, const char* fallback) {
  return option_text(vm, name).value_or(fallback);
}

std::uint32_t count_option(const po::variables_map& vm, const char* name, std::uint64_t fallback,
                           std::uint64_t min, std::uint64_t max) {
  const auto text = option_text(vm, name);
  return static_cast<std::uint32_t>(text ? parse_count(*text, std::string("--") + name, min, max)
                                         : fallback);
}

Bytes positive_size(const po::variables_map& vm, const char* name, const char* fallback) {
  const std::string text = text_or(vm, name, fallback);
  const Bytes bytes = parse_size(text, std::string("--") + name);
  if (bytes == 0) throw InputError(std::string("--") + name + ": must be at least 1 byte, got '" + text + "'");
  return bytes;
}

/// --bucket-mb as PyTorch's bucket_cap_mb: MB * 2^20 bytes (int(bucket_cap_mb * 1024 * 1024)).
Bytes mebibytes(const std::string& text, const char* option) {
  const double mb = parse_real(text, option);
  const double bytes = std::floor(mb * 1048576.0);
  if (!(bytes >= 1) || bytes > 9e18) {
    throw InputError(std::string(option) + ": expected a positive number of MiB, got '" + text + "'");
  }
  return static_cast<Bytes>(bytes);
}

CollectiveKind collective_option(const po::variables_map& vm) {
  return parse_collective(text_or(vm, "collective", "allreduce"), "--collective");
}

/// --algorithm, checked against the collective: it must implement it on some topology (which
/// topology the trace replays on is not known yet).
std::optional<AlgorithmKind> algorithm_option(const po::variables_map& vm, CollectiveKind kind) {
  const auto text = option_text(vm, "algorithm");
  if (!text) return std::nullopt;
  const std::optional<AlgorithmKind> algorithm = parse_algorithm(*text, "--algorithm");
  // One small topology of each shape an algorithm may need.
  TopologyConfig hierarchical;
  hierarchical.kind = TopologyKind::kHierarchical;
  TopologyConfig torus;
  torus.kind = TopologyKind::kTorus;
  torus.dims = {2, 2};
  std::optional<std::string> reason;
  for (const TopologyConfig& c : {TopologyConfig{}, hierarchical, torus}) {
    reason = inapplicable_reason(kind, *algorithm, build_topology(c));
    if (!reason) return algorithm;
  }
  throw InputError("--algorithm " + *text + ": " + *reason);
}

PipelineSchedule schedule_option(const po::variables_map& vm) {
  return parse_schedule(text_or(vm, "schedule", "1f1b"), "--schedule");
}

PipelineShape pipeline_option(const po::variables_map& vm) {
  PipelineShape s;
  s.schedule = schedule_option(vm);
  s.stages = count_option(vm, "stages", 4, 1, 1u << 16);
  s.microbatches = count_option(vm, "microbatches", 8, 1, 1u << 24);
  if (vm.count("virtual-stages") && s.schedule != PipelineSchedule::kInterleaved) {
    throw InputError("--virtual-stages applies to the interleaved schedule only, not --schedule " +
                     std::string(schedule_name(s.schedule)));
  }
  s.virtual_stages = s.schedule == PipelineSchedule::kInterleaved ? count_option(vm, "virtual-stages", 2, 1, 1024) : 1;
  if (s.schedule == PipelineSchedule::kInterleaved && s.microbatches % s.stages != 0) {
    throw InputError("--microbatches " + std::to_string(s.microbatches) +
                     ": the interleaved schedule needs a multiple of --stages " + std::to_string(s.stages));
  }
  s.forward_ps = parse_per_stage_times(text_or(vm, "forward-time", "1ms"), "--forward-time", s.stages);
  s.backward_ps = parse_per_stage_times(text_or(vm, "backward-time", "2ms"), "--backward-time", s.stages);
  // 1 x 4096 x 4096 x 2: commsim pipeline's default micro-batch (one bf16 sequence of 4096).
  s.activation_bytes = parse_size(text_or(vm, "activation-size", "32M"), "--activation-size");
  return s;
}

DdpShape ddp_option(const po::variables_map& vm) {
  DdpShape s;
  s.ranks = count_option(vm, "ranks", 8, 2, 1u << 20);
  s.layers = count_option(vm, "layers", 8, 1, 1u << 20);
  for (const char* name : {"forward-time", "backward-time"}) {
    if (const auto text = option_text(vm, name); text && text->find(',') != std::string::npos) {
      throw InputError(std::string("--") + name + " " + *text + ": ddp takes one time, that of every layer");
    }
  }
  s.forward_ps = parse_time(text_or(vm, "forward-time", "1ms"), "--forward-time");
  s.backward_ps = parse_time(text_or(vm, "backward-time", "2ms"), "--backward-time");
  s.layer_bytes = positive_size(vm, "layer-size", "16M");
  s.bucket_bytes = mebibytes(text_or(vm, "bucket-mb", "25"), "--bucket-mb");
  if (const auto first = option_text(vm, "first-bucket-mb")) s.first_bucket_bytes = mebibytes(*first, "--first-bucket-mb");
  s.optimizer_ps = parse_time(text_or(vm, "optimizer-time", "0"), "--optimizer-time");
  s.algorithm = algorithm_option(vm, CollectiveKind::kAllReduce);
  return s;
}

/// What a Chakra trace cannot hold (chakra_writer.h), named by the option that asks for it.
void check_chakra_can_hold(const po::variables_map& vm) {
  for (const char* name : {"forward-time", "backward-time", "optimizer-time"}) {
    const auto text = option_text(vm, name);
    if (!text) continue;
    for (std::size_t start = 0;;) {
      const std::size_t end = text->find(',', start);
      const std::string item = text->substr(start, end - start);
      if (parse_time(item, std::string("--") + name) % kPsPerUs != 0) {
        throw InputError(std::string("--") + name + " " + item +
                         ": a Chakra trace holds whole microseconds (duration_micros); use --format commsim");
      }
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (vm.count("algorithm")) {
    throw InputError("--algorithm " + *option_text(vm, "algorithm") +
                     ": a Chakra trace has no attribute for the algorithm; leave it out and choose it at replay "
                     "(commsim replay --chakra PREFIX --algorithm allreduce=...)");
  }
}

/// "4 gradient buckets (AllReduce order): 1 x 1 layer, 3 x 3 layers; cap 26214400 B".
std::string bucket_summary(const DdpShape& shape) {
  const auto buckets = ddp_buckets(shape);
  std::string text = std::to_string(buckets.size()) + " gradient bucket" + (buckets.size() > 1 ? "s" : "") +
                     " (AllReduce order):";
  for (std::size_t b = 0; b < buckets.size();) {
    std::size_t run = b;
    while (run < buckets.size() && buckets[run].size() == buckets[b].size()) ++run;
    text += (b ? ", " : " ") + std::to_string(run - b) + " x " + std::to_string(buckets[b].size()) + " layer" +
            (buckets[b].size() > 1 ? "s" : "");
    b = run;
  }
  return text + "; cap " + std::to_string(shape.bucket_bytes) + " B";
}

po::options_description generate_options() {
  po::options_description options("output");
  options.add_options()("help,h", "show this help");
  add_option(options, "output", "PATH", "the trace file (--format commsim) or file prefix (--format chakra); required");
  add_option(options, "format", "F",
             "commsim (default): proto/workload.proto, binary, or text format if PATH ends in .textproto or "
             ".pbtxt; chakra: Chakra ET, PATH.0.et, PATH.1.et, ... (+ PATH.comm_groups.json with groups)");
  po::options_description collective("collective");
  add_option(collective, "collective", "C", collective_names() + " (default allreduce)");
  add_option(collective, "ranks", "N", "ranks (collective, ddp; default 8)");
  add_option(collective, "size", "S", "nccl-tests size, as commsim collective --size (default 64M)");
  add_option(collective, "algorithm", "A",
             "algorithm of the collectives (collective, ddp, ddp-pipeline; default: replay's choice); not with --format chakra");
  po::options_description pipeline("pipeline (and ddp-pipeline): the shape options of commsim pipeline");
  add_option(pipeline, "schedule", "S", "gpipe, 1f1b or interleaved (default 1f1b)");
  add_option(pipeline, "stages", "P", "pipeline stages, one rank each (default 4)");
  add_option(pipeline, "microbatches", "M", "micro-batches per step (default 8)");
  add_option(pipeline, "virtual-stages", "V", "model chunks per device, interleaved only (default 2)");
  add_option(pipeline, "forward-time", "T",
             "pipeline: forward of one micro-batch on a stage, or a comma list per stage (default 1ms); "
             "ddp: forward of one layer (default 1ms)");
  add_option(pipeline, "backward-time", "T", "backward time, likewise (default 2ms)");
  add_option(pipeline, "activation-size", "S", "bytes between stages per micro-batch (default 32M = 1 x 4096 x 4096 x 2)");
  po::options_description ddp("ddp: one PyTorch DDP step, all ranks in one group");
  add_option(ddp, "layers", "L", "layers (default 8)");
  add_option(ddp, "layer-size", "S", "gradient bytes of each layer (default 16M)");
  add_option(ddp, "bucket-mb", "MB", "gradient bucket cap in MiB, as PyTorch's bucket_cap_mb (default 25)");
  add_option(ddp, "first-bucket-mb", "MB", "cap of the first bucket (PyTorch: 1 after its first iteration; default --bucket-mb)");
  add_option(ddp, "optimizer-time", "T", "an optimizer step after the AllReduces (ddp, ddp-pipeline; default 0: none)");
  po::options_description both("ddp-pipeline: D replicas of the pipeline, rank = replica x P + stage");
  add_option(both, "replicas", "D", "data-parallel replicas (default 2)");
  add_option(both, "gradient-size", "S", "gradient bytes of each stage, AllReduced across the replicas (required)");
  options.add(collective).add(pipeline).add(ddp).add(both);
  return options;
}

void print_help(std::ostream& out, const po::options_description& options) {
  out << "Usage: commsim generate KIND --output PATH [--format commsim|chakra] [options]\n\n"
      << "KIND:\n"
      << "  collective    one collective among --ranks ranks\n"
      << "  pipeline      one pipeline-parallel step, the device programs of commsim pipeline as a DAG\n"
      << "                (overlapped P2P: a stage waits for its receives, sends complete in the background)\n"
      << "  ddp           one data-parallel step: forward per layer, backward in reverse, gradients in buckets\n"
      << "                AllReduced as soon as a bucket is full, one after another (PyTorch DDP)\n"
      << "  ddp-pipeline  --replicas copies of the pipeline; after its last backward each stage AllReduces its\n"
      << "                gradients with the same stage of the other replicas (group per stage)\n\n"
      << options << "\n"
      << "Examples:\n"
      << "  commsim generate collective --collective allreduce --ranks 8 --size 64M --output allreduce.textproto\n"
      << "  commsim generate pipeline --schedule interleaved --stages 4 --microbatches 8 --output pipe.pb\n"
      << "  commsim generate ddp --ranks 8 --layers 24 --layer-size 20M --bucket-mb 25 --output ddp.pb\n"
      << "  commsim generate ddp-pipeline --replicas 2 --stages 4 --gradient-size 1G --format chakra --output dp2pp4\n"
      << "Then: commsim replay --trace ddp.pb, or commsim replay --chakra dp2pp4 (it reads dp2pp4.comm_groups.json)\n";
}

Workload generate(Kind kind, const po::variables_map& vm, std::string& note) {
  switch (kind) {
    case Kind::kCollective: {
      CollectiveWorkloadShape s;
      s.kind = collective_option(vm);
      s.ranks = count_option(vm, "ranks", 8, 2, 1u << 20);
      s.size = parse_size(text_or(vm, "size", "64M"), "--size");
      s.algorithm = algorithm_option(vm, s.kind);
      try {
        return generate_collective(s);
      } catch (const InputError& e) {
        throw InputError("--size " + text_or(vm, "size", "64M") + ": " + e.what());
      }
    }
    case Kind::kPipeline:
      return generate_pipeline(pipeline_option(vm));
    case Kind::kDdp: {
      const DdpShape s = ddp_option(vm);
      note = bucket_summary(s);
      return generate_ddp(s);
    }
    case Kind::kDdpPipeline: {
      DdpPipelineShape s;
      s.replicas = count_option(vm, "replicas", 2, 2, 1u << 16);
      s.pipeline = pipeline_option(vm);
      if (!vm.count("gradient-size")) {
        throw InputError("generate ddp-pipeline: --gradient-size S is required (gradient bytes of each stage)");
      }
      s.gradient_bytes = positive_size(vm, "gradient-size", "0");
      s.optimizer_ps = parse_time(text_or(vm, "optimizer-time", "0"), "--optimizer-time");
      s.algorithm = algorithm_option(vm, CollectiveKind::kAllReduce);
      return generate_ddp_pipeline(s);
    }
  }
  throw InternalError("unhandled kind");
}

struct Written {
  std::string files;           // what was written, for the report
  std::string replay_options;  // how commsim replay reads it
};

Written write_workload(const Workload& workload, const std::string& output, Format format) {
  if (format == Format::kCommsim) {
    try {
      write_trace_file(workload, output);
    } catch (const InputError& e) {
      throw InputError(std::string("--output: ") + e.what());
    }
    return {output + (trace_encoding_for(output) == TraceEncoding::kText ? " (text format)" : " (binary)"),
            "--trace " + output};
  }
  ChakraWriteResult written;
  try {
    written = write_chakra_trace(workload, output);
  } catch (const InputError& e) {
    throw InputError(std::string("--format chakra: ") + e.what());
  }
  Written w{written.rank_files.front() + " .. " + written.rank_files.back(), "--chakra " + output};
  if (written.groups_file) {
    w.files += " and " + *written.groups_file;
    w.replay_options += " --comm-groups " + *written.groups_file;
  }
  w.files += " (Chakra ET)";
  return w;
}

}  // namespace

int run_generate(const std::vector<std::string>& args, std::ostream& out) {
  const po::options_description options = generate_options();
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    print_help(out, options);
    return 0;
  }
  if (args.empty() || args[0].rfind("-", 0) == 0) {
    throw InputError("generate: give the kind first: commsim generate collective|pipeline|ddp|ddp-pipeline "
                     "--output PATH [options]" + (args.empty() ? std::string() : ", got '" + args[0] + "'") +
                     " (see commsim generate --help)");
  }
  const Kind kind = parse_in(kKindNames, args[0], "generate", "kind");
  const po::variables_map vm = parse_options(std::vector<std::string>(args.begin() + 1, args.end()), options);
  if (vm.count("help")) {
    print_help(out, options);
    return 0;
  }
  reject_inapplicable(vm, kind);
  const auto output = option_text(vm, "output");
  if (!output) throw InputError("generate: --output PATH is required");
  if (output->empty()) throw InputError("--output: an output file's name is empty");
  const Format format = parse_in(kFormatNames, text_or(vm, "format", "commsim"), "--format", "format");
  if (format == Format::kChakra) check_chakra_can_hold(vm);

  std::string note;
  const Workload workload = generate(kind, vm, note);
  // Written first, so that nothing is reported for a trace that could not be written.
  const Written written = write_workload(workload, *output, format);
  std::size_t nodes = 0;
  for (const RankTrace& r : workload.ranks) nodes += r.nodes.size();
  out << "# commsim generate " << kind_name(kind) << ": " << workload.name << ", " << workload.rank_count()
      << " ranks, " << nodes << " nodes (compute " << count_nodes(workload, NodeKind::kCompute) << ", collective "
      << count_nodes(workload, NodeKind::kCollective) << ", send " << count_nodes(workload, NodeKind::kSend)
      << ", receive " << count_nodes(workload, NodeKind::kRecv) << ")\n";
  if (!note.empty()) out << "# " << note << "\n";
  out << "# wrote " << written.files << "\n# replay: commsim replay " << written.replay_options << "\n";
  return 0;
}

}  // namespace commsim::cli
