// commsim topo: a summary of a topology, and its Graphviz DOT with --dot.

#include <map>
#include <optional>

#include "base/output_file.h"
#include "commands.h"
#include "command_line.h"
#include "topology/graphviz.h"
#include "topology_options.h"

namespace commsim::cli {
namespace {

std::string describe_link(const Topology& t, LinkId id) {
  const Link& l = t.link(id);
  return format_bandwidth(l.params.bandwidth_Bps) + ", " + format_time(l.params.latency_ps) +
         ", " + std::string(link_kind_name(l.params.kind)) + ": " + t.vertex(l.first).name +
         " -- " + t.vertex(l.second).name;
}

void print_summary(const Topology& t, std::ostream& out) {
  std::map<std::string_view, std::size_t> kinds;
  std::size_t half_duplex = 0;
  LinkId fastest = 0;
  LinkId slowest = 0;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const LinkParams& p = t.link(id).params;
    ++kinds[link_kind_name(p.kind)];
    if (p.duplex == Duplex::kHalf) ++half_duplex;
    const LinkParams& f = t.link(fastest).params;
    const LinkParams& s = t.link(slowest).params;
    if (p.bandwidth_Bps > f.bandwidth_Bps ||
        (p.bandwidth_Bps == f.bandwidth_Bps && p.latency_ps < f.latency_ps)) {
      fastest = id;
    }
    if (p.bandwidth_Bps < s.bandwidth_Bps ||
        (p.bandwidth_Bps == s.bandwidth_Bps && p.latency_ps > s.latency_ps)) {
      slowest = id;
    }
  }
  std::string kind_list;
  for (const auto& [kind, count] : kinds) {
    kind_list += (kind_list.empty() ? "" : ", ") + std::string(kind) + " " + std::to_string(count);
  }
  out << "topology      " << t.name() << " (" << t.description() << ")\n"
      << "NPUs          " << t.npu_count() << "\n"
      << "switches      " << t.switch_count() << "\n"
      << "links         " << t.link_count();
  if (t.link_count() > 0) {
    out << " (" << kind_list << "), "
        << (half_duplex == 0 ? "full duplex"
                             : std::to_string(half_duplex) + " half duplex");
  }
  out << "\n"
      << "diameter      " << t.diameter_hops() << " hops\n";
  if (t.link_count() > 0) {
    out << "fastest link  " << describe_link(t, fastest) << "\n"
        << "slowest link  " << describe_link(t, slowest) << "\n";
  }
}

}  // namespace

int run_topo(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options("commsim topo: summarise a topology and export it to Graphviz");
  options.add_options()("help,h", "show this help");
  add_option(options, "dot", "FILE", "write the topology as Graphviz DOT to FILE (- for stdout)");
  options.add(topology_options());
  const po::variables_map vm = parse_options(args, options);
  if (vm.count("help")) {
    out << "Usage: commsim topo [options]\n\n" << options << "\n"
        << "Example: commsim topo --topology torus --dims 4x4x4 --dot torus.dot\n";
    return 0;
  }
  const auto dot = option_text(vm, "dot");
  std::optional<OutputFile> file;
  if (dot && *dot != "-") file.emplace(*dot);
  const Topology topology = topology_from_options(vm);
  if (dot && !file) {
    write_dot(out, topology);
    return 0;
  }
  print_summary(topology, out);
  if (file) {
    write_dot(file->stream(), topology);
    file->commit();
    out << "graphviz      " << *dot << "\n";
  }
  return 0;
}

}  // namespace commsim::cli
