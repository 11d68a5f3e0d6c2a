#pragma once
// Text tables in the layout of nccl-tests: '#'-prefixed header lines with column names
// and units, then right-aligned rows. And CSV rows.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

struct Column {
  std::string name;
  std::string unit;  // printed in parentheses on the second header line; may be empty
  int width;
};

class Table {
 public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// printf("%.*f"): locale-independent fixed-point text.
std::string fixed(double value, int decimals);

/// A JSON string literal (RFC 8259: quote, backslash and control characters escaped).
std::string json_string(const std::string& text);

/// One row as a JSON object on one line (JSON Lines): `names` as keys; a cell "-" as null,
/// a cell of a column in `text` as a string, any other as a number, as written.
std::string json_line(const std::vector<std::string_view>& names, const std::vector<std::string_view>& cells,
                      const std::vector<std::string_view>& text);

/// Writes one CSV line; cells with a comma, quote or newline are quoted.
void write_csv_row(std::ostream& out, const std::vector<std::string>& cells);

}  // namespace commsim
