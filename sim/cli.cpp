#include "cli.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <map>

#include "base/error.h"
#include "base/name_match.h"
#include "base/output_file.h"
#include "commands.h"

namespace commsim::cli {
namespace {

/// A command: its arguments, the report's stream and the warnings' stream.
using Command = std::function<int(const std::vector<std::string>&, std::ostream&, std::ostream&)>;

/// A command that writes only its report.
Command report_only(int (*run)(const std::vector<std::string>&, std::ostream&)) {
  return [run](const std::vector<std::string>& args, std::ostream& out, std::ostream&) { return run(args, out); };
}

struct CommandInfo {
  Command run;
  const char* summary;
};

// COMMSIM_VERSION is project(VERSION) of the top-level CMakeLists.txt, passed by sim/CMakeLists.txt.
int run_version(const std::vector<std::string>& args, std::ostream& out) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << "Usage: commsim version (or commsim --version)\n\nPrints \"commsim <version>\".\n";
    return 0;
  }
  if (!args.empty()) throw InputError("version takes no arguments, got '" + args[0] + "'");
  out << "commsim " << COMMSIM_VERSION << "\n";
  return 0;
}

const std::map<std::string, CommandInfo>& commands() {
  static const std::map<std::string, CommandInfo> table{
      {"topo", {report_only(run_topo), "summarise a topology; export it as Graphviz DOT; import nvidia-smi topo -m"}},
      {"p2p", {report_only(run_p2p), "point-to-point messages: one-way, bidirectional, all-pairs, shift"}},
      {"collective", {report_only(run_collective), "a collective by one or every algorithm, beside its closed form"}},
      {"generate",
       {report_only(run_generate), "write a synthetic workload trace: collective, pipeline, ddp, ddp-pipeline"}},
      {"replay", {run_replay, "replay a workload trace (commsim's format or Chakra ET)"}},
      {"sweep",
       {report_only(run_sweep), "collectives or pipelines over topology kinds x sizes, libraries, algorithms, modes"}},
      {"analyze",
       {report_only(run_analyze), "a training step: memory per GPU, communication per DP/TP/PP/CP/EP dimension"}},
      {"pipeline", {report_only(run_pipeline), "pipeline-parallel schedules (gpipe, 1f1b, interleaved) and P2P modes"}},
      {"validate", {run_validate, "published measurements (nccl-tests) against the prediction, with the error"}},
      {"calibrate", {report_only(run_calibrate), "fit a library profile to measurements; write the calibrated spec"}},
      {"version", {report_only(run_version), "print commsim's version (also commsim --version)"}},
  };
  return table;
}

void print_usage(std::ostream& out) {
  out << "commsim: a discrete-event simulator of communication in GPU clusters\n\n"
      << "Usage: commsim <command> [options]\n\nCommands:\n";
  std::size_t width = 0;  // the longest name, and two spaces after it
  for (const auto& [name, info] : commands()) width = std::max(width, name.size() + 2);
  for (const auto& [name, info] : commands()) {
    out << "  " << name << std::string(width - name.size(), ' ') << info.summary << "\n";
  }
  out << "\nRun 'commsim <command> --help' for a command's options.\n";
}

/// "unknown command 'colective' (did you mean 'collective'?) (see commsim --help)".
std::string unknown_command_message(const std::string& name) {
  std::vector<std::string_view> names;
  for (const auto& [command, info] : commands()) names.push_back(command);
  names.push_back("help");
  return "unknown command '" + name + "'" + did_you_mean(name, names) + " (see commsim --help)";
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty()) {
      print_usage(err);
      err << "commsim: error: no command given\n";
      return 2;
    }
    std::vector<std::string> command_args(args.begin() + 1, args.end());
    std::string name = args[0];
    if (name == "--help" || name == "-h") name = "help";
    if (name == "--version") name = "version";
    if (name == "help" && command_args.size() == 1) {  // "help collective" = "collective --help"
      name = command_args[0];
      command_args = {"--help"};
    } else if (name == "help" && command_args.size() > 1) {
      throw InputError("help takes one command name, got " + std::to_string(command_args.size()));
    }
    int status = 0;
    if (name == "help") {
      print_usage(out);
    } else {
      const auto it = commands().find(name);
      if (it == commands().end()) throw InputError(unknown_command_message(name));
      status = it->second.run(command_args, out, err);
    }
    // A report lost to a full disk or a closed terminal is a failure, not a success.
    flush_and_check(out, "standard output");
    return status;
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
