// commsim pipeline: pipeline-parallel schedules and P2P modes, beside the closed form (the
// study: src/study/pipeline_study.h).

#include <algorithm>
#include <optional>

#include "base/error.h"
#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "link_stats_output.h"
#include "report/table.h"
#include "study/pipeline_study.h"
#include "study/sweep_rows.h"
#include "study/timelines.h"
#include "topology/builders.h"
#include "topology/placement.h"
#include "run_progress.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

po::options_description pipeline_options() {
  po::options_description options(
      "commsim pipeline: a pipeline-parallel training step on the simulated network, beside "
      "the closed form");
  options.add_options()("help,h", "show this help");
  add_option(options, "schedule", "S", "gpipe, 1f1b, interleaved, or all (default 1f1b)");
  add_option(options, "p2p-mode", "M", "sequential, overlapped or batched (default overlapped)");
  options.add_options()("compare", "run every P2P mode (and with --schedule all every schedule), one row each");
  add_option(options, "stages", "P", "pipeline stages, one per device (default 4)");
  add_option(options, "microbatches", "M", "micro-batches per step (default 8)");
  add_option(options, "virtual-stages", "V", "model chunks per device for interleaved (default 2)");
  add_option(options, "forward-time", "T", "forward time of one micro-batch on a stage, or a comma list per stage (default 1ms)");
  add_option(options, "backward-time", "T", "backward time, likewise (default 2ms)");
  add_option(options, "activation-size", "S", "bytes sent between stages per micro-batch (default: the product below)");
  add_option(options, "micro-batch-size", "B", "sequences per micro-batch (default 1)");
  add_option(options, "seq-length", "L", "tokens per sequence (default 4096)");
  add_option(options, "hidden-size", "H", "hidden dimension (default 4096)");
  add_option(options, "dtype-bytes", "D", "bytes per element (default 2, bf16)");
  add_option(options, "overhead", "T", "launch overhead o per P2P operation, or per call when batched (default 0)");
  add_option(options, "placement", "WHERE",
             "linear (stage i on NPU i, the default), spread (stage i on NPU i x floor(N/P) of N NPUs: one stage a "
             "node on a cluster of P nodes), or a FILE of each stage's NPU, one per line or whitespace separated");
  add_option(options, "p2p-order", "ORDER",
             "megatron (default) or send-first: every stage sends before it receives, which "
             "deadlocks sequential mode (to see a deadlock report)");
  add_option(options, "timeline", "FILE",
             "write a Chrome trace JSON (Perfetto, chrome://tracing): a track per stage; with --compare, of every "
             "run that did not deadlock");
  add_option(options, "csv", "FILE", "also write one row per run, as commsim sweep --pipeline writes them");
  add_link_stats_option(options, "of the last run");
  add_quiet_option(options);
  options.add(topology_options("Topology (default: a ring of --stages NPUs)"));
  options.add(library_options());
  return options;
}

constexpr const char* kExamples =
    "Examples:\n"
    "  commsim pipeline --schedule 1f1b --stages 4 --microbatches 8 --compare\n"
    "  commsim pipeline --schedule all --compare --overhead 20us --activation-size 24MB\n"
    "  commsim pipeline --schedule interleaved --virtual-stages 4 --stages 8 --microbatches 16 --timeline step.json\n";

std::uint64_t count(const po::variables_map& vm, const char* name, std::uint64_t fallback, std::uint64_t min,
                    std::uint64_t max) {
  const auto text = option_text(vm, name);
  return text ? parse_count(*text, std::string("--") + name, min, max) : fallback;
}

