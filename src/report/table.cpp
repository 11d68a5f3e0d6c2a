#include "report/table.h"

#include <algorithm>
#include <cstdio>

#include "base/error.h"

namespace commsim {
namespace {
std::string right(const std::string& text, int width) {
  return text.size() >= static_cast<std::size_t>(width)
             ? text
             : std::string(static_cast<std::size_t>(width) - text.size(), ' ') + text;
}
}  // namespace

void Table::add_row(std::vector<std::string> cells) {
  COMMSIM_CHECK(cells.size() == columns_.size(), "table row with the wrong number of cells");
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  // The first column is one narrower in the header lines to make room for the '#'.
  std::string names = "#";
  std::string units = "#";
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const int width = columns_[i].width - (i == 0 ? 1 : 0);
    if (i) {
      names += ' ';
      units += ' ';
    }
    names += right(columns_[i].name, width);
    units += right(columns_[i].unit.empty() ? "" : "(" + columns_[i].unit + ")", width);
  }
  while (!units.empty() && units.back() == ' ') units.pop_back();
  out << names << "\n";
  if (units != "#") out << units << "\n";  // omitted when no column has a unit
  for (const auto& row : rows_) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) line += ' ';
      line += right(row[i], columns_[i].width);
    }
    out << line << "\n";
  }
}

// A JSON string literal (RFC 8259: quote, backslash and control characters escaped).
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

void write_csv_row(std::ostream& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out << ',';
    const std::string& c = cells[i];
    if (c.find_first_of(",\"\n") == std::string::npos) {
      out << c;
      continue;
    }
    out << '"';
    for (const char ch : c) out << (ch == '"' ? "\"\"" : std::string(1, ch));
    out << '"';
  }
  out << '\n';
}

std::string json_line(const std::vector<std::string_view>& names, const std::vector<std::string_view>& cells,
                      const std::vector<std::string_view>& text) {
  std::string json = "{";
  for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) {
    if (i > 0) json += ',';
    json.append(json_string(std::string(names[i]))).append(":");
    if (cells[i] == "-") {
      json += "null";
    } else if (std::find(text.begin(), text.end(), names[i]) != text.end()) {
      json += json_string(std::string(cells[i]));
    } else {
      json += cells[i];
    }
  }
  return json + "}";
}

}  // namespace commsim
