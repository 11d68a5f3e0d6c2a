#include "study/text_table.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

bool is_blank_char(char c) { return c == ' ' || c == '\t'; }

}  // namespace

std::vector<TextLine> split_lines(std::string_view text) {
  std::vector<TextLine> lines;
  std::size_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({++number, line});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string line_location(std::string_view origin, std::size_t line_number) {
  return std::string(origin) + ":" + std::to_string(line_number);
}

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && is_blank_char(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank_char(text.back())) text.remove_suffix(1);
  return text;
}

bool is_blank(std::string_view line) { return trim_blanks(line).empty(); }

bool is_comment(std::string_view line) {
  const std::string_view text = trim_blanks(line);
  return !text.empty() && text.front() == '#';
}

std::string_view without_launcher_tag(std::string_view line) {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string_view text = line.substr(std::min(line.find_first_not_of(" \t"), line.size()));
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    const std::string_view inside = text.substr(1, close == std::string_view::npos ? 0 : close - 1);
    const bool rank = !inside.empty() && is_digit(inside.front()) &&
                      std::all_of(inside.begin(), inside.end(), [&](char c) { return is_digit(c) || c == ','; });
    if (!rank) return line;
    text.remove_prefix(close + 1);
    for (const std::string_view stream : {"<stdout>:", "<stderr>:"}) {
      if (text.starts_with(stream)) text.remove_prefix(stream.size());
    }
    return text;
  }
  const std::size_t digits = std::min(text.find_first_not_of("0123456789"), text.size());
  if (digits > 0 && digits < text.size() && text[digits] == ':') return text.substr(digits + 1);
  return line;
}

bool starts_with_words(const std::vector<std::string_view>& words,
                       std::initializer_list<std::string_view> start) {
  return words.size() >= start.size() && std::equal(start.begin(), start.end(), words.begin());
}

std::vector<std::string_view> comma_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t comma = line.find(',');
    fields.push_back(trim_blanks(line.substr(0, comma)));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

CsvHeader::CsvHeader(std::string_view line, std::string location) : location_(std::move(location)) {
  for (const std::string_view name : comma_fields(line)) names_.emplace_back(name);
}

std::optional<std::size_t> CsvHeader::find(std::string_view name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names_.begin());
}

std::size_t CsvHeader::require(std::string_view name) const {
  if (const auto index = find(name)) return *index;
  std::string columns;
  for (const std::string& n : names_) columns += (columns.empty() ? "" : ",") + n;
  throw InputError(location_ + ": no column '" + std::string(name) +
                   "' in the header (columns: " + columns + ")");
}

std::vector<std::string_view> CsvHeader::row_fields(std::string_view line,
                                                    const std::string& location) const {
  std::vector<std::string_view> fields = comma_fields(line);
  if (fields.size() != names_.size()) {
    throw InputError(location + ": " + std::to_string(fields.size()) + " fields, the header (" +
                     location_ + ") has " + std::to_string(names_.size()));
  }
  return fields;
}

CsvFile split_csv(std::string_view text, const std::string& origin,
                  std::string_view expected_header) {
  std::vector<std::string_view> comments;
  std::optional<CsvHeader> header;
  std::vector<CsvRow> rows;
  const std::vector<TextLine> lines = split_lines(text);
  for (const TextLine& line : lines) {
    if (is_blank(line.text)) continue;
    std::string location = line_location(origin, line.number);
    if (is_comment(line.text)) {
      comments.push_back(trim_blanks(trim_blanks(line.text).substr(1)));
    } else if (!header) {
      header.emplace(line.text, std::move(location));
    } else {
      std::vector<std::string_view> fields = header->row_fields(line.text, location);
      rows.push_back({std::move(location), line.number, std::move(fields)});
    }
  }
  if (!header) {
    throw InputError(line_location(origin, std::max<std::size_t>(lines.size(), 1)) +
                     ": no header row (" + std::string(expected_header) + "), only comments");
  }
  if (rows.empty()) throw InputError(header->location() + ": no rows after the header");
  return CsvFile{std::move(comments), std::move(*header), std::move(rows)};
}

}  // namespace commsim
