#include "topology/link.h"

#include "base/name_table.h"

namespace commsim {
namespace {
constexpr NameTable<LinkKind, 5> kKindNames{{
    {LinkKind::kNvlink, "nvlink"},
    {LinkKind::kPcie, "pcie"},
    {LinkKind::kInfiniband, "infiniband"},
    {LinkKind::kEthernet, "ethernet"},
    {LinkKind::kOther, "other"},
}};
constexpr NameTable<LinkClass, 3> kClassNames{{
    {LinkClass::kNvlink, "nvlink"},
    {LinkClass::kPcie, "pcie"},
    {LinkClass::kNet, "net"},
}};
}  // namespace

std::string_view link_class_name(LinkClass c) { return name_in(kClassNames, c); }

LinkClass link_class(LinkKind kind) {
  switch (kind) {
    case LinkKind::kNvlink: return LinkClass::kNvlink;
    case LinkKind::kPcie: return LinkClass::kPcie;
    case LinkKind::kInfiniband:
    case LinkKind::kEthernet: return LinkClass::kNet;
    case LinkKind::kOther: break;
  }
  return LinkClass::kNvlink;  // unknown hardware: the fastest class, so it adds least
}

std::string_view link_kind_name(LinkKind kind) { return name_in(kKindNames, kind); }

LinkKind parse_link_kind(std::string_view name, std::string_view what) {
  return parse_in(kKindNames, name, what, "link kind");
}

std::string_view duplex_name(Duplex duplex) { return duplex == Duplex::kFull ? "full" : "half"; }

std::optional<Duplex> duplex_from_name(std::string_view name) {
  if (name == "full") return Duplex::kFull;
  if (name == "half") return Duplex::kHalf;
  return std::nullopt;
}

}  // namespace commsim
