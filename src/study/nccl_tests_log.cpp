#include "study/nccl_tests_log.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <span>

#include "base/error.h"
#include "base/input_file.h"
#include "study/measurement_fields.h"
#include "study/nccl_tests_columns.h"
#include "study/text_table.h"

namespace commsim {
namespace {

constexpr std::string_view kNotMeasured = "N/A";

// What the header lines of the current run have said so far.
struct Run {
  std::optional<MeasuredOperation> operation;
  std::optional<std::size_t> left_out;  // the run is of an operation without a model: set_.left_out[i]
  bool has_version_line = false;  // "# nccl-tests version": a release that always prints root
  std::map<std::size_t, std::string> host_by_rank;
  std::optional<NcclTestsColumns> columns;
  bool in_table = false;  // between the column header and the footer
  std::size_t gpus_per_thread = 0;  // "nGpus G" of the run's parameter line
};

bool is_all_digits(std::string_view word) {
  return !word.empty() &&
         std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Open MPI's count of the help messages it did not repeat, printed wherever the run is, rows
// included: "8 more processes have sent help message help-mtl-ofi.txt / OFI call fail"
// (Open MPI's orte/util/show_help.c; PMIx's show_help since Open MPI 5).
bool is_open_mpi_help_count(const std::vector<std::string_view>& words) {
  return words.size() > 5 && is_all_digits(words[0]) && words[1] == "more" &&
         (words[2] == "process" || words[2] == "processes") && words[4] == "sent" && words[5] == "help";
}

bool is_identifier(std::string_view word) {
  return std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool has_root(const MeasuredOperation& operation) {
  return operation.collective == CollectiveKind::kBroadcast ||
         operation.collective == CollectiveKind::kReduce;
}

class LogReader {
 public:
  explicit LogReader(const std::string& origin) : origin_(origin) { set_.origin = origin; }

  MeasurementSet read(std::string_view text) {
    const std::vector<TextLine> lines = split_lines(text);
    for (TextLine line : lines) {
      line.text = without_launcher_tag(line.text);
      note_nccl_version(line.text);
      if (is_comment(line.text)) {
        read_comment(line);
      } else {
        read_other(line);
      }
    }
    if (set_.rows.empty() && !set_.left_out.empty()) {
      throw InputError(nothing_but_left_out_message(origin_, set_.left_out));
    }
    if (set_.rows.empty()) {
      throw InputError(line_location(origin_, std::max<std::size_t>(lines.size(), 1)) +
                       ": no data rows in the log (nccl-tests rows of " +
                       NcclTestsColumns::standard().names_text() + ")");
    }
    set_.nccl_version = !version_from_line_.empty() ? version_from_line_ : version_from_code_;
    return std::move(set_);
  }

 private:
  std::string where(const TextLine& line) const { return line_location(origin_, line.number); }

  void read_comment(const TextLine& line) {
    const std::string_view body = trim_blanks(line.text).substr(1);
    const std::vector<std::string_view> words = whitespace_fields(body);
    if (words.empty()) return;
    if (starts_with_words(words, {"nccl-tests", "version"})) {
      read_version_line(words, line);
    } else if (starts_with_words(words, {"Collective", "test", "starting:"}) && words.size() > 3) {
      const auto test = nccl_tests_program_test(words[3]);
      if (!test) {
        throw InputError(where(line) + ": '" + std::string(words[3]) +
                         "' is no nccl-tests program (NAME_perf)");
      }
      start_test(*test, line);
    } else if (starts_with_words(words, {"Blocking", "Enabled:"})) {
      constexpr std::string_view kEnabled = "Enabled:";
      const std::string_view how = trim_blanks(body.substr(body.find(kEnabled) + kEnabled.size()));
      add_timing_note(set_, blocking_calls_note(how), where(line));
    } else if (words[0] == "nThread") {
      run_.columns.reset();
      run_.in_table = false;
      note_launches(words, line);
      // "nThread 1 nGpus 8 minBytes ...": each thread drives nGpus GPUs.
      if (words.size() > 3 && words[2] == "nGpus") {
        run_.gpus_per_thread = parse_count(words[3], where(line) + ": nGpus", 1, std::numeric_limits<std::uint32_t>::max());
      }
    } else if (starts_with_words(words, {"Using", "devices"})) {
      run_.host_by_rank.clear();
    } else if (words[0] == "Rank" && words.size() > 1) {
      read_rank_line(words, line);
    } else if (auto columns = parse_nccl_tests_columns(words, where(line))) {
      run_.columns = std::move(columns);
      run_.in_table = true;
    } else if (starts_with_words(words, {"Out", "of", "bounds"})) {
      run_.in_table = false;
    } else if (starts_with_words(words, {"Avg", "bus", "bandwidth"})) {
      read_average(body, line);
      run_ = Run{};  // the footer ends the run
    }
  }

  void read_other(const TextLine& line) {
    const std::vector<std::string_view> words = whitespace_fields(line.text);
    if (words.empty()) return;
    // NCCL's own lines (NCCL_DEBUG): "host:pid:tid [0] NCCL INFO ...", "NCCL version ...".
    if (std::find(words.begin(), words.end(), "NCCL") != words.end()) return;
    if (is_open_mpi_help_count(words)) return;
    if (run_.left_out) {
      // Its rows are counted; any other line may name the next program.
      if (words.size() >= 2 && is_all_digits(words[0]) && is_all_digits(words[1])) {
        ++set_.left_out[*run_.left_out].rows;
        return;
      }
    } else if (run_.in_table || is_all_digits(words[0])) {
      read_row(words, line);
      return;
    }
    // A command line naming the program, as older logs have instead of a header.
    for (auto word = words.begin(); word != words.end(); ++word) {
      if (const auto test = nccl_tests_program_test(*word)) {
        start_test(*test, line);
        read_gpus_option({word + 1, words.end()}, line);
        return;
      }
    }
  }

  // nccl-tests' own options on its command line, `options`: -g N (also -gN, --ngpus N,
  // --ngpus=N), the GPUs a thread drives, which a pasted table without the parameter line
  // ("nThread 1 nGpus N", read after it) says nowhere else.
  void read_gpus_option(std::span<const std::string_view> options, const TextLine& line) {
    constexpr std::string_view kLong = "--ngpus=";
    for (std::size_t i = 0; i < options.size(); ++i) {
      const std::string_view option = options[i];
      std::string_view value;
      if ((option == "-g" || option == "--ngpus") && i + 1 < options.size()) {
        value = options[i + 1];
      } else if (option.starts_with(kLong)) {
        value = option.substr(kLong.size());
      } else if (option.starts_with("-g") && option.size() > 2) {
        value = option.substr(2);
      } else {
        continue;
      }
      run_.gpus_per_thread =
          parse_count(value, where(line) + ": -g (GPUs a thread)", 1, std::numeric_limits<std::uint32_t>::max());
    }
  }

  // The run of nccl-tests' program `test` starts (its command line or its "Collective test
  // starting" line, or both). A program of an operation commsim does not model (gather,
  // scatter, hypercube, ...) is left out with its rows, and said so; one line names it once.
  void start_test(std::string_view test, const TextLine& line) {
    run_.operation = measured_operation_from_name(test);
    run_.left_out.reset();
    if (run_.operation) return;
    const bool named_already =
        !set_.left_out.empty() && set_.left_out.back().test == test && set_.left_out.back().rows == 0;
    if (!named_already) set_.left_out.push_back({std::string(test), 0, where(line)});
    run_.left_out = set_.left_out.size() - 1;
  }

  // "... agg iters: 4 validation: 1 graph: 1 ..." in the parameter line: calls aggregated in
  // groups (-m 4) and launched from CUDA graphs (-G 1).
  void note_launches(const std::vector<std::string_view>& words, const TextLine& line) {
    const auto graph = std::find(words.begin(), words.end(), "graph:");
    if (graph != words.end() && graph + 1 != words.end()) {
      const auto launches =
          parse_count(*(graph + 1), where(line) + ": graph", 0, std::numeric_limits<std::uint32_t>::max());
      if (launches > 0) add_timing_note(set_, graph_launches_note(launches), where(line));
    }
    const auto agg = std::adjacent_find(
        words.begin(), words.end(), [](std::string_view a, std::string_view b) { return a == "agg" && b == "iters:"; });
    if (agg != words.end() && agg + 2 < words.end()) {
      const auto calls =
          parse_count(*(agg + 2), where(line) + ": agg iters", 1, std::numeric_limits<std::uint32_t>::max());
      if (calls > 1) add_timing_note(set_, aggregated_calls_note(calls), where(line));
    }
  }

  void read_version_line(const std::vector<std::string_view>& words, const TextLine& line) {
    run_ = Run{};
    run_.has_version_line = true;
    if (words.size() > 2 && set_.nccl_tests_version.empty()) {
      set_.nccl_tests_version = std::string(words[2]);
    }
    constexpr std::string_view kLibrary = "nccl-library=";
    for (const std::string_view word : words) {
      if (word.starts_with(kLibrary) && version_from_code_.empty()) {
        const auto code = parse_count(word.substr(kLibrary.size()), where(line) + ": nccl-library",
                                      0, std::numeric_limits<unsigned>::max());
        version_from_code_ = nccl_version_from_code(static_cast<unsigned>(code));
      }
    }
  }

  // "Rank  0 Group  0 Pid 4180122 on cnode3-002 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3";
  // releases before 2.13 print no Group, and the bus id as [0x1b].
  void read_rank_line(const std::vector<std::string_view>& words, const TextLine& line) {
    const std::size_t rank =
        parse_count(words[1], where(line) + ": Rank", 0, std::numeric_limits<std::uint32_t>::max());
    const auto on = std::find(words.begin(), words.end(), "on");
    if (on == words.end() || on + 1 == words.end()) {
      throw InputError(where(line) + ": device line of rank " + std::to_string(rank) +
                       " without 'on HOST'");
    }
    run_.host_by_rank[rank] = std::string(*(on + 1));
    const auto device = std::find(on, words.end(), "device");
    if (set_.device_name.empty() && words.end() - device > 3 && device[2].starts_with('[')) {
      for (auto w = device + 3; w != words.end(); ++w) {
        if (!set_.device_name.empty()) set_.device_name += ' ';
        set_.device_name += *w;
      }
    }
  }

  // "Avg bus bandwidth    : 437.957 " (then OK or FAILED when NCCL_TESTS_MIN_BW is set).
  void read_average(std::string_view body, const TextLine& line) {
    const std::size_t colon = body.find(':');
    const std::vector<std::string_view> words =
        whitespace_fields(colon == std::string_view::npos ? "" : body.substr(colon + 1));
    if (words.empty()) throw InputError(where(line) + ": Avg bus bandwidth without a value");
    // A run whose every size was skipped averages nothing: nccl-tests prints nan.
    if (words[0] == "nan" || words[0] == "-nan" || !run_.operation) return;
    set_.reported_averages.push_back(
        {*run_.operation, parse_real(words[0], where(line) + ": Avg bus bandwidth (GB/s)"),
         where(line)});
  }

  void note_nccl_version(std::string_view text) {
    constexpr std::string_view kVersion = "NCCL version ";
    const std::size_t at = text.find(kVersion);
    if (at == std::string_view::npos || !version_from_line_.empty()) return;
    const auto words = whitespace_fields(text.substr(at + kVersion.size()));
    // "2.18.3+cuda12.2": the part before '+', as nccl-library= gives it.
    if (!words.empty()) version_from_line_ = std::string(words[0].substr(0, words[0].find('+')));
  }

  void read_row(std::vector<std::string_view> fields, const TextLine& line) {
    const std::string at = where(line);
    if (!run_.operation) {
      throw InputError(at +
                       ": a data row, but no line before it names the test (such as "
                       "'# Collective test starting: all_reduce_perf' or the command "
                       "'./build/all_reduce_perf ...')");
    }
    const NcclTestsColumns columns = run_.columns.value_or(NcclTestsColumns::standard());
    // Releases before the version line print an empty root field for root -1.
    if (fields.size() + 1 == columns.field_count() && columns.root && !run_.has_version_line &&
        !has_root(*run_.operation)) {
      fields.insert(fields.begin() + static_cast<std::ptrdiff_t>(*columns.root), "-1");
    }
    if (fields.size() != columns.field_count()) {
      throw InputError(at + ": " + std::to_string(fields.size()) + " fields where a row has " +
                       std::to_string(columns.field_count()) + " (" + columns.names_text() + ")");
    }
    Measurement row;
    row.operation = *run_.operation;
    row.gpus_per_thread = run_.gpus_per_thread;
    set_ranks_by_host(run_.host_by_rank, row);
    row.size_bytes = parse_size_field(fields[columns.size], at);
    row.count_elements = parse_count_field(fields[columns.count], at);
    row.type = std::string(fields[columns.type]);
    row.redop = std::string(fields[columns.redop]);
    if (columns.root) row.root = parse_root_field(fields[*columns.root], at);
    const auto out_of_place = read_placement(fields, columns.placements[0], "out-of-place", at);
    if (!out_of_place) {
      throw InputError(at + ": the out-of-place time is " + std::string(kNotMeasured));
    }
    row.out_of_place = *out_of_place;
    if (columns.placements.size() > 1) {
      row.in_place = read_placement(fields, columns.placements[1], "in-place", at);
    }
    row.source = at;
    set_.rows.push_back(std::move(row));
  }

  std::optional<MeasuredTime> read_placement(const std::vector<std::string_view>& fields,
                                             const NcclTestsPlacementColumns& columns,
                                             std::string_view placement, const std::string& at) {
    const std::string_view time = fields[columns.time];
    const std::string_view algbw = fields[columns.algbw];
    const std::string_view busbw = fields[columns.busbw];
    if (time == kNotMeasured && algbw == kNotMeasured && busbw == kNotMeasured) return std::nullopt;
    MeasuredTime measured = parse_measured_time(time, algbw, busbw, placement, at);
    if (!columns.check || fields[*columns.check] == kNotMeasured) return measured;
    const std::string what = at + ": " + std::string(placement) + " ";
    if (columns.check_counts_elements) {
      measured.wrong_elements = parse_count(fields[*columns.check], what + "#wrong", 0,
                                            std::numeric_limits<std::uint64_t>::max());
    } else {
      parse_real(fields[*columns.check], what + "error");  // a deviation: checked, not kept
    }
    return measured;
  }

  const std::string& origin_;
  MeasurementSet set_;
  Run run_;
  std::string version_from_line_;
  std::string version_from_code_;
};

}  // namespace

std::optional<std::string_view> nccl_tests_program_test(std::string_view word) {
  const std::size_t slash = word.rfind('/');
  if (slash != std::string_view::npos) word.remove_prefix(slash + 1);
  const std::size_t perf = word.find("_perf");
  if (perf == 0 || perf == std::string_view::npos) return std::nullopt;
  const std::string_view test = word.substr(0, perf);
  const std::string_view suffix = word.substr(perf + 5);
  if (!is_identifier(test) || !(suffix.empty() || (suffix[0] == '_' && is_identifier(suffix)))) {
    return std::nullopt;
  }
  return test;
}

void set_ranks_by_host(const std::map<std::size_t, std::string>& host_by_rank, Measurement& row) {
  std::map<std::string, std::size_t> ranks_per_host;
  for (const auto& [rank, host] : host_by_rank) ++ranks_per_host[host];
  row.ranks = host_by_rank.size();
  row.nodes = ranks_per_host.size();
  const bool uniform = std::all_of(ranks_per_host.begin(), ranks_per_host.end(),
                                   [&](const auto& h) { return h.second == ranks_per_host.begin()->second; });
  if (row.nodes > 0 && uniform) row.gpus_per_node = ranks_per_host.begin()->second;
}

std::string nccl_version_from_code(unsigned code) {
  const bool wide = code >= 10000;  // NCCL_VERSION(X,Y,Z) in nccl.h
  const unsigned major = wide ? code / 10000 : code / 1000;
  const unsigned minor = wide ? code / 100 % 100 : code / 100 % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

MeasurementSet parse_nccl_tests_log(std::string_view text, const std::string& origin) {
  return LogReader(origin).read(text);
}

MeasurementSet read_nccl_tests_log(const std::string& path) {
  return parse_nccl_tests_log(read_input_file(path, "nccl-tests log"), path);
}

}  // namespace commsim
