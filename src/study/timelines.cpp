#include "study/timelines.h"

#include <algorithm>
#include <map>
#include <string>

#include "report/chrome_trace.h"
#include "topology/link.h"

namespace commsim {
namespace {

std::string rank_name(Rank rank, Rank npu) {
  return "rank " + std::to_string(rank) + (npu == rank ? "" : " (NPU " + std::to_string(npu) + ")");
}

// --- pipeline ---------------------------------------------------------------------------

TraceEvent pipeline_event(const PipelineRun& run, const TimelineEvent& e) {
  TraceEvent event{e.name, e.category, {TraceArg::of("stage", e.device)}};
  std::vector<TraceArg>& args = event.args;
  if (!e.op) {
    args.push_back(TraceArg::of("microbatch", e.microbatch));
    args.push_back(TraceArg::of("chunk", e.chunk));
    args.push_back(TraceArg::of("schedule", schedule_name(run.schedule)));
    return event;
  }
  const P2POp& op = *e.op;
  args.insert(args.end(), {TraceArg::of("bytes", op.bytes), TraceArg::of("peer", op.peer),
                           TraceArg::of("peer_npu", run.result.devices[op.peer].npu), TraceArg::of("tag", op.tag),
                           TraceArg::of("direction", op.direction == P2POp::Direction::kForward ? "forward" : "backward"),
                           TraceArg::of("p2p_mode", p2p_mode_name(run.mode))});
  return event;
}

// --- replay ---------------------------------------------------------------------------

std::string node_name(const WorkloadNode& node) {
  return node.name.empty() ? "node " + std::to_string(node.id) + " " + std::string(node_kind_name(node.kind))
                           : node.name;
}

TraceEvent replay_event(const Workload& w, const ReplayedNode& n) {
  const WorkloadNode& node = w.ranks[n.rank].nodes[n.index];
  TraceEvent event{node_name(node), std::string(node_kind_name(node.kind)), {TraceArg::of("node", node.id)}};
  std::vector<TraceArg>& args = event.args;
  if (node.kind == NodeKind::kSend || node.kind == NodeKind::kRecv) {
    // A receive of 0 bytes does not say its size (WorkloadNode::bytes).
    args.push_back(TraceArg::of("bytes", node.bytes));
    if (node.peer) args.push_back(TraceArg::of("peer", *node.peer));
    args.push_back(TraceArg::of("tag", node.tag));
  } else if (node.kind == NodeKind::kCollective) {
    args.insert(args.end(), {TraceArg::of("bytes", node.bytes), TraceArg::of("collective", collective_name(node.collective)),
                             TraceArg::of("group", node.group ? w.groups[*node.group].name : "all ranks"),
                             TraceArg::of("ranks", w.members(node).size())});
    if (n.algorithm) args.push_back(TraceArg::of("algorithm", algorithm_name(*n.algorithm)));
    if (n.protocol) args.push_back(TraceArg::of("protocol", protocol_name(*n.protocol)));
  } else {
    args.push_back(TraceArg::of("duration_ps", node.duration_ps));
  }
  return event;
}

std::string channel_name(const Topology& t, ChannelId channel) {
  return t.vertex(t.channel_source(channel)).name + " -> " + t.vertex(t.channel_target(channel)).name;
}

TraceEvent link_event(const Topology& t, const LinkSpan& s) {
  return {"busy", "link",
          {TraceArg::of("link", channel_name(t, s.channel)),
           TraceArg::of("kind", link_kind_name(t.link(link_of(s.channel)).params.kind)), TraceArg::of("flows", s.flows)}};
}

// --- collective -------------------------------------------------------------------------

std::string block_label(const CollectiveBlock& block) {
  return block.algorithm ? std::string(algorithm_name(*block.algorithm)) : "nccl";
}

TraceEvent collective_event(const CollectiveBlock& block, CollectiveKind kind, const CollectiveMessage& m) {
  const CollectivePoint& point = block.points[block.timeline_point];
  TraceEvent event{m.peer ? "send to rank " + std::to_string(*m.peer) : m.from_switch ? "from switch" : "to switch",
                   "send", {TraceArg::of("bytes", m.bytes)}};
  std::vector<TraceArg>& args = event.args;
  args.push_back(m.peer ? TraceArg::of("peer", *m.peer) : TraceArg::of("peer", "switch"));
  args.insert(args.end(), {TraceArg::of("collective", collective_name(kind)),
                           TraceArg::of("algorithm", algorithm_name(point.algorithm))});
  if (point.protocol) args.push_back(TraceArg::of("protocol", protocol_name(*point.protocol)));
  if (!reduces_in_switch(point.algorithm)) {
    args.insert(args.end(), {TraceArg::of("channel", m.channel), TraceArg::of("chunk", m.chunk),
                             TraceArg::of("step", m.step)});
  }
  args.push_back(TraceArg::of("size", point.size));
  return event;
}

// The tracks of one block's ranks, from tracks.size() on: "send" per rank, and "from
// switch" after it for an in-switch run.
void add_collective_tracks(std::vector<TraceTrack>& tracks, const CollectiveBlock& block, std::uint32_t first_process,
                           std::size_t ranks, const std::vector<Rank>& npu_of_rank, bool labelled) {
  const bool in_switch = reduces_in_switch(block.points[block.timeline_point].algorithm);
  for (Rank r = 0; r < ranks; ++r) {
    const std::string process = (labelled ? block_label(block) + ": " : "") +
                                rank_name(r, npu_of_rank.empty() ? r : npu_of_rank[r]);
    tracks.push_back({first_process + r, process, "send"});
    if (in_switch) tracks.push_back({first_process + r, process, "from switch"});
  }
}

// --- p2p --------------------------------------------------------------------------------

const P2pPoint& largest_point(const P2pStudy& study) {
  return *std::max_element(study.points.begin(), study.points.end(),
                           [](const P2pPoint& a, const P2pPoint& b) { return a.size < b.size; });
}

}  // namespace

void write_pipeline_timeline(std::ostream& out, const std::vector<PipelineRun>& runs) {
  std::vector<TraceTrack> tracks;
  std::vector<TraceSlice> slices;
  std::vector<std::pair<const PipelineRun*, const TimelineEvent*>> events;  // per slice
  std::uint32_t first_process = 0;
  for (const PipelineRun& run : runs) {
    if (!run.deadlock.empty()) continue;
    const std::string label = runs.size() > 1 ? std::string(schedule_name(run.schedule)) + ", " +
                                                    std::string(p2p_mode_name(run.mode)) + " P2P: "
                                              : "";
    const auto first_track = static_cast<std::uint32_t>(tracks.size());
    const auto devices = static_cast<std::uint32_t>(run.result.devices.size());
    for (std::uint32_t d = 0; d < devices; ++d) {
      const std::string stage =
          label + "stage " + std::to_string(d) + " (NPU " + std::to_string(run.result.devices[d].npu) + ")";
      for (const char* track : {"compute", "send", "receive"}) tracks.push_back({first_process + d, stage, track});
    }
    for (const TimelineEvent& e : run.result.timeline) {
      const std::uint32_t track = e.category == "send" ? 1 : e.category == "recv" ? 2 : 0;
      slices.push_back({first_track + 3 * e.device + track, e.start_ps, e.end_ps});
      events.emplace_back(&run, &e);
    }
    first_process += devices;
  }
  write_chrome_trace(out, tracks, slices, [&](std::size_t i) { return pipeline_event(*events[i].first, *events[i].second); });
}

void write_replay_timeline(std::ostream& out, const Workload& workload, const Topology& topology,
                           const ReplayResult& result, bool link_tracks) {
  std::vector<TraceTrack> tracks;
  for (Rank rank = 0; rank < workload.rank_count(); ++rank) {
    tracks.push_back({rank, "rank " + std::to_string(rank), "compute"});
    tracks.push_back({rank, "rank " + std::to_string(rank), "communication"});
  }
  std::vector<TraceSlice> slices;
  std::vector<const ReplayedNode*> nodes;
  for (const ReplayedNode& n : result.timeline) {
    const NodeKind kind = workload.ranks[n.rank].nodes[n.index].kind;
    if (kind == NodeKind::kSkipped) continue;
    slices.push_back({2 * n.rank + (kind == NodeKind::kCompute ? 0 : 1), n.start_ps, n.end_ps});
    nodes.push_back(&n);
  }
  if (link_tracks) {
    const auto links = static_cast<std::uint32_t>(workload.rank_count());
    for (std::size_t i = 0; i < result.link_busy.size(); ++i) {
      const LinkSpan& s = result.link_busy[i];  // sorted by channel
      if (i == 0 || result.link_busy[i - 1].channel != s.channel) {
        tracks.push_back({links, "links", channel_name(topology, s.channel)});
      }
      slices.push_back({static_cast<std::uint32_t>(tracks.size() - 1), s.start_ps, s.end_ps});
    }
  }
  write_chrome_trace(out, tracks, slices, [&](std::size_t i) {
    return i < nodes.size() ? replay_event(workload, *nodes[i])
                            : link_event(topology, result.link_busy[i - nodes.size()]);
  });
}

void write_collective_timeline(std::ostream& out, const CollectiveStudy& study, CollectiveKind kind,
                               std::size_t ranks, const std::vector<Rank>& npu_of_rank) {
  std::vector<TraceTrack> tracks;
  std::vector<TraceSlice> slices;
  std::vector<std::pair<const CollectiveBlock*, const CollectiveMessage*>> messages;
  const bool labelled = study.blocks.size() > 1;
  for (std::size_t b = 0; b < study.blocks.size(); ++b) {
    const CollectiveBlock& block = study.blocks[b];
    if (block.points.empty()) continue;
    const auto first_track = static_cast<std::uint32_t>(tracks.size());
    const bool in_switch = reduces_in_switch(block.points[block.timeline_point].algorithm);
    add_collective_tracks(tracks, block, static_cast<std::uint32_t>(b * ranks), ranks, npu_of_rank, labelled);
    for (const CollectiveMessage& m : block.timeline) {
      const std::uint32_t track = in_switch ? 2 * m.rank + (m.from_switch ? 1 : 0) : m.rank;
      slices.push_back({first_track + track, m.issued_ps, m.arrived_ps});
      messages.emplace_back(&block, &m);
    }
  }
  write_chrome_trace(out, tracks, slices, [&](std::size_t i) {
    return collective_event(*messages[i].first, kind, *messages[i].second);
  });
}

void write_p2p_timeline(std::ostream& out, const P2pStudy& study, const P2pPattern& pattern) {
  const P2pPoint& point = largest_point(study);
  std::map<Rank, std::uint32_t> track_of;  // sending rank -> its track, in rank order
  for (const P2pMessageResult& r : point.messages) track_of.emplace(r.message.src, 0);
  std::vector<TraceTrack> tracks;
  for (auto& [rank, track] : track_of) {
    track = static_cast<std::uint32_t>(tracks.size());
    tracks.push_back({rank, rank_name(rank, rank), "send"});
  }
  const bool in_turn = pattern.kind == P2pPattern::Kind::kAllPairs;
  std::vector<TraceSlice> slices;
  TimePs offset = 0;  // all-pairs: the messages before this one, each alone in turn
  for (const P2pMessageResult& r : point.messages) {
    slices.push_back({track_of.at(r.message.src), offset + r.sent_ps, offset + r.sim_ps});
    if (in_turn) offset += r.sim_ps;
  }
  write_chrome_trace(out, tracks, slices, [&](std::size_t i) {
    const P2pMessageResult& r = point.messages[i];
    TraceEvent event{"send to rank " + std::to_string(r.message.dst), "send",
                     {TraceArg::of("bytes", r.message.bytes), TraceArg::of("peer", r.message.dst),
                      TraceArg::of("pattern", pattern.name)}};
    if (point.protocol) event.args.push_back(TraceArg::of("protocol", protocol_name(*point.protocol)));
    return event;
  });
}

}  // namespace commsim
