#include "topology/link.h"

#include <array>
#include <utility>

namespace commsim {
namespace {
constexpr std::array<std::pair<LinkKind, std::string_view>, 5> kKindNames{{
    {LinkKind::kNvlink, "nvlink"},
    {LinkKind::kPcie, "pcie"},
    {LinkKind::kInfiniband, "infiniband"},
    {LinkKind::kEthernet, "ethernet"},
    {LinkKind::kOther, "other"},
}};
}  // namespace

std::string_view link_kind_name(LinkKind kind) {
  for (const auto& [k, name] : kKindNames) {
    if (k == kind) return name;
  }
  return "other";
}

std::optional<LinkKind> link_kind_from_name(std::string_view name) {
  for (const auto& [k, n] : kKindNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::string_view duplex_name(Duplex duplex) { return duplex == Duplex::kFull ? "full" : "half"; }

std::optional<Duplex> duplex_from_name(std::string_view name) {
  if (name == "full") return Duplex::kFull;
  if (name == "half") return Duplex::kHalf;
  return std::nullopt;
}

}  // namespace commsim
