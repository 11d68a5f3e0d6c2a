#include "workload/replay_deadlock.h"

#include <string>

#include "base/error.h"

namespace commsim::replay {
namespace {

std::string why_blocked(const Workload& w, Rank r, const WorkloadNode& s, const CollectiveMeetings& meetings) {
  const std::string tag = " tag " + std::to_string(s.tag);
  switch (s.kind) {
    case NodeKind::kSend:
      return s.peer ? "send of " + std::to_string(s.bytes) + " B to rank " + std::to_string(*s.peer) + tag +
                          " has no matching receive"
                    : "send with no destination rank has no matching receive";
    case NodeKind::kRecv:
      return s.peer ? "receive from rank " + std::to_string(*s.peer) + tag + " has no matching send"
                    : "receive with no source rank has no matching send";
    case NodeKind::kCollective: {
      std::string text(collective_name(s.collective));
      if (s.group) {
        text += " of group '";
        text += w.groups[*s.group].name;
        text += "'";
      } else {
        text += " of all ranks";
      }
      return text + " waits for rank(s) " + meetings.missing_members(r, s) + " that never reach it";
    }
    default: return "did not finish";
  }
}

}  // namespace

void report_deadlock(const Workload& workload, const std::vector<NodeRef>& blocked, std::size_t waiting_behind,
                     const CollectiveMeetings& meetings) {
  if (blocked.empty()) return;
  std::vector<std::string> report;
  for (const NodeRef n : blocked) {
    const WorkloadNode& s = workload.ranks[n.rank].nodes[n.index];
    report.push_back(node_context(workload, n.rank, s) + ": " + why_blocked(workload, n.rank, s, meetings));
  }
  const std::string waiting = std::to_string(report.size()) + (report.size() == 1 ? " node waits" : " nodes wait");
  if (waiting_behind > 0) report.push_back("and " + std::to_string(waiting_behind) + " nodes waiting on these");
  throw deadlock_error("replay deadlock: " + waiting + " on communication that never comes", report);
}

}  // namespace commsim::replay