/// --activation-size, or micro-batch x sequence x hidden x dtype bytes.
Bytes activation_bytes(const po::variables_map& vm) {
  const bool dims = vm.count("micro-batch-size") || vm.count("seq-length") || vm.count("hidden-size") ||
                    vm.count("dtype-bytes");
  if (const auto size = option_text(vm, "activation-size")) {
    if (dims) throw InputError("give either --activation-size or the micro-batch dimensions, not both");
    return parse_size(*size, "--activation-size");
  }
  constexpr std::uint64_t kMax = 1ull << 32;
  constexpr const char* kWhat = "activation size (--micro-batch-size x --seq-length x --hidden-size x --dtype-bytes)";
  Bytes bytes = count(vm, "micro-batch-size", 1, 1, kMax);
  bytes = multiply_sizes(bytes, count(vm, "seq-length", 4096, 1, kMax), kWhat);
  bytes = multiply_sizes(bytes, count(vm, "hidden-size", 4096, 1, kMax), kWhat);
  return multiply_sizes(bytes, count(vm, "dtype-bytes", 2, 1, 16), kWhat);
}

/// --schedule, --virtual-stages, --p2p-mode and --compare: which runs, one row each.
void runs_option(const po::variables_map& vm, PipelineStudyOptions& o) {
  const std::string schedule = option_text(vm, "schedule").value_or("1f1b");
  o.schedules = schedule == "all"
                    ? std::vector<PipelineSchedule>{PipelineSchedule::kGPipe, PipelineSchedule::k1F1B,
                                                    PipelineSchedule::kInterleaved}
                    : std::vector<PipelineSchedule>{parse_schedule(schedule, "--schedule")};
  if (vm.count("virtual-stages") && schedule != "all" && o.schedules[0] != PipelineSchedule::kInterleaved) {
    throw InputError("--virtual-stages applies to the interleaved schedule only");
  }
  o.virtual_stages = static_cast<std::uint32_t>(count(vm, "virtual-stages", 2, 1, 1024));
  const bool compare = vm.count("compare") > 0;
  if (compare && vm.count("p2p-mode")) throw InputError("--compare runs every P2P mode; drop --p2p-mode");
  o.modes = {parse_p2p_mode(option_text(vm, "p2p-mode").value_or("overlapped"), "--p2p-mode")};
  if (compare) o.modes = {P2PMode::kSequential, P2PMode::kOverlapped, P2PMode::kBatched};
  if (!compare && o.schedules.size() > 1) throw InputError("--schedule all needs --compare");
  o.deadlock_is_a_row = compare;
}

PipelineShape shape_option(const po::variables_map& vm, std::uint32_t p, std::uint32_t m) {
  PipelineShape shape;
  shape.stages = p;
  shape.microbatches = m;
  shape.forward_ps = parse_per_stage_times(option_text(vm, "forward-time").value_or("1ms"), "--forward-time", p);
  shape.backward_ps = parse_per_stage_times(option_text(vm, "backward-time").value_or("2ms"), "--backward-time", p);
  shape.activation_bytes = activation_bytes(vm);
  return shape;
}

void placement_options(const po::variables_map& vm, const Topology& topo, PipelineStudyOptions& o) {
  const std::uint32_t p = o.shape.stages;
  if (p > topo.npu_count()) {
    throw InputError("--stages " + std::to_string(p) + " is more than the " + std::to_string(topo.npu_count()) +
                     " NPUs of topology '" + topo.name() + "'");
  }
  o.run.overhead_ps = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  if (const auto placement = option_text(vm, "placement")) {
    o.run.npu_of_device = parse_stage_placement(*placement, p, topo.npu_count());
  }
  const std::string order = option_text(vm, "p2p-order").value_or("megatron");
  if (order != "megatron" && order != "send-first") {
    throw InputError("--p2p-order: expected megatron or send-first, got '" + order + "'");
  }
  o.run.send_first = order == "send-first";
  o.run.record_timeline = vm.count("timeline") > 0;
  o.run.record_link_stats = true;  // for the hottest links of the report
}

