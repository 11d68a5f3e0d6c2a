// commsim p2p: point-to-point messages on a topology, simulated beside the closed form.

#include <algorithm>
#include <optional>

#include "base/error.h"
#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "model/p2p_model.h"
#include "study/p2p_study.h"
#include "network/concurrent_messages.h"
#include "report/table.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

constexpr const char* kDefaultSweep = "1:1G";

struct Pattern {
  enum class Kind { kOneWay, kBidirectional, kAllPairs, kShift };
  Kind kind = Kind::kOneWay;
  std::uint32_t shift = 0;
  std::string text;
};

Pattern parse_pattern(const std::string& text) {
  Pattern p;
  p.text = text;
  if (text == "one-way") {
    p.kind = Pattern::Kind::kOneWay;
  } else if (text == "bidirectional") {
    p.kind = Pattern::Kind::kBidirectional;
  } else if (text == "all-pairs") {
    p.kind = Pattern::Kind::kAllPairs;
  } else if (text.rfind("shift:", 0) == 0) {
    p.kind = Pattern::Kind::kShift;
    p.shift = static_cast<std::uint32_t>(
        parse_count(text.substr(6), "--pattern shift:K", 1, UINT32_MAX));
  } else {
    throw InputError("--pattern: unknown pattern '" + text +
                     "' (known: one-way, bidirectional, all-pairs, shift:K)");
  }
  return p;
}

Rank rank_option(const po::variables_map& vm, const char* name, Rank fallback,
                 const Topology& topology) {
  const auto text = option_text(vm, name);
  const Rank rank = text ? static_cast<Rank>(parse_count(*text, std::string("--") + name, 0,
                                                         UINT32_MAX))
                         : fallback;
  if (rank >= topology.npu_count()) {
    throw InputError(std::string("--") + name + " " + std::to_string(rank) +
                     " is out of range: topology '" + topology.name() + "' has " +
                     std::to_string(topology.npu_count()) + " NPUs (ranks 0-" +
                     std::to_string(topology.npu_count() - 1) + ")");
  }
  return rank;
}


struct Result {
  Message message;
  TimePs sim_ps;
  double model_s;
};

std::string ratio_text(double sim_s, double model_s, int decimals) {
  return model_s > 0 ? fixed(sim_s / model_s, decimals) : "-";
}

double algbw_GBps(Bytes bytes, TimePs t) {
  return t > 0 ? static_cast<double>(bytes) / seconds_from_ps(t) / kBytesPerGB : 0.0;
}

void print_matrix(std::ostream& out, const std::string& title, const std::vector<Result>& results,
                  std::size_t npus, const std::function<std::string(const Result&)>& cell) {
  out << "# " << title << "; row = source, column = destination\n";
  std::vector<std::string> grid(npus * npus, "-");
  for (const Result& r : results) grid[r.message.src * npus + r.message.dst] = cell(r);
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

}  // namespace

