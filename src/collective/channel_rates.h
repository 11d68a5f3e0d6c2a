#pragma once
// A channel's fixed rate. NCCL gives each of a call's channels its share of the links (its
// topology search sets a bandwidth per channel, busBw = nChannels x that; src/graph/search.cc,
// tuning.cc), and a channel's thread block moves no faster when the others idle. A schedule
// whose channels pipeline through different links at once (Schedule::fixed_channel_rates:
// NCCL's Broadcast and Reduce chains, a channel's ring each, which across nodes go round
// different cycles; NCCL's trees, a channel's tree each, up and down at once) runs so: each
// message at most at its channel's rate to its peer, its share of every link it crosses in
// proportion to its bytes among those all the schedule's messages of one chunk put on that
// link (every hop of every channel at once, as when the pipeline is full):
//
//   rate(m) = e x min over m's route of  B_link x w_m / W_link,
//
// w_m the blocks m carries, W_link those of all the messages on the link, B_link its
// bandwidth (one direction; a half-duplex link's both, times its both-ways efficiency when
// messages cross it both ways) and e the protocol's efficiency (data per wire byte). The rates
// on a link add up to its bandwidth, so no message ever moves slower either: each takes a
// fixed time, and the closed form of the chains is exact (model: a channel chain's hops share
// the links with every hop of every channel; the tree's, collective_model.cpp evaluate_trees).

#include <cstddef>
#include <memory>
#include <vector>

#include "collective/schedule.h"
#include "topology/topology.h"

namespace commsim {

class ChannelRates {
 public:
  /// Schedule ranks run on NPUs npu_of_rank (empty: rank r on NPU r). A rank sends to a
  /// peer once a chunk on a channel (a chain's next hop; a tree's parent and children).
  ChannelRates(const Topology& topology, const Schedule& schedule, const std::vector<Rank>& npu_of_rank,
               double efficiency);
  /// The rate of what `sender` sends to `receiver` on `channel`, data B/s; infinite where
  /// the schedule has no such send.
  BandwidthBps rate(std::size_t channel, Rank sender, Rank receiver) const;

 private:
  struct PeerRate {
    Rank peer;
    BandwidthBps rate;
  };
  std::size_t ranks_;
  std::vector<std::vector<PeerRate>> rates_;  // by channel x ranks + sender: its few peers'
};

/// The channel rates of `schedule` run under `library` (its efficiency), where the schedule
/// runs its channels at fixed rates (Schedule::fixed_channel_rates); else null.
std::unique_ptr<ChannelRates> channel_rates_of(const Topology& topology, const Schedule& schedule,
                                               const std::vector<Rank>& npu_of_rank, const ProtocolCosts& library);

}  // namespace commsim
