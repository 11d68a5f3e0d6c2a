#include "collective/footprint.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "base/error.h"

namespace commsim {
namespace {

// Measured on the 64 MiB direct AllToAll (1,024 NPUs): about 180 B of state per concurrent
// message at the peak: the flow's 80-byte record with its 2-hop route, its completion's
// 16-byte queue entry (~40 B with the queue's slack while arrivals are queued), the
// runner's 24-byte message, the matching map of the first instant, the max-min problem
// (~37 B). Rounded up, with room for longer routes and messages still waiting to match.
constexpr double kBytesPerFlow = 600;
// A lane: step counters and what waits between it and the peer it last met.
constexpr double kBytesPerLane = 64;

std::string rounded(double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3g%s", value, unit);
  return text;
}

}  // namespace

CollectiveFootprint estimate_footprint(const Schedule& schedule, std::size_t chunks) {
  const double p = static_cast<double>(schedule.ranks());
  const double c = static_cast<double>(chunks);
  CollectiveFootprint f;
  StepSpec first;
  for (std::size_t ch = 0; ch < schedule.channels(); ++ch) {
    const std::size_t steps = schedule.steps(0, ch);
    if (steps == 0) continue;
    first.clear();
    schedule.step(0, ch, 0, first);
    const double sends = static_cast<double>(std::max<std::size_t>(first.send_count(), 1));
    f.messages += p * static_cast<double>(steps) * sends * c;
    f.peak_flows += p * sends * std::min(c, static_cast<double>(steps));
  }
  f.lanes = p * static_cast<double>(schedule.channels()) * c;
  f.memory_bytes = f.peak_flows * kBytesPerFlow + f.lanes * kBytesPerLane;
  return f;
}

namespace {

// Why a run whose footprint is `f` is beyond the limits, named `run`; nothing if it is not.
std::optional<std::string> excess(const CollectiveFootprint& f, const std::string& run) {
  if (f.memory_bytes > kMaxCollectiveMemoryBytes) {
    const std::string held = f.peak_flows > 0 ? rounded(f.peak_flows, "") + " messages in flight"
                                              : rounded(f.lanes, "") + " rank x channel x chunk programs";
    return run + " needs about " + rounded(f.memory_bytes / 1e9, " GB") + " of memory (" + held +
           "); the limit is " + rounded(kMaxCollectiveMemoryBytes / 1e9, " GB");
  }
  if (f.messages > kMaxCollectiveMessages) {
    return run + " sends about " + rounded(f.messages, "") + " messages; the limit is " +
           rounded(kMaxCollectiveMessages, "") + " (fewer chunks or ranks)";
  }
  if (f.lanes > kMaxCollectiveLanes) {
    return run + " needs " + rounded(f.lanes, "") + " rank x channel x chunk programs; the limit is 2^32";
  }
  return std::nullopt;
}

std::string with_chunks(const std::string& what, std::size_t chunks) {
  return what + " with " + std::to_string(chunks) + " chunk" + (chunks > 1 ? "s" : "");
}

}  // namespace

std::size_t chunks_within_limits(const Schedule& schedule, std::size_t chunks) {
  while (chunks > 1 && excess(estimate_footprint(schedule, chunks), "")) chunks /= 2;
  return std::max<std::size_t>(chunks, 1);
}

void check_footprint(const Schedule& schedule, std::size_t chunks, const std::string& what) {
  if (const auto why = excess(estimate_footprint(schedule, chunks), with_chunks(what, chunks))) throw InputError(*why);
}

void check_lanes(std::size_t ranks, std::size_t channels, std::size_t chunks, const std::string& what) {
  CollectiveFootprint f;
  f.lanes = static_cast<double>(ranks) * static_cast<double>(channels) * static_cast<double>(chunks);
  f.memory_bytes = f.lanes * kBytesPerLane;
  if (const auto why = excess(f, with_chunks(what, chunks))) throw InputError(*why);
}

}  // namespace commsim
