// commsim sweep: collectives over a cross product of topologies, libraries, algorithms and
// sizes, on several threads, streamed to CSV in point order; shardable across machines.

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <utility>

#include "base/error.h"
#include "base/input_file.h"
#include "base/ordered_parallel.h"
#include "base/output_file.h"
#include "base/text_proto.h"
#include "commands.h"
#include "command_line.h"
#include "proto/sweep.pb.h"
#include "report/plot.h"
#include "report/progress.h"
#include "pipeline/pipeline_sim.h"
#include "pipeline/schedules.h"
#include "study/sweep.h"
#include "study/sweep_plot.h"
#include "study/sweep_shard.h"
#include "study/text_table.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

po::options_description pipeline_sweep_options() {
  po::options_description o("Pipeline sweep (one stage per NPU; the sizes are the activations between stages)");
  o.add_options()("pipeline", "sweep pipeline-parallel steps instead of collectives");
  add_option(o, "schedule", "S[,S..]", "gpipe, 1f1b, interleaved (default 1f1b)");
  add_option(o, "p2p-mode", "M[,M..]", "sequential, overlapped, batched (default all three)");
  add_option(o, "microbatches", "M", "micro-batches per step (default 8)");
  add_option(o, "virtual-stages", "V", "model chunks per device of the interleaved schedule (default 2)");
  add_option(o, "forward-time", "T", "forward time of one micro-batch on a stage (default 1ms)");
  add_option(o, "backward-time", "T", "backward time of one micro-batch on a stage (default 2ms)");
  return o;
}

po::options_description sweep_options() {
  po::options_description o("Options");
  o.add_options()("help,h", "show this help");
  add_option(o, "topology", "KIND[,KIND..]", "topology kinds: ring, switch, fully-connected, tree, hierarchical, mesh, torus (default switch)");
  add_option(o, "topology-file", "FILE",
             "a builder spec (topologies/) instead of kinds: a cluster at each --nodes (and "
             "--gpus-per-node) or each --npus (its GPUs in all, whole nodes), a node at each --npus, with its "
             "library unless --library says otherwise");
  add_option(o, "npus", "N[,N..]|MIN:MAX", "NPUs of a ring, switch, fully-connected or tree; MIN:MAX doubles (default 8)");
  add_option(o, "dims", "AxB[,AxB..]", "mesh and torus dimensions, e.g. 4x4,8x8 (needed with mesh or torus)");
  add_option(o, "nodes", "N[,N..]|MIN:MAX", "hierarchical: nodes (default 2)");
  add_option(o, "gpus-per-node", "G", "hierarchical: GPUs per node (default 8)");
  add_option(o, "arity", "K", "tree: children per switch (default 2)");
  add_option(o, "oversubscription", "R[,R..]", "tree: ratio of every switch level; hierarchical: of the leaf "
                                               "uplinks; one topology per ratio (default 1 = non-blocking)");
  add_link_options(o);
  add_option(o, "library", "NAME[,NAME..]", "library profiles: " + library_names() + " (default ideal)");
  add_option(o, "collective", "KIND[,KIND..]", collective_names() + " (default allreduce)");
  add_option(o, "algorithm", "NAME[,NAME..]", "algorithms; all: every one that applies; nccl: NCCL's choice per size (default all)");
  add_option(o, "rank-order", "ORDER[,ORDER..]", "where ranks run: linear, random:SEED, or a file listing an NPU per "
                                                 "rank (default linear)");
  add_size_options(o, "1K:1G");
  add_option(o, "overhead", "T", "launch overhead o per operation (per call when a pipeline batches) (default 0)");
  o.add(pipeline_sweep_options());
  add_option(o, "sweep-file", "FILE", "the options above in a file (protobuf text format, proto/sweep.proto); "
                                     "options on the command line override it");
  add_option(o, "jobs", "N", "threads (default: every core)");
  add_option(o, "shard", "I/N", "run every N-th point from the I-th (default: from SLURM_ARRAY_TASK_ID/COUNT, "
                                "OMPI_COMM_WORLD_RANK/SIZE or PMI_RANK/SIZE, else all)");
  add_option(o, "csv", "FILE", "write one row per point as it finishes, in point order; an existing FILE's points "
                               "are kept and skipped (resume)");
  add_option(o, "json", "FILE", "also write each row as a JSON object on a line of its own (JSON Lines), appended");
  o.add_options()("merge", po::value<std::vector<std::string>>()->multitoken(),
                  "join sweep CSV files (shards) into --csv, in point order, and run nothing");
  add_option(o, "plot", "FILE.svg",
             "draw the points this run computes (needs gnuplot; FILE.png draws a PNG); the gnuplot script goes "
             "beside it, FILE.gp");
  add_option(o, "plot-x", "size|npus", "the plot's x axis (default size; npus: at the largest size)");
  add_option(o, "plot-y", "time|busbw", "the plot's y axis (default time)");
  o.add_options()("quiet", "no progress on stderr");
  return o;
}

