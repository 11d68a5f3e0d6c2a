#pragma once
// Closed form of AllReduce reduced in the switch (nvls, nvls-tree): in_switch_model.cpp.

#include "model/collective_model.h"
#include "model/cost_plan.h"
#include "topology/library.h"

namespace commsim::model {

/// The cap on each flow of nvls-tree's tree across nodes under `profile`, B/s (infinite where
/// the profile bounds no channel across the network, or on one node): NCCL's NVLSTree runs its
/// C channels (LibraryProfile::call_channels, NVLS's own) over G heads a node, GPU k and its
/// NIC, C / G channels each, and a channel moves at most net_channel_rate across the network
/// (the bound rings take: LibraryProfile::net_channel_rate_Bps). A head sends, and receives,
/// one flow per tree edge of its node, up to E of them (a node inside one tree with a parent
/// and two children and a leaf of the other: E = 4 beyond two nodes, 2 on two), so each flow
/// gets 1/E of the head's channels:
///   cap = net_channel_rate x C / G / E
/// The flows are all of one size and the busiest head's set the time, so the cap gives what
/// a head's shared bound would. 10 nodes of 8 H100s: 20 GB/s x 16 / 8 / 4 = 10 GB/s a flow,
/// 40 GB/s a head, so 320 GB/s of a node's 388 GB/s of NICs, as rings sustain there
/// (NVIDIA/nccl issue 1221: with 8 x 400 Gb/s a node, "more than 2" nodes run AllReduce at
/// "same busbw 320GB" with NVLS on and off; 2 nodes gain from it).
BandwidthBps nvls_tree_flow_cap(const Topology& t, Bytes size, const LibraryProfile& profile);

/// The terms without the library's call latency (collective_cost adds it). Throws
/// InputError if the topology cannot run the algorithm.
CollectiveCost in_switch_cost(const Topology& t, Algo algorithm, Bytes size, const ModelOptions& o);

}  // namespace commsim::model
