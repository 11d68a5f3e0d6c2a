#pragma once
// A set of P2P messages sent at once (a pattern such as nccl-tests' sendrecv ring) under a
// library profile: the protocol it chooses, the simulated arrivals and the closed form.

#include <optional>
#include <vector>

#include "network/concurrent_messages.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

/// The closed form of one message (model/p2p_model.h) under `costs` and the profile's P2P
/// channels, seconds.
double p2p_message_model_s(const Topology& topology, const Message& m, TimePs overhead_ps, const ProtocolCosts& costs,
                           const LibraryProfile& profile);

/// The protocol the library runs the pattern's sends with: by its P2P LL threshold where it
/// has one (LL if every send is under it, else its bulk protocol), else the protocol of least
/// closed-form time for the pattern (its slowest message); empty for the ideal library.
std::optional<Protocol> p2p_protocol(const Topology& topology, const std::vector<Message>& messages,
                                             TimePs overhead_ps, const LibraryProfile& profile);

/// nccl-tests' sendrecv_perf: every rank r of `topology` sends `bytes` to r + 1 (mod p) at once.
std::vector<Message> sendrecv_ring(const Topology& topology, Bytes bytes);

}  // namespace commsim
