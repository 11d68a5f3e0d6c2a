#pragma once
// Per-link statistics as every command that simulates reports them (network/link_stats.h):
// the five hottest links as comment lines of the text report, and with --link-stats FILE
// every direction of every link (a half-duplex link as one row) as CSV:
//   link,kind,direction,bandwidth_GBps,bytes,busy_us,utilisation,peak_flows
// link: the link's index in the topology; direction: "a -> b", or "a <-> b" for a
// half-duplex link's shared capacity; bytes: on the wire; utilisation = bytes / (bandwidth x
// the run's simulated time).

#include <optional>
#include <ostream>
#include <string>

#include "base/output_file.h"
#include "command_line.h"
#include "network/link_stats.h"
#include "topology/topology.h"

namespace commsim::cli {

/// Adds --link-stats FILE; `which_run` ends its help, saying whose links the file holds
/// ("of the largest size").
void add_link_stats_option(po::options_description& options, const std::string& which_run);

/// --link-stats FILE, opened on construction (before the run), so that a bad path fails at
/// once with nothing simulated.
class LinkStatsOutput {
 public:
  explicit LinkStatsOutput(const po::variables_map& vm);
  bool requested() const { return file_.has_value(); }

  /// Prints the hottest links of `run` (what ran, "ring allreduce at 1048576 B") as comment
  /// lines to `out`, and writes and keeps the file if one was asked for.
  void report(std::ostream& out, const Topology& topology, const LinkStats& stats, const std::string& run);

 private:
  std::optional<OutputFile> file_;
};

}  // namespace commsim::cli
