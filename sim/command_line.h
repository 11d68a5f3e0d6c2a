#pragma once
// Option parsing shared by the subcommands (Boost.Program_options). Every option value is
// taken as text and parsed by commsim's own parsers, so a bad value gets a message that
// names the option and the value. Unknown options and stray arguments are errors.

#include <boost/program_options.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/output_file.h"
#include "base/units.h"

namespace commsim::cli {

namespace po = boost::program_options;

/// Throws InputError on an unknown option, a missing value or a stray argument.
po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& options);

/// parse_options, except that with --help it prints "Usage: commsim " `usage`, the options and
/// `after` (what follows them: explanations, examples) and returns nothing: the command has
/// done its work and exits with status 0.
std::optional<po::variables_map> parse_command(const std::vector<std::string>& args,
                                               const po::options_description& options, const std::string& usage,
                                               const std::string& after, std::ostream& out);

/// The option's text, if given.
std::optional<std::string> option_text(const po::variables_map& vm, const std::string& name);

/// The file --NAME gives, created for writing before any work so that a bad path fails at once
/// ("--csv: cannot write out/x.csv: No such file or directory"); none without the option, nor
/// for "-" where `dash_is_stdout` (the caller writes to standard output).
std::optional<OutputFile> output_option(const po::variables_map& vm, const std::string& name,
                                        bool dash_is_stdout = false);

/// Adds a text-valued option.
void add_option(po::options_description& options, const char* name, const char* value_name,
                const std::string& help);

/// --jobs N: threads for independent work, 1 to 4096; every core without it.
unsigned jobs_option(const po::variables_map& vm);

}  // namespace commsim::cli

namespace commsim::cli {

/// "100us" for every one of `count` stages, or "100us,120us,..." one per stage.
std::vector<TimePs> parse_per_stage_times(const std::string& text, const char* option,
                                             std::uint32_t count);

/// Adds --sizes MIN:MAX and --size S.
void add_size_options(po::options_description& options, const char* default_sweep);
/// The sizes to run: --size S alone, or MIN, 2 MIN, 4 MIN, ... up to MAX (as nccl-tests'
/// -b MIN -e MAX -f 2). Throws InputError if MIN > MAX, MIN is 0, or both are given.
std::vector<Bytes> sizes_from_options(const po::variables_map& vm,
                                                   const char* default_sweep);

}  // namespace commsim::cli