void print_header(std::ostream& out, const po::variables_map& vm, const Topology& topo, const PipelineStudyOptions& o,
                  const PipelineStudy& study) {
  const PipelineShape& shape = o.shape;
  const auto forward = option_text(vm, "forward-time");
  out << "# commsim pipeline: " << shape.stages << " stages, " << shape.microbatches << " micro-batches on "
      << topo.name() << " (" << topo.description() << ")\n"
      << "# forward " << format_time(shape.forward_ps[0]) << ", backward " << format_time(shape.backward_ps[0])
      << " per micro-batch per stage" << (forward && forward->find(',') != std::string::npos ? " (first stage)" : "")
      << "; activation " << shape.activation_bytes << " B per micro-batch; overhead o "
      << format_time(o.run.overhead_ps)
      << (study.protocol ? "; library " + o.library.name + ", protocol " + std::string(protocol_name(*study.protocol))
                         : "")
      << "\n"
      << "# model: (m + p - 1)(tf + tb) for gpipe and 1f1b, (m + (p-1)/v)(tf + tb) for interleaved; "
         "+P2P adds 2(pv - 1) boundary transfers\n#\n";
}

void print_run(std::ostream& out, const PipelineRun& r) {
  out << "# schedule " << schedule_name(r.schedule)
      << (r.virtual_stages > 1 ? " (v = " + std::to_string(r.virtual_stages) + ")" : "") << ", "
      << p2p_mode_name(r.mode) << " P2P\n"
      << "# step time " << fixed(us_from_ps(r.result.step_ps), 2) << " us; model " << fixed(r.model.step_s * 1e6, 2)
      << " us without communication, " << fixed(r.model.step_with_p2p_s * 1e6, 2) << " us with P2P\n"
      << "# bubble fraction " << fixed(r.bubble, 4) << "; model " << fixed(r.model.bubble, 4) << "\n#\n";
  Table table({{"stage", "", 7}, {"npu", "", 6}, {"busy", "us", 12}, {"idle", "us", 12}, {"p2p wait", "us", 12},
               {"peak act", "micro-b", 10}, {"peak act", "B", 14}});
  for (std::uint32_t d = 0; d < r.result.devices.size(); ++d) {
    const DeviceStats& s = r.result.devices[d];
    table.add_row({std::to_string(d), std::to_string(s.npu), fixed(us_from_ps(s.busy_ps), 2),
                   fixed(us_from_ps(r.result.step_ps - s.busy_ps), 2), fixed(us_from_ps(s.p2p_wait_ps), 2),
                   std::to_string(s.peak_in_flight), std::to_string(r.peak_activation_bytes[d])});
  }
  table.print(out);
}

std::vector<std::string> compare_row(const PipelineRun& r) {
  const std::string schedule(schedule_name(r.schedule)), mode(p2p_mode_name(r.mode));
  const std::string model = fixed(r.model.step_s * 1e6, 2), with_p2p = fixed(r.model.step_with_p2p_s * 1e6, 2);
  if (!r.deadlock.empty()) return {schedule, mode, "deadlock", model, with_p2p, "-", "-", fixed(r.model.bubble, 4), "-", "-"};
  return {schedule, mode, fixed(us_from_ps(r.result.step_ps), 2), model, with_p2p, fixed(r.sim_over_model, 4),
          fixed(r.bubble, 4), fixed(r.model.bubble, 4), fixed(us_from_ps(r.mean_p2p_wait_ps), 2),
          std::to_string(r.peak_in_flight)};
}

/// A multi-line text (a deadlock report) with "# " after each newline, so that every line of
/// it stays a comment.
std::string comment_lines(const std::string& text) {
  std::string commented;
  for (const char c : text) commented += c == '\n' ? std::string("\n# ") : std::string(1, c);
  return commented;
}

