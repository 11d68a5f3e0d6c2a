#include "collective/channel_rates.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

struct Message {
  std::size_t index;  // channel x ranks + sender
  Rank receiver;
  double blocks;
  Route route;
};

// Every message of one chunk: each rank's sends on each channel, all its steps.
std::vector<Message> messages_of_a_chunk(const Topology& topology, const Schedule& schedule,
                                         const std::vector<Rank>& npu_of_rank) {
  const auto npu = [&](Rank r) { return npu_of_rank.empty() ? r : npu_of_rank[r]; };
  std::vector<Message> messages;
  std::set<std::pair<std::size_t, Rank>> sends;  // (channel x ranks + sender, receiver)
  StepSpec spec;
  for (Rank r = 0; r < schedule.ranks(); ++r) {
    for (std::size_t ch = 0; ch < schedule.channels(); ++ch) {
      for (std::size_t k = 0; k < schedule.steps(r, ch); ++k) {
        spec.clear();
        schedule.step(r, ch, k, spec);
        for (std::size_t i = 0; i < spec.send_count(); ++i) {
          const SendSpec& send = spec.sends(i);
          const std::size_t index = ch * schedule.ranks() + r;
          COMMSIM_CHECK(sends.insert({index, send.peer}).second,
                        "channel rates of a rank that sends twice to a peer on a channel");
          double blocks = 0;
          for (const BlockRange& range : send.blocks) blocks += range.count;
          messages.push_back({index, send.peer, blocks, topology.route(npu(r), npu(send.peer))});
        }
      }
    }
  }
  return messages;
}

}  // namespace

ChannelRates::ChannelRates(const Topology& topology, const Schedule& schedule, const std::vector<Rank>& npu_of_rank,
                           double efficiency)
    : ranks_(schedule.ranks()), rates_(schedule.channels() * schedule.ranks()) {
  const std::vector<Message> messages = messages_of_a_chunk(topology, schedule, npu_of_rank);
  // W per link direction; a half-duplex link's two directions are one (its link id, marked).
  constexpr std::uint64_t kWholeLink = std::uint64_t{1} << 63;
  const auto half_duplex = [&](ChannelId c) { return topology.link(link_of(c)).params.duplex == Duplex::kHalf; };
  const auto key = [&](ChannelId c) { return half_duplex(c) ? kWholeLink | link_of(c) : std::uint64_t{c}; };
  std::map<std::uint64_t, double> blocks_on;
  std::map<LinkId, unsigned> directions;  // of a half-duplex link: bit 0 one way, bit 1 the other
  for (const Message& m : messages) {
    for (const ChannelId c : m.route) {
      blocks_on[key(c)] += m.blocks;
      if (half_duplex(c)) directions[link_of(c)] |= 1u << (c % 2);
    }
  }
  const auto bandwidth = [&](ChannelId c) {
    const LinkParams& link = topology.link(link_of(c)).params;
    const bool both_ways = half_duplex(c) && directions[link_of(c)] == 3;
    return link.bandwidth_Bps * (both_ways ? link.both_ways_efficiency : 1);
  };
  for (const Message& m : messages) {
    BandwidthBps rate = std::numeric_limits<double>::infinity();
    for (const ChannelId c : m.route) rate = std::min(rate, efficiency * bandwidth(c) * m.blocks / blocks_on[key(c)]);
    rates_[m.index].push_back({m.receiver, rate});
  }
}

BandwidthBps ChannelRates::rate(std::size_t channel, Rank sender, Rank receiver) const {
  for (const PeerRate& to : rates_[channel * ranks_ + sender]) {
    if (to.peer == receiver) return to.rate;
  }
  return std::numeric_limits<double>::infinity();
}

std::unique_ptr<ChannelRates> channel_rates_of(const Topology& topology, const Schedule& schedule,
                                               const std::vector<Rank>& npu_of_rank, const ProtocolCosts& library) {
  if (!schedule.fixed_channel_rates()) return nullptr;
  return std::make_unique<ChannelRates>(topology, schedule, npu_of_rank, library.efficiency);
}

}  // namespace commsim
