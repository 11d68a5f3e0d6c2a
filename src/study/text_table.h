#pragma once
// Lines and fields of the text formats the measurement readers share (nccl-tests logs and
// the CSV files), and a CSV header whose columns are found by name. Errors are InputError
// "PATH:LINE: what is wrong, which value".

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/words.h"

namespace commsim {

struct TextLine {
  std::size_t number = 0;  // 1-based
  std::string_view text;   // without its end of line ("\n" or "\r\n")
};

/// The lines of `text`; a last line without "\n" counts too.
std::vector<TextLine> split_lines(std::string_view text);
/// "PATH:LINE", the start of every message about a line.
std::string line_location(std::string_view origin, std::size_t line_number);
/// `text` without leading and trailing spaces and tabs.
std::string_view trim_blanks(std::string_view text);
/// Nothing but spaces and tabs.
bool is_blank(std::string_view line);
/// The first character other than a blank is '#'.
bool is_comment(std::string_view line);
/// `line` without the tag a parallel launcher puts before each line of a rank's output:
/// "[1,0]<stdout>:" (Open MPI's --tag-output), "[0] " (MPICH's -prepend-rank, Intel MPI's
/// -l), "  0: " (Slurm's srun --label); `line` itself when it has none. A data row of
/// nccl-tests starts with a bare number, never with '[' or "N:".
std::string_view without_launcher_tag(std::string_view line);
/// `words` begins with `start`: {"Avg", "bus", "bandwidth"}.
bool starts_with_words(const std::vector<std::string_view>& words,
                       std::initializer_list<std::string_view> start);
/// The fields of a CSV line, split at every ',' and trimmed of blanks. Quotes are not
/// special: the files read here have none.
std::vector<std::string_view> comma_fields(std::string_view line);

/// The header row of a CSV file: its column names, found by name so that a file may order
/// them as it likes and carry columns the reader does not use.
class CsvHeader {
 public:
  /// `line` is the header row, `location` its "PATH:LINE".
  CsvHeader(std::string_view line, std::string location);

  std::optional<std::size_t> find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name).has_value(); }
  /// The position of `name`; InputError "PATH:LINE: no column 'name' in the header
  /// (columns: ...)" when there is none.
  std::size_t require(std::string_view name) const;
  std::size_t size() const { return names_.size(); }
  /// "PATH:LINE" of the header row.
  const std::string& location() const { return location_; }
  /// The fields of a data row; InputError "PATH:LINE: 14 fields, the header has 15" when
  /// their number differs from the header's.
  std::vector<std::string_view> row_fields(std::string_view line,
                                           const std::string& location) const;

 private:
  std::vector<std::string> names_;
  std::string location_;
};

struct CsvRow {
  std::string location;  // "PATH:LINE"
  std::size_t line_number = 0;
  std::vector<std::string_view> fields;  // as many as the header has
};

/// A CSV file in parts: its '#' lines (comments, without the '#', trimmed), its header row
/// (the first other line that is not blank) and its data rows.
struct CsvFile {
  std::vector<std::string_view> comments;
  CsvHeader header;
  std::vector<CsvRow> rows;
};

/// Splits `text` (named `origin` in messages) into its parts. InputError "PATH:LINE: no
/// header row (<expected_header>), only comments" and "PATH:LINE: no rows after the header"
/// when either is missing, and row_fields' error for a row of the wrong width.
CsvFile split_csv(std::string_view text, const std::string& origin,
                  std::string_view expected_header);

}  // namespace commsim
