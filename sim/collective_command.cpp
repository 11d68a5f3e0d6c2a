// commsim collective: a collective on the simulated network, beside its closed form and
// lower bound, in the layout of nccl-tests.

#include <algorithm>
#include <map>
#include <optional>

#include "base/collectives.h"
#include "base/error.h"
#include "base/output_file.h"
#include "collective/algorithms.h"
#include "topology/placement.h"
#include "collective/simulate.h"
#include "commands.h"
#include "command_line.h"
#include "model/collective_model.h"
#include "report/table.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

constexpr const char* kDefaultSweep = "1K:1G";

// A block of the report: one algorithm, or NCCL's choice per size (empty).
using Block = std::optional<AlgorithmKind>;

std::string block_name(const Block& block) {
  return block ? std::string(algorithm_name(*block)) : "nccl";
}

struct Row {
  std::size_t block;  // index into the blocks
  AlgorithmKind algorithm;
  Bytes size;
  TimePs sim_ps;
  double model_s;
  double bound_s;
  std::string verify_error;
};

// "nccl" (the default under a library profile), "all" (the default otherwise), or one name.
std::vector<Block> algorithm_option(const po::variables_map& vm, CollectiveKind kind, const Topology& topology,
                                    const LibraryProfile& library) {
  const std::string text = option_text(vm, "algorithm").value_or(library.ideal() ? "all" : "nccl");
  if (text == "nccl") return {std::nullopt};
  if (text == "all") {
    const std::vector<AlgorithmKind> all = applicable_algorithms(kind, topology);
    return std::vector<Block>(all.begin(), all.end());
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

std::vector<Bytes> collective_sizes(const po::variables_map& vm, CollectiveKind kind, std::size_t p) {
  if (kind == CollectiveKind::kBarrier) {
    if (vm.count("size") || vm.count("sizes")) {
      throw InputError("--size and --sizes do not apply to barrier (it moves no data)");
    }
    return {0};
  }
  std::vector<Bytes> sizes;
  for (const Bytes requested : sizes_from_options(vm, kDefaultSweep)) {
    const Bytes size = nccl_size(kind, requested, p);
    if (sizes.empty() || sizes.back() != size) sizes.push_back(size);
  }
  return sizes;
}

double gbps(Bytes bytes, TimePs t) {
  return t > 0 ? static_cast<double>(bytes) / seconds_from_ps(t) / kBytesPerGB : 0.0;
}

}  // namespace

int run_collective(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options(
      "commsim collective: a collective on the simulated network, beside its closed form "
      "(alpha-beta-gamma) and lower bound");
  options.add_options()("help,h", "show this help");
  add_option(options, "collective", "KIND",
             "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, barrier "
             "(default allreduce)");
  add_option(options, "algorithm", "NAME",
             "ring, ring-bidir, tree, recursive-doubling, recursive-halving, rabenseifner, "
             "direct, pairwise, bruck, hierarchical, dimensional, dissemination; all: every "
             "one that applies; nccl: what NCCL would pick at each size (default: nccl under a "
             "library profile, else all)");
  add_size_options(options, kDefaultSweep);
  add_option(options, "chunks", "C", "split the data into C pieces that pipeline (default 1)");
  add_option(options, "gamma", "G",
             "reduction cost: time per byte (0.5ps) or throughput (200GB/s); default 0");
  add_option(options, "overhead", "T", "per-message software overhead o, e.g. 5us (default 0)");
  add_option(options, "rank-order", "ORDER",
             "where ranks run: linear, random:SEED, or a file listing an NPU per rank "
             "(default linear)");
  add_option(options, "root", "R", "root rank of broadcast and reduce (default 0)");
  add_option(options, "csv", "FILE",
             "also write rows: collective,algorithm,topology,nranks,size_bytes,sim_time_us,"
             "model_time_us,sim_over_model,lower_bound_us,algbw_GBps,busbw_GBps");
  options.add_options()("verbose", "print the closed form with the values substituted");
  options.add_options()("verify", "check symbolically that every rank ends with the right data");
  options.add(topology_options());
  options.add(library_options(true));
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim collective [options]\n\n" << options << "\n"
        << "Examples:\n"
        << "  commsim collective --collective allreduce --algorithm all --sizes 1K:1G\n"
        << "  commsim collective --topology-file topologies/h100-2node-ib.textproto "
           "--algorithm hierarchical\n"
        << "  commsim collective --topology torus --dims 4x4 --algorithm ring "
           "--rank-order random:1 --size 64M\n";
    return 0;
  }

  const Topology topology = topology_from_options(vm);
  const std::size_t p = topology.npu_count();
  if (p < 2) throw InputError("a collective needs at least 2 NPUs; topology '" + topology.name() + "' has 1");
  const CollectiveKind kind = parse_collective(option_text(vm, "collective").value_or("allreduce"), "--collective");
  const LibraryChoice library = library_from_options(vm, topology);
  const std::vector<Block> blocks = algorithm_option(vm, kind, topology, library.profile);
  const std::vector<Bytes> sizes = collective_sizes(vm, kind, p);

  CollectiveConfig config;
  config.chunks = parse_count(option_text(vm, "chunks").value_or("1"), "--chunks", 1, 1u << 20);
  config.channels = library.channels;
  config.gamma_s_per_byte = gamma_option(vm);
  config.overhead_ps = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  config.root = static_cast<Rank>(parse_count(option_text(vm, "root").value_or("0"), "--root", 0, p - 1));
  if (vm.count("root") && kind != CollectiveKind::kBroadcast && kind != CollectiveKind::kReduce) {
    throw InputError("--root applies to broadcast and reduce only");
  }
  const std::string rank_order = option_text(vm, "rank-order").value_or("linear");
  config.npu_of_rank = parse_rank_order(rank_order, p);
  config.verify = vm.count("verify") > 0;
  std::optional<OutputFile> csv;  // opened before the simulation, so a bad path fails at once
  if (const auto path = option_text(vm, "csv")) csv.emplace(*path);

  // Refused before any work when beyond reason, with the estimate.
  if (config.chunks > 1 && config.chunks > sizes.front()) {
    throw InputError("--chunks " + std::to_string(config.chunks) + " is more than the " +
                     std::to_string(sizes.front()) + " bytes of the smallest size: every chunk needs a byte");
  }
  for (const Block& block : blocks) {
    for (const AlgorithmKind algorithm : block ? std::vector<AlgorithmKind>{*block} : nccl_algorithms(kind)) {
      if (!block && inapplicable_reason(kind, algorithm, topology)) continue;  // not a candidate here
      check_collective_footprint(topology, kind, algorithm, config);
    }
  }

  // Each size may choose again; an explicit in-switch algorithm has its own costs.
  config.library = library.profile.costs(blocks.size() == 1 && blocks.front() ? *blocks.front() : AlgorithmKind::kRing,
                                         library.protocol);
  ModelOptions model;
  model.library = config.library;
  model.overhead_s = seconds_from_ps(config.overhead_ps);
  model.channels = config.channels;
  model.gamma_s_per_byte = config.gamma_s_per_byte;
  model.chunks = config.chunks;
  model.root = config.root;

  out << "# commsim collective: " << collective_name(kind) << ", " << p << " ranks on "
      << topology.name() << " (" << topology.description() << ")\n"
      << "# overhead o: " << format_time(config.overhead_ps) << ", gamma: "
      << config.gamma_s_per_byte * 1e12 << " ps/B, chunks: " << config.chunks
      << ", rank order: " << rank_order << "\n"
      << (library.profile.ideal() ? ""
                                  : "# library: " + library.profile.name + ", protocol " +
                                        (library.protocol ? std::string(protocol_name(*library.protocol))
                                                          : "auto (the fastest by the closed form)") +
                                        ", channels " + std::to_string(config.channels) + "\n")
      << "# busbw = algbw x " << fixed(busbw_factor(kind, p), 4)
      << " (nccl-tests); model: closed form; bound: lower bound (Chan et al. 2007)\n";

  std::vector<Row> rows;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    out << "#\n# algorithm " << block_name(block) << ": model "
        << (block ? collective_cost(topology, kind, *block, sizes.front(), model).formula
                  : "of the algorithm NCCL would pick at each size (least closed-form time)")
        << "\n";
    std::vector<Column> columns{{"size", "B", 12}, {"count", "elements", 12}, {"type", "", 6}};
    if (!block) columns.push_back({"algo", "", 10});
    if (!library.profile.ideal()) columns.push_back({"proto", "", 7});
    columns.insert(columns.end(), {{"time", "us", 11},
                 {"algbw", "GB/s", 8},
                 {"busbw", "GB/s", 8},
                 {"model", "us", 11},
                 {"sim/model", "", 10},
                 {"bound", "us", 11}});
    Table table(std::move(columns));
    std::string details;
    for (const Bytes size : sizes) {
      const NcclChoice choice =
          block ? NcclChoice{*block, library.protocol ? library.protocol
                                                      : fastest_protocol(topology, kind, *block, size, model,
                                                                         library.profile)}
                : nccl_choice(topology, kind, size, model, library.profile, library.protocol);
      const AlgorithmKind algorithm = choice.algorithm;
      const std::optional<Protocol> protocol = choice.protocol;
      config.library = model.library = library.profile.costs(algorithm, protocol);
      const CollectiveResult result = simulate_collective(topology, kind, algorithm, size, config);
      const CollectiveCost cost = collective_cost(topology, kind, algorithm, size, model);
      const double model_s = cost.time_s(config.gamma_s_per_byte);
      const double bound_s = collective_lower_bound_s(topology, kind, size, model);
      rows.push_back({b, algorithm, size, result.time_ps, model_s, bound_s, result.verify_error});
      const double algbw = gbps(size, result.time_ps);
      std::vector<std::string> row{std::to_string(size), std::to_string(nccl_count(kind, size, p)),
                                   kind == CollectiveKind::kBarrier ? "-" : "float"};
      if (!block) row.emplace_back(algorithm_name(algorithm));
      if (protocol) row.emplace_back(protocol_name(*protocol));
      row.insert(row.end(), {fixed(us_from_ps(result.time_ps), 2), fixed(algbw, 2),
                     fixed(algbw * busbw_factor(kind, p), 2), fixed(model_s * 1e6, 2),
                     model_s > 0 ? fixed(seconds_from_ps(result.time_ps) / model_s, 4) : "-",
                     fixed(bound_s * 1e6, 2)});
      table.add_row(std::move(row));
      if (vm.count("verbose")) {
        details += "# model at " + std::to_string(size) + " B:\n";
        if (protocol) {
          details += "# library " + library.profile.name + ", " + std::string(protocol_name(*protocol)) +
                     (reduces_in_switch(algorithm) ? " (in-switch)" : "") + ": " + describe_costs(config.library) + "\n";
        }
        details += describe_cost(cost, model);
      }
    }
    table.print(out);
    out << details;
    if (config.verify) {
      const auto failed = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
        return r.block == b && !r.verify_error.empty();
      });
      out << "# data check: "
          << (failed == rows.end() ? "every rank ends with the data " + std::string(collective_name(kind)) + " defines"
                                   : "FAILED at " + std::to_string(failed->size) + " B: " + failed->verify_error)
          << "\n";
    }
  }

  if (blocks.size() > 1) {
    out << "#\n# fastest algorithm at each size\n";
    Table fastest({{"size", "B", 12}, {"algorithm", "", 20}, {"time", "us", 11}, {"busbw", "GB/s", 8}});
    for (const Bytes size : sizes) {
      const Row* best = nullptr;
      for (const Row& r : rows) {
        if (r.size == size && (!best || r.sim_ps < best->sim_ps)) best = &r;
      }
      fastest.add_row({std::to_string(size), std::string(algorithm_name(best->algorithm)),
                       fixed(us_from_ps(best->sim_ps), 2),
                       fixed(gbps(size, best->sim_ps) * busbw_factor(kind, p), 2)});
    }
    fastest.print(out);
  }

  if (csv) {
    write_csv_row(csv->stream(), {"collective", "algorithm", "topology", "nranks", "size_bytes", "sim_time_us",
                        "model_time_us", "sim_over_model", "lower_bound_us", "algbw_GBps",
                        "busbw_GBps"});
    for (const Row& r : rows) {
      const double algbw = gbps(r.size, r.sim_ps);
      write_csv_row(csv->stream(), {std::string(collective_name(kind)), std::string(algorithm_name(r.algorithm)),
                          topology.name(), std::to_string(p), std::to_string(r.size),
                          fixed(us_from_ps(r.sim_ps), 6), fixed(r.model_s * 1e6, 6),
                          r.model_s > 0 ? fixed(seconds_from_ps(r.sim_ps) / r.model_s, 9) : "-",
                          fixed(r.bound_s * 1e6, 6), fixed(algbw, 6),
                          fixed(algbw * busbw_factor(kind, p), 6)});
    }
    csv->commit();
  }
  const bool all_verified = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.verify_error.empty(); });
  return all_verified ? 0 : 1;
}

}  // namespace commsim::cli
