#include "cli.h"

#include <exception>
#include <functional>
#include <map>

#include "base/error.h"
#include "commands.h"

namespace commsim::cli {
namespace {

using Command = std::function<int(const std::vector<std::string>&, std::ostream&)>;

struct CommandInfo {
  Command run;
  const char* summary;
};

const std::map<std::string, CommandInfo>& commands() {
  static const std::map<std::string, CommandInfo> table{
      {"topo", {run_topo, "summarise a topology; export it as Graphviz DOT"}},
      {"p2p", {run_p2p, "point-to-point messages: one-way, bidirectional, all-pairs, shift"}},
      {"collective", {run_collective, "a collective by one or every algorithm, beside its closed form"}},
      {"generate", {run_generate, "write a synthetic workload trace: collective, pipeline, ddp, ddp-pipeline"}},
      {"replay", {run_replay, "replay a workload trace (commsim's format or Chakra ET)"}},
      {"pipeline", {run_pipeline, "pipeline-parallel schedules (gpipe, 1f1b, interleaved) and P2P modes"}},
  };
  return table;
}

void print_usage(std::ostream& out) {
  out << "commsim: a discrete-event simulator of communication in GPU clusters\n\n"
      << "Usage: commsim <command> [options]\n\nCommands:\n";
  for (const auto& [name, info] : commands()) {
    out << "  " << name << std::string(10 - name.size(), ' ') << info.summary << "\n";
  }
  out << "\nRun 'commsim <command> --help' for a command's options.\n";
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty()) {
      print_usage(err);
      err << "commsim: error: no command given\n";
      return 2;
    }
    const std::string& name = args[0];
    if (name == "--help" || name == "-h" || name == "help") {
      print_usage(out);
      return 0;
    }
    const auto it = commands().find(name);
    if (it == commands().end()) {
      throw InputError("unknown command '" + name + "' (see commsim --help)");
    }
    return it->second.run(std::vector<std::string>(args.begin() + 1, args.end()), out);
  } catch (const InputError& e) {
    err << "commsim: error: " << e.what() << "\n";
    return 2;
  } catch (const InternalError& e) {
    err << "commsim: internal error: " << e.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    err << "commsim: error: out of memory\n";
    return 2;
  }
}

}  // namespace commsim::cli