// "ring,torus": the items of a comma list (study/text_table.h), none of them empty.
std::vector<std::string> list(const std::string& text, const char* option) {
  std::vector<std::string> items;
  for (const std::string_view item : comma_fields(text)) {
    if (item.empty()) throw InputError(std::string("--") + option + ": empty item in '" + text + "'");
    items.emplace_back(item);
  }
  return items;
}

// "8,16" or "8:1024" (8, 16, ..., 1024).
std::vector<std::uint32_t> counts(const std::string& text, const char* option) {
  const std::string what = std::string("--") + option;
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) {
    std::vector<std::uint32_t> values;
    for (const std::string& item : list(text, option)) values.push_back(static_cast<std::uint32_t>(parse_count(item, what, 1, 1u << 24)));
    return values;
  }
  const auto lo = parse_count(text.substr(0, colon), what, 1, 1u << 24);
  const auto hi = parse_count(text.substr(colon + 1), what, 1, 1u << 24);
  if (lo > hi) throw InputError(what + " " + text + ": an empty range (MIN above MAX)");
  std::vector<std::uint32_t> values;
  for (std::uint64_t v = lo; v <= hi; v *= 2) values.push_back(static_cast<std::uint32_t>(v));
  return values;
}

// A size option no kind of the sweep uses is an error, as on every command, not ignored.
void check_axes_apply(const po::variables_map& vm, const std::vector<TopologyConfig>& configs) {
  for (const BuilderParameter& parameter : builder_parameters()) {
    const std::string option(parameter.option);
    if (!vm.count(option)) continue;
    const bool used = std::any_of(configs.begin(), configs.end(), [&](const TopologyConfig& c) { return parameter.applies_to(c.kind); });
    if (!used) throw InputError("--" + option + " applies only to " + parameter.kind_names() + ", and the sweep has none");
  }
}

// Each tree and hierarchical topology once per --oversubscription ratio (every level of a
// tree, a hierarchical topology's leaf uplinks), in place.
std::vector<TopologyConfig> with_oversubscription(const po::variables_map& vm, const std::vector<TopologyConfig>& configs) {
  const auto text = option_text(vm, "oversubscription");
  if (!text) return configs;
  std::vector<TopologyConfig> expanded;
  for (const TopologyConfig& c : configs) {
    if (c.kind != TopologyKind::kTree && c.kind != TopologyKind::kHierarchical) {
      expanded.push_back(c);
      continue;
    }
    for (const std::string& item : list(*text, "oversubscription")) {
      TopologyConfig oversubscribed = c;
      const double ratio = parse_real(item, "--oversubscription");
      if (!(ratio > 0)) throw InputError("--oversubscription: a ratio must be positive, got '" + item + "'");
      oversubscribed.oversubscription = {ratio};
      expanded.push_back(oversubscribed);
    }
  }
  return expanded;
}