int run_p2p(const std::vector<std::string>& args, std::ostream& out) {
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
  add_option(options, "csv", "FILE",
             "also write one row per message: pattern,src,dst,size_bytes,sim_time_us,"
             "model_time_us,sim_over_model,algbw_GBps");
  options.add(topology_options());
  options.add(library_options());
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim p2p [options]\n\n" << options << "\n"
        << "Examples:\n"
        << "  commsim p2p --sizes 1K:1G\n"
        << "  commsim p2p --topology ring --npus 1024 --pattern shift:1\n"
        << "  commsim p2p --topology torus --dims 4x4x4 --pattern all-pairs --size 64M\n";
    return 0;
  }

  const Topology topology = topology_from_options(vm);
  const Pattern pattern = parse_pattern(option_text(vm, "pattern").value_or("one-way"));
  const bool pairwise = pattern.kind == Pattern::Kind::kOneWay ||
                        pattern.kind == Pattern::Kind::kBidirectional;
  if (!pairwise && (vm.count("src") || vm.count("dst"))) {
    throw InputError("--src and --dst do not apply to --pattern " + pattern.text);
  }
  const Rank src = rank_option(vm, "src", 0, topology);
  const Rank dst = pairwise ? rank_option(vm, "dst", 1, topology) : 0;
  if (pairwise && src == dst) {
    throw InputError("--src and --dst are both " + std::to_string(src) + "; give two ranks");
  }
  const std::size_t n = topology.npu_count();
  if (pattern.kind == Pattern::Kind::kShift && pattern.shift % n == 0) {
    throw InputError("--pattern " + pattern.text + ": every rank would send to itself on " +
                     std::to_string(n) + " NPUs");
  }
  if (pattern.kind == Pattern::Kind::kAllPairs && n < 2) {
    throw InputError("--pattern all-pairs needs at least 2 NPUs");
  }
  const auto sizes = sizes_from_options(vm, kDefaultSweep);
  const TimePs overhead = parse_time(option_text(vm, "overhead").value_or("0"), "--overhead");
  std::optional<OutputFile> csv;  // opened before the simulation, so a bad path fails at once
  if (const auto path = option_text(vm, "csv")) csv.emplace(*path);

  std::vector<Message> messages;  // of one size; bytes filled in per size
  switch (pattern.kind) {
    case Pattern::Kind::kOneWay: messages = {{src, dst, 0}}; break;
    case Pattern::Kind::kBidirectional: messages = {{src, dst, 0}, {dst, src, 0}}; break;
    case Pattern::Kind::kShift:
      for (Rank r = 0; r < n; ++r) messages.push_back({r, static_cast<Rank>((r + pattern.shift) % n), 0});
      break;
    case Pattern::Kind::kAllPairs:
      for (Rank a = 0; a < n; ++a) {
        for (Rank b = 0; b < n; ++b) {
          if (a != b) messages.push_back({a, b, 0});
        }
      }
      break;
  }

  const LibraryChoice library = library_from_options(vm, topology);
  std::vector<std::vector<Result>> by_size;
  std::vector<std::optional<Protocol>> protocol_of_size;
  for (const Bytes size : sizes) {
    for (Message& m : messages) m.bytes = size;
    const std::optional<Protocol> protocol =
        library.protocol ? library.protocol : p2p_protocol(topology, messages, overhead, library.profile);
    const ProtocolCosts costs = library.profile.costs(protocol);
    std::vector<TimePs> arrival;
    if (pattern.kind == Pattern::Kind::kAllPairs) {
      for (const Message& m : messages) {
        arrival.push_back(simulate_concurrent_messages(topology, overhead, {m}, costs, library.profile.p2p)[0]);
      }
    } else {
      arrival = simulate_concurrent_messages(topology, overhead, messages, costs, library.profile.p2p);
    }
    std::vector<Result> results;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const Message& m = messages[i];
      results.push_back({m, arrival[i], p2p_message_model_s(topology, m, overhead, costs, library.profile)});
    }
    by_size.push_back(std::move(results));
    protocol_of_size.push_back(protocol);
  }

  out << "# commsim p2p\n"
      << "# topology: " << topology.name() << " (" << topology.description()
      << "), switches " << topology.switch_count() << ", links " << topology.link_count() << "\n";
  switch (pattern.kind) {
    case Pattern::Kind::kOneWay:
    case Pattern::Kind::kBidirectional: {
      const PathParams path = path_params(topology, src, dst);
      out << "# pattern: " << pattern.text << ", " << src
          << (pattern.kind == Pattern::Kind::kOneWay ? " -> " : " <-> ") << dst << "\n"
          << "# route " << src << " -> " << dst << ": " << path.hops << " hops, latency "
          << format_time(path.latency_ps) << ", bottleneck " << format_bandwidth(path.bottleneck_Bps)
          << "\n";
      break;
    }
    case Pattern::Kind::kShift:
      out << "# pattern: " << pattern.text << ", every rank r sends to (r + " << pattern.shift
          << ") mod " << n << " at once\n";
      break;
    case Pattern::Kind::kAllPairs:
      out << "# pattern: all-pairs, every directed pair alone in turn\n";
      break;
  }
  if (!library.profile.ideal()) {
    out << "# library: " << library.profile.name << ", protocol "
        << (library.protocol ? std::string(protocol_name(*library.protocol))
            : library.profile.p2p && library.profile.p2p->ll_max_bytes_per_channel > 0
                ? "auto (LL while each channel carries at most " +
                      format_size(library.profile.p2p->ll_max_bytes_per_channel) + ", else " +
                      std::string(protocol_name(library.profile.protocols.back().first)) + ")"
                : "auto (the fastest by the closed form)")
        << "; model: L_call + o + step latency + path latency + S / protocol rate\n";
    if (library.profile.p2p) {
      out << "# ch: the P2P channels of the last message to arrive, each at most its channel rate\n";
    }
  }
  out << "# overhead o: " << format_time(overhead) << "\n"
      << "# model: o + path latency + S / bottleneck bandwidth, each message on an idle "
         "network\n"
      << "#\n";

  if (pattern.kind == Pattern::Kind::kAllPairs) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::string size = std::to_string(sizes[i]) + " B";
      if (protocol_of_size[i]) size += " (" + std::string(protocol_name(*protocol_of_size[i])) + ")";
      print_matrix(out, "size " + size + ": time (us)", by_size[i], n,
                   [](const Result& r) { return fixed(us_from_ps(r.sim_ps), 2); });
      print_matrix(out, "size " + size + ": algbw (GB/s)", by_size[i], n, [](const Result& r) {
        return fixed(algbw_GBps(r.message.bytes, r.sim_ps), 2);
      });
      out << "#\n";
    }
  } else {
    if (messages.size() > 1) {
      out << "# time: until the last of the " << messages.size()
          << " messages arrived; algbw = size / time; model: the slowest message alone\n";
    }
    std::vector<Column> columns{{"size", "B", 12}};
    if (!library.profile.ideal()) columns.push_back({"proto", "", 7});
    if (library.profile.p2p) columns.push_back({"ch", "", 4});
    columns.insert(columns.end(), {{"time", "us", 12}, {"algbw", "GB/s", 9}, {"model", "us", 12}, {"sim/model", "", 10}});
    Table table(std::move(columns));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      TimePs sim = 0;
      double model = 0;
      const Message* last = &by_size[i].front().message;
      for (const Result& r : by_size[i]) {
        if (r.sim_ps > sim) last = &r.message;
        sim = std::max(sim, r.sim_ps);
        model = std::max(model, r.model_s);
      }
      std::vector<std::string> row{std::to_string(sizes[i])};
      if (protocol_of_size[i]) row.emplace_back(protocol_name(*protocol_of_size[i]));
      if (library.profile.p2p) {
        const LinkClass route = topology.route_class(topology.route(last->src, last->dst));
        row.push_back(std::to_string(library.profile.p2p->channels(last->bytes, route)));
      }
      row.insert(row.end(), {fixed(us_from_ps(sim), 2), fixed(algbw_GBps(sizes[i], sim), 2), fixed(model * 1e6, 2),
                             ratio_text(seconds_from_ps(sim), model, 4)});
      table.add_row(std::move(row));
    }
    table.print(out);
  }

  if (csv) {
    write_csv_row(csv->stream(), {"pattern", "src", "dst", "size_bytes", "sim_time_us", "model_time_us",
                        "sim_over_model", "algbw_GBps"});
    for (const auto& results : by_size) {
      for (const Result& r : results) {
        write_csv_row(csv->stream(), {pattern.text, std::to_string(r.message.src),
                            std::to_string(r.message.dst), std::to_string(r.message.bytes),
                            fixed(us_from_ps(r.sim_ps), 6), fixed(r.model_s * 1e6, 6),
                            ratio_text(seconds_from_ps(r.sim_ps), r.model_s, 9),
                            fixed(algbw_GBps(r.message.bytes, r.sim_ps), 6)});
      }
    }
    csv->commit();
  }
  return 0;
}

}  // namespace commsim::cli
