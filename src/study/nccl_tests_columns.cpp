#include "study/nccl_tests_columns.h"

#include "base/error.h"

namespace commsim {
namespace {

std::optional<std::size_t> position_of(const std::vector<std::string_view>& words,
                                       std::string_view name) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == name) return i;
  }
  return std::nullopt;
}

// Each "time" column starts a placement; its algbw, busbw and check columns follow it.
// Position 0 is "size", so a position 0 below means "not seen".
std::vector<NcclTestsPlacementColumns> placements_of(const std::vector<std::string_view>& words,
                                                     const std::string& where) {
  std::vector<NcclTestsPlacementColumns> placements;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (w == "time") {
      placements.emplace_back().time = i;
    } else if (placements.empty()) {
      continue;
    } else if (w == "algbw") {
      placements.back().algbw = i;
    } else if (w == "busbw") {
      placements.back().busbw = i;
    } else if (w == "#wrong" || w == "error") {
      placements.back().check = i;
      placements.back().check_counts_elements = w == "#wrong";
    }
  }
  if (placements.empty()) throw InputError(where + ": column header without a 'time' column");
  for (const NcclTestsPlacementColumns& p : placements) {
    if (p.algbw == 0 || p.busbw == 0) {
      throw InputError(where + ": column header: the 'time' at field " +
                       std::to_string(p.time + 1) + " is not followed by 'algbw' and 'busbw'");
    }
  }
  if (placements.size() > 2) placements.resize(2);
  return placements;
}

}  // namespace

std::string NcclTestsColumns::names_text() const {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " ") + name;
  return text;
}

NcclTestsColumns NcclTestsColumns::standard() {
  NcclTestsColumns columns;
  columns.names = {"size",  "count",  "type", "redop", "root",  "time",  "algbw",
                   "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"};
  columns.size = 0;
  columns.count = 1;
  columns.type = 2;
  columns.redop = 3;
  columns.root = 4;
  columns.placements = {{5, 6, 7, 8, true}, {9, 10, 11, 12, true}};
  return columns;
}

std::optional<NcclTestsColumns> parse_nccl_tests_columns(const std::vector<std::string_view>& words,
                                                         const std::string& where) {
  if (words.size() < 2 || words[0] != "size" || words[1] != "count") return std::nullopt;
  if (position_of(words, "cputime")) {
    throw InputError(where + ": the table's times are 'cputime': " + std::string(kCpuTimeIsNotTheCollectives));
  }
  NcclTestsColumns columns;
  for (const std::string_view word : words) {
    if (word == "timestamp") {
      // nccl-tests -S 1 ends each row with its local time, %Y-%m-%d %H:%M:%S: two fields.
      columns.names.insert(columns.names.end(), {"date", "time-of-day"});
    } else {
      columns.names.emplace_back(word);
    }
  }
  const std::vector<std::string_view> names(columns.names.begin(), columns.names.end());
  columns.size = 0;
  columns.count = 1;
  for (const std::string_view name : {"type", "redop"}) {
    if (!position_of(names, name)) {
      throw InputError(where + ": column header without a '" + std::string(name) + "' column");
    }
  }
  columns.type = *position_of(names, "type");
  columns.redop = *position_of(names, "redop");
  columns.root = position_of(names, "root");
  columns.placements = placements_of(names, where);
  return columns;
}

}  // namespace commsim