// --topology-file: a builder spec built at each --nodes (a cluster; --gpus-per-node too) or
// each --npus (one node's GPUs; a cluster's GPUs in all, as whole nodes), else at its own
// size; its links are the spec's.
std::vector<TopologyConfig> spec_topologies(const po::variables_map& vm, const std::string& path) {
  const TopologyConfig spec = load_builder_config(path);
  const bool node_or_cluster = spec.kind == TopologyKind::kSwitch || spec.kind == TopologyKind::kHierarchical;
  const auto refused = [&](std::string_view option) {
    throw InputError("--" + std::string(option) + " does not apply with --topology-file: " + path +
                     " gives the topology");
  };
  if (vm.count("topology")) refused("topology");
  for (const BuilderParameter& parameter : builder_parameters()) {
    // A sweep scales a spec as every command does, and also runs it at each --oversubscription.
    if (vm.count(std::string(parameter.option)) && !option_scales_spec(parameter.option, node_or_cluster) &&
        parameter.option != "oversubscription") {
      refused(parameter.option);
    }
  }
  SpecScale scale;
  if (vm.count("gpus-per-node")) scale.gpus_per_node = count_option(vm, "gpus-per-node", spec.gpus_per_node, 1);
  std::vector<TopologyConfig> configs;
  if (spec.kind == TopologyKind::kHierarchical && vm.count("npus")) {  // GPUs in all, as whole nodes
    if (vm.count("nodes")) throw InputError("--npus and --nodes both sweep " + path + ": give one of them");
    const std::uint32_t per_node = scale.gpus_per_node.value_or(spec.gpus_per_node);
    for (const std::uint32_t n : counts(*option_text(vm, "npus"), "npus")) {
      scale.nodes = cluster_nodes_for_npus(n, per_node, path);
      configs.push_back(load_builder_config(path, scale));
    }
  } else if (spec.kind == TopologyKind::kHierarchical || vm.count("nodes")) {  // a node's --nodes: load's error
    for (const std::uint32_t n : counts(option_text(vm, "nodes").value_or(std::to_string(spec.nodes)), "nodes")) {
      scale.nodes = n;
      configs.push_back(load_builder_config(path, scale));
    }
  } else if (vm.count("npus")) {  // one node's GPUs (a switch spec), as --gpus-per-node scales it elsewhere
    for (const std::uint32_t n : counts(*option_text(vm, "npus"), "npus")) {
      scale.gpus_per_node = n;
      configs.push_back(load_builder_config(path, scale));
    }
  } else {
    configs.push_back(load_builder_config(path, scale));
  }
  return with_oversubscription(vm, configs);
}

std::vector<TopologyConfig> topologies(const po::variables_map& vm) {
  if (const auto path = option_text(vm, "topology-file")) return spec_topologies(vm, *path);
  TopologyConfig base;
  base.arity = count_option(vm, "arity", 2, 2);
  apply_link_options(vm, base);
  base.gpus_per_node = count_option(vm, "gpus-per-node", 8, 1);
  std::vector<TopologyConfig> configs;
  for (const std::string& kind_text : list(option_text(vm, "topology").value_or("switch"), "topology")) {
    TopologyConfig c = base;
    c.kind = parse_topology_kind(kind_text, "--topology");
    if (c.kind == TopologyKind::kMesh || c.kind == TopologyKind::kTorus) {
      const auto dims = option_text(vm, "dims");
      if (!dims) throw InputError("--topology " + kind_text + " needs --dims, e.g. --dims 4x4,8x8");
      for (const std::string& d : list(*dims, "dims")) {
        c.dims = parse_dims(d, "--dims");
        configs.push_back(c);
      }
    } else if (c.kind == TopologyKind::kHierarchical) {
      for (const std::uint32_t n : counts(option_text(vm, "nodes").value_or("2"), "nodes")) {
        c.nodes = n;
        configs.push_back(c);
      }
    } else {
      for (const std::uint32_t n : counts(option_text(vm, "npus").value_or("8"), "npus")) {
        c.npus = n;
        configs.push_back(c);
      }
    }
  }
  check_axes_apply(vm, configs);
  return with_oversubscription(vm, configs);
}

