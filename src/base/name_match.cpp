#include "base/name_match.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace commsim {
namespace {

constexpr std::size_t kMaxSuggestions = 3;
// Two edits cover a transposition ('rign') or a doubled or dropped letter pair; more than
// that suggests names the user plainly did not mean.
constexpr std::size_t kMaxDistance = 2;
// A part of a name is a suggestion only from two characters on: 'r' is in too many.
constexpr std::size_t kMinPart = 2;

/// "'a'", "'a' or 'b'", "'a', 'b' or 'c'", each name between `before` and `after`.
std::string suggestion(const std::vector<std::string_view>& names, std::string_view before,
                       std::string_view after) {
  if (names.empty()) return "";
  std::string text = " (did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += std::string(before) + std::string(names[i]) + std::string(after);
  }
  return text + "?)";
}

}  // namespace

std::string loose_name(std::string_view name) {
  std::string key;
  for (const char c : name) {
    if (c != '_' && c != '-') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return key;
}

bool same_loose_name(std::string_view a, std::string_view b) { return loose_name(a) == loose_name(b); }

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // row[j]: the distance from the first i characters of a to the first j of b (Wagner-Fischer).
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];  // row i-1, column j-1
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string_view> closest_names(std::string_view given, const std::vector<std::string_view>& names) {
  const std::string key = loose_name(given);
  struct Candidate {
    std::size_t distance;
    std::size_t order;
  };
  std::vector<Candidate> close;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string name = loose_name(names[i]);
    const std::size_t distance = edit_distance(key, name);
    const bool near = distance <= kMaxDistance && distance < key.size();
    const bool part = key.size() >= kMinPart && name.find(key) != std::string::npos;
    if (near || part) close.push_back({distance, i});
  }
  std::stable_sort(close.begin(), close.end(),
                   [](const Candidate& a, const Candidate& b) { return a.distance < b.distance; });
  std::vector<std::string_view> best;
  for (const Candidate& c : close) {
    if (best.size() == kMaxSuggestions) break;
    best.push_back(names[c.order]);
  }
  return best;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& names) {
  return suggestion(closest_names(given, names), "'", "'");
}

std::string did_you_mean_option(std::string_view given, const std::vector<std::string_view>& names) {
  return suggestion(closest_names(given, names), "--", "");
}

std::string unknown_name_message(std::string_view what, std::string_view noun, std::string_view given,
                                 const std::vector<std::string_view>& names) {
  std::string known;
  for (const std::string_view name : names) known += (known.empty() ? "" : ", ") + std::string(name);
  return std::string(what) + ": unknown " + std::string(noun) + " '" + std::string(given) + "'" +
         did_you_mean(given, names) + " (known: " + known + ")";
}

}  // namespace commsim
