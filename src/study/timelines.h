#pragma once
// Timelines of what the commands simulate, as Chrome trace JSON for Perfetto
// (report/chrome_trace.h: tracks split into lanes where slices overlap, args on every slice).
// A process per rank (or pipeline stage), its tracks named by what they hold; every
// transfer's args give its bytes and peer, and what applies of tag, collective, algorithm,
// protocol, channel, chunk and step.

#include <ostream>
#include <vector>

#include "base/collectives.h"
#include "study/collective_study.h"
#include "study/p2p_study.h"
#include "study/pipeline_study.h"
#include "topology/topology.h"
#include "workload/replay.h"
#include "workload/workload.h"

namespace commsim {

/// Pipeline runs recorded with record_timeline: per stage, tracks compute (forward and
/// backward), send and receive, each P2P operation from its posting to its data's arrival.
/// With several runs (--compare), a process per stage of each, named after the run's
/// schedule and P2P mode; runs that deadlocked have no result and are left out.
void write_pipeline_timeline(std::ostream& out, const std::vector<PipelineRun>& runs);

/// A replay recorded with record_timeline: per rank, tracks compute and communication (sends,
/// receives, collectives); with `link_tracks`, a process "links" with a track per channel
/// that carried data, its busy intervals (flows merged).
void write_replay_timeline(std::ostream& out, const Workload& workload, const Topology& topology,
                           const ReplayResult& result, bool link_tracks);

/// A study run with record_timeline: each block's run at the largest size, a process per
/// rank (named after the algorithm too when there are several blocks) with a track "send":
/// each message from when its step issued it to its arrival. An in-switch run has a track
/// "from switch" too. `npu_of_rank`: empty for rank r on NPU r.
void write_collective_timeline(std::ostream& out, const CollectiveStudy& study, CollectiveKind kind,
                               std::size_t ranks, const std::vector<Rank>& npu_of_rank);

/// The pattern at the study's largest size: a process per sending rank with a track "send",
/// each message from when it was sent to its arrival. All-pairs messages ran each alone on
/// an idle network: they are laid out one after another, in the order of the report.
void write_p2p_timeline(std::ostream& out, const P2pStudy& study, const P2pPattern& pattern);

}  // namespace commsim