// --pipeline and its axes; the pipeline options without it, or collective ones with it, are
// errors.
std::optional<PipelineAxes> pipeline_option(const po::variables_map& vm) {
  const char* const kOwn[] = {"schedule", "p2p-mode", "microbatches", "virtual-stages", "forward-time", "backward-time"};
  if (!vm.count("pipeline")) {
    for (const char* option : kOwn) {
      if (vm.count(option)) throw InputError(std::string("--") + option + " applies to a pipeline sweep (--pipeline)");
    }
    return std::nullopt;
  }
  for (const char* option : {"collective", "algorithm"}) {
    if (vm.count(option)) throw InputError(std::string("--") + option + " does not apply to a pipeline sweep");
  }
  PipelineAxes axes;
  if (const auto text = option_text(vm, "schedule")) {
    axes.schedules.clear();
    for (const std::string& name : list(*text, "schedule")) axes.schedules.push_back(parse_schedule(name, "--schedule"));
  }
  if (const auto text = option_text(vm, "p2p-mode")) {
    axes.modes.clear();
    for (const std::string& name : list(*text, "p2p-mode")) axes.modes.push_back(parse_p2p_mode(name, "--p2p-mode"));
  }
  axes.microbatches = static_cast<std::uint32_t>(parse_count(option_text(vm, "microbatches").value_or("8"), "--microbatches", 1, 1u << 20));
  axes.virtual_stages = static_cast<std::uint32_t>(parse_count(option_text(vm, "virtual-stages").value_or("2"), "--virtual-stages", 1, 1024));
  axes.forward_ps = parse_time(option_text(vm, "forward-time").value_or("1ms"), "--forward-time");
  axes.backward_ps = parse_time(option_text(vm, "backward-time").value_or("2ms"), "--backward-time");
  return axes;
}

SweepPlan plan_from_options(const po::variables_map& vm) {
  SweepPlan plan;
  plan.topologies = topologies(vm);
  if (vm.count("topology-file") && !vm.count("library")) {
    plan.libraries.push_back(plan.topologies.front().library);  // the spec's own
  } else {
    for (const std::string& name : list(option_text(vm, "library").value_or("ideal"), "library")) {
      plan.libraries.push_back(library_by_name(name, "--library"));
    }
  }
  plan.pipeline = pipeline_option(vm);
  plan.run.overhead_ps = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  for (const std::string& name : list(option_text(vm, "collective").value_or("allreduce"), "collective")) {
    plan.collectives.push_back(parse_collective(name, "--collective"));
  }
  for (const std::string& name : list(option_text(vm, "algorithm").value_or("all"), "algorithm")) {
    // Kept as commsim spells it, whatever the spelling given ("Ring": ring).
    const bool choice = name == "all" || name == "nccl";
    plan.algorithms.push_back(choice ? name : std::string(algorithm_name(parse_algorithm(name, "--algorithm"))));
  }
  plan.rank_orders = list(option_text(vm, "rank-order").value_or("linear"), "rank-order");
  plan.sizes = sizes_from_options(vm, "1K:1G");
  return plan;
}

Shard shard_option(const po::variables_map& vm) {
  if (const auto text = option_text(vm, "shard")) return parse_shard(*text, "--shard");
  return shard_from_environment([](const char* name) { return std::getenv(name); }).value_or(Shard{});
}

// --plot FILE.svg (or .png) and its script FILE.gp, opened before the work; the axes.
struct PlotOutput {
  OutputFile image;
  ImageFormat format;
  OutputFile script;
  SweepAxisX x;
  SweepAxisY y;
};

