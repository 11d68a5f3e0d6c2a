#include "command_line.h"

#include <algorithm>
#include <thread>

#include "base/error.h"
#include "base/name_match.h"
#include "base/units.h"

namespace commsim::cli {
namespace {

/// "npus", "topology", ...: the options' names without their dashes, in the order declared.
std::vector<std::string_view> long_names(const po::options_description& options) {
  std::vector<std::string_view> names;
  for (const auto& option : options.options()) {
    if (!option->long_name().empty()) names.push_back(option->long_name());
  }
  return names;
}

}  // namespace

po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options) {
  // Stray arguments are collected under a hidden name so the error can quote them.
  constexpr const char* kStray = "unexpected-argument";
  po::options_description all;
  all.add(options).add_options()(kStray, po::value<std::vector<std::string>>());
  po::positional_options_description stray;
  stray.add(kStray, -1);
  po::variables_map vm;
  try {
    // Options are spelled in full: no guessing --npu as --npus, which a later option named
    // --npu-... would silently change.
    namespace style = po::command_line_style;
    po::store(po::command_line_parser(args)
                  .options(all)
                  .positional(stray)
                  .style(style::default_style & ~style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    throw InputError(e.what() + did_you_mean_option(e.get_option_name(), long_names(options)));
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  if (vm.count(kStray)) {
    throw InputError("unexpected argument '" + vm[kStray].as<std::vector<std::string>>()[0] +
                     "' (options start with --; see --help)");
  }
  return vm;
}

std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               const po::options_description& options, const std::string& usage,
                                               const std::string& after, std::ostream& out) {
  po::variables_map vm = parse_options(args, options);
  if (!vm.count("help")) return vm;
  out << "Usage: commsim " << usage << "\n\n" << options << "\n" << after;
  return std::nullopt;
}

std::optional<std::string> option_text(const po::variables_map& vm, const std::string& name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<std::string>();
}

std::optional<OutputFile> output_option(const po::variables_map& vm, const std::string& name, bool dash_is_stdout) {
  const auto path = option_text(vm, name);
  if (!path || (dash_is_stdout && *path == "-")) return std::nullopt;
  try {
    return std::optional<OutputFile>(std::in_place, *path);
  } catch (const InputError& e) {
    throw InputError("--" + name + ": " + e.what());
  }
}

void add_option(po::options_description& options, const char* name, const char* value_name,
                const std::string& help) {
  options.add_options()(name, po::value<std::string>()->value_name(value_name), help.c_str());
}

unsigned jobs_option(const po::variables_map& vm) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(parse_count(option_text(vm, "jobs").value_or(std::to_string(cores)), "--jobs", 1, 4096));
}

std::vector<TimePs> parse_per_stage_times(const std::string& text, const char* option,
                                             std::uint32_t count) {
  std::vector<TimePs> times;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(',', start);
    times.push_back(parse_time(text.substr(start, end - start), option));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (times.size() == 1) times.assign(count, times[0]);
  if (times.size() != count) {
    throw InputError(std::string(option) + ": " + std::to_string(times.size()) + " times for " +
                     std::to_string(count) + " stages (give one, or one per stage)");
  }
  return times;
}

void add_size_options(po::options_description& options, const char* default_sweep) {
  const std::string help = std::string("message sizes MIN, 2*MIN, 4*MIN .. MAX, e.g. 1K:1G "
                                       "(K M G = powers of 2, KB MB GB = powers of 10; "
                                       "default ") + default_sweep + ")";
  options.add_options()("sizes", po::value<std::string>()->value_name("MIN:MAX"), help.c_str());
  add_option(options, "size", "S", "a single message size instead of a sweep");
}

std::vector<Bytes> sizes_from_options(const po::variables_map& vm,
                                                   const char* default_sweep) {
  const auto single = option_text(vm, "size");
  const auto sweep = option_text(vm, "sizes");
  if (single && sweep) throw InputError("give either --size or --sizes, not both");
  if (single) return {parse_size(*single, "--size")};
  const std::string text = sweep.value_or(default_sweep);
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) {
    throw InputError("--sizes: expected MIN:MAX, e.g. 1K:1G, got '" + text + "'");
  }
  const Bytes min = parse_size(text.substr(0, colon), "--sizes (MIN)");
  const Bytes max = parse_size(text.substr(colon + 1), "--sizes (MAX)");
  if (min == 0) throw InputError("--sizes: MIN must be at least 1 byte, got '" + text + "'");
  if (min > max) throw InputError("--sizes: MIN is larger than MAX in '" + text + "'");
  std::vector<Bytes> sizes;
  for (Bytes s = min; s <= max; s *= 2) {
    sizes.push_back(s);
    if (s > max / 2) break;
  }
  return sizes;
}

}  // namespace commsim::cli
