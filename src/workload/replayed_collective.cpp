#include "workload/replayed_collective.h"

#include <algorithm>
#include <map>

namespace commsim {

double algbw_GBps(const CollectiveCall& call, TimePs time_ps) { return rate_GBps(call.bytes, time_ps); }

double busbw_GBps(const CollectiveCall& call, TimePs time_ps) {
  return algbw_GBps(call, time_ps) * busbw_factor(call.kind, call.ranks);
}

double CollectiveTally::algbw_GBps() const { return rate_GBps_in_seconds(call.bytes, mean_us() * 1e-6); }

double CollectiveTally::busbw_GBps() const { return algbw_GBps() * busbw_factor(call.kind, call.ranks); }

std::vector<CollectiveTally> tally_collectives(const std::vector<ReplayedCollective>& collectives) {
  std::vector<CollectiveTally> rows;
  std::map<CollectiveCall, std::size_t> row_of;
  for (const ReplayedCollective& c : collectives) {
    const auto [it, added] = row_of.try_emplace(c.call, rows.size());
    if (added) rows.push_back({c.call, 0, 0, c.time_ps(), c.time_ps()});
    CollectiveTally& row = rows[it->second];
    ++row.count;
    row.total_us += us_from_ps(c.time_ps());
    row.min_ps = std::min(row.min_ps, c.time_ps());
    row.max_ps = std::max(row.max_ps, c.time_ps());
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const CollectiveTally& a, const CollectiveTally& b) { return a.total_us > b.total_us; });
  return rows;
}

}  // namespace commsim