std::optional<PlotOutput> plot_option(const po::variables_map& vm) {
  const auto path = option_text(vm, "plot");
  if (!path) {
    if (vm.count("plot-x") || vm.count("plot-y")) throw InputError("--plot-x and --plot-y need --plot FILE.svg");
    return std::nullopt;
  }
  const std::string x = option_text(vm, "plot-x").value_or("size"), y = option_text(vm, "plot-y").value_or("time");
  if (x != "size" && x != "npus") throw InputError("--plot-x: expected size or npus, got '" + x + "'");
  if (y != "time" && y != "busbw") throw InputError("--plot-y: expected time or busbw, got '" + y + "'");
  const ImageFormat format = image_format(*path, "--plot");
  require_gnuplot();
  std::optional<OutputFile> image = output_option(vm, "plot");
  return PlotOutput{std::move(*image), format, OutputFile(image_stem(*path) + ".gp"),
                    x == "size" ? SweepAxisX::kSize : SweepAxisX::kNpus,
                    y == "time" ? SweepAxisY::kTime : SweepAxisY::kBusbw};
}

// The sweep file's fields as options (gpus_per_node is --gpus-per-node), except those the
// command line gives (--size and --sizes count as one).
po::variables_map with_sweep_file(po::variables_map vm) {
  const auto path = option_text(vm, "sweep-file");
  if (!path) return vm;
  spec::SweepSpec spec;
  parse_text_proto(read_input_file(*path, "sweep file"), spec, *path);
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  spec.GetReflection()->ListFields(spec, &fields);
  for (const auto* field : fields) {
    std::string option = field->name();
    std::replace(option.begin(), option.end(), '_', '-');
    const bool sizes = option == "size" || option == "sizes";
    if (vm.count(option) || (sizes && (vm.count("size") || vm.count("sizes")))) continue;
    vm.emplace(option, po::variable_value(spec.GetReflection()->GetString(spec, field), false));
  }
  return vm;
}

void draw(PlotOutput& plot, const std::vector<std::string>& lines) {
  const Figure figure = sweep_figure(lines.front(), std::vector<std::string>(lines.begin() + 1, lines.end()), plot.x, plot.y);
  plot.script.stream() << gnuplot_script(figure, plot.format);
  plot.script.commit();
  plot.image.stream() << render_image(figure, plot.format);
  plot.image.commit();
}

int merge(const po::variables_map& vm, std::ostream& out) {
  const auto csv = option_text(vm, "csv");
  if (!csv) throw InputError("--merge needs --csv OUT, the file to write");
  const auto& inputs = vm["merge"].as<std::vector<std::string>>();
  std::optional<PlotOutput> plot = plot_option(vm);
  OutputFile file(*csv);
  const std::vector<std::string> lines = merge_sweep_csv(inputs);
  for (const std::string& line : lines) file.stream() << line << "\n";
  file.commit();
  if (plot) draw(*plot, lines);
  out << "# commsim sweep: merged " << inputs.size() << " files, " << lines.size() - 1 << " points, into " << *csv << "\n";
  return 0;
}

bool has_content(const std::string& path) {
  std::ifstream file(path);
  return file && file.peek() != std::ifstream::traits_type::eof();
}

// Where rows go: --csv (appended to, after the points it holds) and --json, opened before
// the work (and after every check), so a bad path fails at once.
struct RowOutputs {
  std::string header;
  std::optional<std::string> csv_path;
  std::vector<std::size_t> done;  // points the CSV already holds
  std::optional<std::ofstream> csv;
  std::optional<std::ofstream> json;
};

RowOutputs open_outputs(const po::variables_map& vm, const SweepPlan& plan, const std::vector<SweepPoint>& points) {
  RowOutputs o{sweep_layout_header(sweep_plan_layout(plan)), option_text(vm, "csv"), {}, std::nullopt, std::nullopt};
  if (o.csv_path) {
    const bool fresh = !has_content(*o.csv_path);
    if (!fresh) o.done = resumed_points(*o.csv_path, plan, points);
    o.csv.emplace(*o.csv_path, std::ios::app);
    if (!*o.csv) throw InputError("--csv " + *o.csv_path + ": cannot open for writing");
    if (fresh) *o.csv << o.header << "\n" << std::flush;
  }
  if (const auto path = option_text(vm, "json")) {
    o.json.emplace(*path, std::ios::app);
    if (!*o.json) throw InputError("--json " + *path + ": cannot open for writing");
  }
  return o;
}