void print_comparison(std::ostream& out, const std::vector<PipelineRun>& runs) {
  Table table({{"schedule", "", 12}, {"p2p mode", "", 11}, {"step", "us", 12}, {"model", "us", 12},
               {"model+p2p", "us", 12}, {"sim/model", "", 10}, {"bubble", "", 8}, {"model", "bubble", 8},
               {"p2p wait", "us", 11}, {"peak act", "micro-b", 10}});
  std::string deadlocks;
  for (const PipelineRun& r : runs) {
    table.add_row(compare_row(r));
    if (!r.deadlock.empty()) {
      deadlocks += "# " + std::string(schedule_name(r.schedule)) + " with " + std::string(p2p_mode_name(r.mode)) +
                   " P2P: " + comment_lines(r.deadlock) + "\n";
    }
  }
  table.print(out);
  out << "# p2p wait: mean over stages of the time spent in communication calls\n" << deadlocks;
}

// The rows of `commsim sweep --pipeline` (study/sweep_rows.h), numbered in order; a
// deadlocked run has none.
void write_csv(std::ostream& csv, const PipelineStudy& study, const PipelineStudyOptions& o, const Topology& topology,
               const std::string& placement) {
  const TopologyFacts facts = topology_facts(topology);
  const SweepRowSetting setting{o.library.name, placement, o.run.overhead_ps};
  csv << pipeline_csv_header() << "\n";
  std::size_t index = 0;
  for (const PipelineRun& r : study.runs) {
    PipelineShape shape = o.shape;
    shape.schedule = r.schedule;
    if (r.deadlock.empty()) csv << pipeline_csv_row(index++, facts, setting, shape, study.protocol, r) << "\n";
  }
}

}  // namespace

int run_pipeline(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, pipeline_options(), "pipeline [options]", kExamples, out);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const auto p = static_cast<std::uint32_t>(count(vm, "stages", 4, 1, 1u << 16));
  const auto m = static_cast<std::uint32_t>(count(vm, "microbatches", 8, 1, 1u << 24));
  PipelineStudyOptions study_options;
  runs_option(vm, study_options);
  TopologyConfig ring;  // the default: a ring of the stages
  ring.kind = TopologyKind::kRing;
  ring.npus = p;
  const Topology topo = topology_from_options(vm, ring);
  study_options.shape = shape_option(vm, p, m);
  placement_options(vm, topo, study_options);
  // Opened before the simulation, so that a bad path fails at once.
  std::optional<OutputFile> timeline = output_option(vm, "timeline");
  std::optional<OutputFile> csv = output_option(vm, "csv");
  LinkStatsOutput link_stats(vm);
  const LibraryChoice library = library_from_options(vm, topo);
  study_options.library = library.profile;
  study_options.protocol = library.protocol;

  Progress progress = run_progress(vm, study_options.schedules.size() * study_options.modes.size(), "runs");
  study_options.on_run = [&] { progress.advance(); };
  const PipelineStudy study = study_pipeline(topo, study_options);
  progress.finish();
  print_header(out, vm, topo, study_options, study);
  if (study.runs.size() == 1) {
    print_run(out, study.runs.front());
  } else {
    print_comparison(out, study.runs);
  }
  const PipelineRun& last = study.runs.back();
  if (last.deadlock.empty()) {
    link_stats.report(out, topo, *last.result.link_stats,
                      std::string(schedule_name(last.schedule)) + " with " + std::string(p2p_mode_name(last.mode)) +
                          " P2P" + (study.runs.size() > 1 ? " (the last run)" : ""));
  } else if (link_stats.requested()) {
    throw InputError("--link-stats: the last run deadlocked");
  }
  if (timeline) {
    const bool any_ran = std::any_of(study.runs.begin(), study.runs.end(), [](const PipelineRun& r) { return r.deadlock.empty(); });
    if (!any_ran) throw InputError(study.runs.size() > 1 ? "--timeline: every run deadlocked" : "--timeline: the run deadlocked");
    write_pipeline_timeline(timeline->stream(), study.runs);
    timeline->commit();
  }
  if (csv) {
    write_csv(csv->stream(), study, study_options, topo, option_text(vm, "placement").value_or("linear"));
    csv->commit();
  }
  return 0;
}

}  // namespace commsim::cli
