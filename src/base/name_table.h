#pragma once
// Tables that name the values of an enum, for parsing and printing options and fields.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

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

template <typename Enum, std::size_t N>
std::optional<Enum> value_in(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [v, n] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
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

}  // namespace commsim
