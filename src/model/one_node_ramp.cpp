#include "model/one_node_ramp.h"

#include <algorithm>

namespace commsim {

namespace {

// The most GPUs one NVLink domain holds (NVIDIA GB200 NVL72): a topology of more that has
// links of another class is not one node.
constexpr std::size_t kMaxNodeNpus = 72;

bool only_nvlink_links(const Topology& t) {
  return t.shape().kind != TopologyKind::kHierarchical &&
         std::all_of(t.links().begin(), t.links().end(),
                     [](const Link& l) { return link_class(l.params.kind) == LinkClass::kNvlink; });
}

// Whether NPU 0 and every other NPU reach each other, both ways, over NVLink alone: a node
// whose other links (NICs, PCIe) its GPUs do not use to talk (a cluster spec of one node).
bool npus_talk_over_nvlink(const Topology& t) {
  if (t.npu_count() > kMaxNodeNpus) return false;
  for (Rank k = 1; k < t.npu_count(); ++k) {
    if (t.route_class(t.route(0, k)) != LinkClass::kNvlink || t.route_class(t.route(k, 0)) != LinkClass::kNvlink) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool inside_one_nvlink_node(const Topology& spanned) {
  return only_nvlink_links(spanned) || npus_talk_over_nvlink(spanned);
}

LibraryProfile library_for_span(const LibraryProfile& library, const Topology& spanned) {
  if (library.collective_bandwidth_one_node.empty() || !inside_one_nvlink_node(spanned)) return library;
  return library.inside_one_node();
}

bool one_node_ramp_applies(const Topology& spanned, const LibraryProfile& library) {
  return library.has_one_node_ramp() && inside_one_nvlink_node(spanned);
}

std::optional<double> one_node_ramp_scale(const Topology& spanned, CollectiveKind kind, Bytes size,
                                          const LibraryProfile& library) {
  const std::optional<double> ramp = library.one_node_ramp_at(size);
  if (!ramp || kind == CollectiveKind::kBarrier || !one_node_ramp_applies(spanned, library)) return std::nullopt;
  const Bytes top = library.one_node_ramp.back().bytes;
  return static_cast<double>(size) / static_cast<double>(top) / *ramp;
}

}  // namespace commsim
