#pragma once
// What a library does differently inside one NVLink node: its factors there
// (LibraryProfile::collective_bandwidth_one_node), and its one-node ramp.
//
// The one-node ramp (topology/library.h LibraryProfile::one_node_ramp): inside one NVLink
// node a collective reaches its asymptotic bus bandwidth far more slowly with size than a
// library's per-step latencies say, so a call of 16 MiB <= S < 16 GiB takes at least
//
//   T_ramp(S) = T(S_top) x S / S_top / ramp(S)
//
// where S_top is the ramp's last size (16 GiB), T(S_top) the closed form of the same
// algorithm and protocol there, and ramp(S) the library's measured bus bandwidth at S over
// its bus bandwidth at S_top (LibraryProfile::one_node_ramp_at). Every command that runs a
// collective takes max(its time, T_ramp): `collective` and the studies on the whole
// topology, a replay and `analyze` on the topology a group spans (a tensor-parallel group
// inside a node of a cluster), the simulator and the closed form alike.

#include <optional>

#include "base/collectives.h"
#include "base/units.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// Whether `spanned` is one node whose NPUs talk over NVLink alone: every link is NVLink (and
/// it is not a hierarchy of nodes), or, on at most 72 NPUs (one NVLink domain), the routes
/// between NPU 0 and every other NPU cross NVLink alone (a cluster spec of one node, a group
/// inside a node of a cluster).
bool inside_one_nvlink_node(const Topology& spanned);

/// `library` as a call on `spanned` runs it: inside one NVLink node its factors for calls
/// there (LibraryProfile::inside_one_node), elsewhere as it is.
LibraryProfile library_for_span(const LibraryProfile& library, const Topology& spanned);

/// Whether the library's one-node ramp bounds collectives on `spanned`: it has one, and
/// inside_one_nvlink_node(spanned).
bool one_node_ramp_applies(const Topology& spanned, const LibraryProfile& library);

/// S / S_top / ramp(S) for a collective of `kind` and `size` on `spanned`, the factor that
/// takes the closed form at S_top to T_ramp(S); empty where the ramp does not bound it
/// (below its first size or from its last, a barrier, a topology it does not apply to).
std::optional<double> one_node_ramp_scale(const Topology& spanned, CollectiveKind kind, Bytes size,
                                          const LibraryProfile& library);

}  // namespace commsim
