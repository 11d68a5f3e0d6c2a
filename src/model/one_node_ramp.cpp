#include "model/one_node_ramp.h"

#include <algorithm>

namespace commsim {

bool one_node_ramp_applies(const Topology& spanned, const LibraryProfile& library) {
  return library.has_one_node_ramp() && spanned.shape().kind != TopologyKind::kHierarchical &&
         std::all_of(spanned.links().begin(), spanned.links().end(),
                     [](const Link& l) { return link_class(l.params.kind) == LinkClass::kNvlink; });
}

std::optional<double> one_node_ramp_scale(const Topology& spanned, CollectiveKind kind, Bytes size,
                                          const LibraryProfile& library) {
  const std::optional<double> ramp = library.one_node_ramp_at(size);
  if (!ramp || kind == CollectiveKind::kBarrier || !one_node_ramp_applies(spanned, library)) return std::nullopt;
  const Bytes top = library.one_node_ramp.back().bytes;
  return static_cast<double>(size) / static_cast<double>(top) / *ramp;
}

}  // namespace commsim