// Runs `todo` on `jobs` threads, each row written (and kept for a plot) in point order;
// the progress's time left weighs each point by its work (sweep_point_work).
std::vector<std::string> run_points(const SweepPlan& plan, const std::vector<SweepPoint>& todo, unsigned jobs,
                                    RowOutputs& o, Progress& progress) {
  std::vector<TopologyFacts> facts;
  std::vector<double> work(todo.size(), 0.0);
  for (std::size_t t = 0; t < plan.topologies.size(); ++t) {
    const Topology topology = build_topology(plan.topologies[t]);
    facts.push_back(topology_facts(topology));
    for (std::size_t i = 0; i < todo.size() && !progress.quiet(); ++i) {
      if (todo[i].topology == t) work[i] = sweep_point_work(plan, todo[i], topology);
    }
  }
  if (!progress.quiet()) progress.set_item_work(work);
  std::vector<std::string> rows{o.header};
  run_in_order<std::string>(
      todo.size(), jobs, [&](std::size_t i) { return run_sweep_row(plan, todo[i], facts[todo[i].topology]); },
      [&](std::size_t, std::string&& row) {
        if (o.csv) *o.csv << row << "\n" << std::flush;
        if (o.json) *o.json << sweep_json_row(o.header, row) << "\n" << std::flush;
        rows.push_back(std::move(row));
        progress.advance();
      });
  progress.finish();
  if ((o.csv && !*o.csv) || (o.json && !*o.json)) throw InputError("--csv or --json: write failed");
  return rows;
}

}  // namespace

int run_sweep(const std::vector<std::string>& args, std::ostream& out) {
  const auto parsed = parse_command(args, sweep_options(), "sweep [options]",
                                    "\nExamples:\n  commsim sweep --topology ring,torus --npus 8:64 --dims 4x4,8x8 --csv sweep.csv\n"
                                    "  commsim sweep --shard 0/3 --csv part0.csv; commsim sweep --merge part*.csv --csv all.csv\n",
                                    out);
  if (!parsed) return 0;
  const po::variables_map vm = with_sweep_file(*parsed);
  if (vm.count("merge")) return merge(vm, out);
  const SweepPlan plan = plan_from_options(vm);
  const Shard shard = shard_option(vm);
  const unsigned jobs = jobs_option(vm);
  const std::vector<SweepPoint> points = sweep_points(plan);
  std::optional<PlotOutput> plot = plot_option(vm);
  RowOutputs outputs = open_outputs(vm, plan, points);
  const std::set<std::size_t> skip(outputs.done.begin(), outputs.done.end());
  std::vector<SweepPoint> todo;
  for (const SweepPoint& p : points) {
    if (shard.holds(p.index) && !skip.count(p.index)) todo.push_back(p);
  }
  out << "# commsim sweep: " << todo.size() << " of " << points.size() << " points to run (shard "
      << shard_text(shard) << ", " << skip.size() << " already in the output), " << jobs << " threads\n";
  Progress progress(std::cerr, todo.size(), "points", progress_style(vm.count("quiet") > 0, isatty(2) != 0));
  std::vector<std::string> rows = run_points(plan, todo, jobs, outputs, progress);
  if (plot) {
    // With --csv, every row of the file: those of earlier runs of a resumed sweep too.
    if (outputs.csv_path) {
      outputs.csv->close();
      rows = merge_sweep_csv({*outputs.csv_path});
    }
    draw(*plot, rows);
  }
  return 0;
}

}  // namespace commsim::cli
