#pragma once
// Tables that name the values of an enum, for parsing and printing options and fields.
// A name is looked up in any spelling that differs only in case, '_' and '-' (all_reduce,
// ALL_REDUCE, AllReduce: allreduce), and printed as the table spells it.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/name_match.h"

namespace commsim {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, std::size_t N>
std::string_view name_in(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

/// Whether no two names of the table differ only in case, '_' and '-': what lets value_in
/// take any spelling without having to choose between two values.
template <typename Enum, std::size_t N>
bool loose_names_distinct(const NameTable<Enum, N>& table) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (same_loose_name(table[i].second, table[j].second)) return false;
    }
  }
  return true;
}

/// The value named `name` as the table spells it or in another spelling (same_loose_name).
template <typename Enum, std::size_t N>
std::optional<Enum> value_in(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  COMMSIM_CHECK(loose_names_distinct(table), "names that differ only in case, '_' or '-' in one table");
  for (const auto& [v, n] : table) {
    if (same_loose_name(n, name)) return v;
  }
  return std::nullopt;
}

/// The names, in the table's order.
template <typename Enum, std::size_t N>
std::vector<std::string_view> names_of(const NameTable<Enum, N>& table) {
  std::vector<std::string_view> names;
  for (const auto& [v, name] : table) names.push_back(name);
  return names;
}

/// "a, b, c": the names, for error messages that list what is known.
template <typename Enum, std::size_t N>
std::string names_in(const NameTable<Enum, N>& table) {
  std::string text;
  for (const auto& [v, name] : table) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

/// value_in, or InputError "<what>: unknown <noun> 'x' (did you mean 'y'?) (known: ...)".
template <typename Enum, std::size_t N>
Enum parse_in(const NameTable<Enum, N>& table, std::string_view name, std::string_view what, std::string_view noun) {
  if (const std::optional<Enum> value = value_in(table, name)) return *value;
  throw InputError(unknown_name_message(what, noun, name, names_of(table)));
}

}  // namespace commsim
