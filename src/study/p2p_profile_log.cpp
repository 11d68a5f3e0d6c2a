#include "study/p2p_profile_log.h"

#include <algorithm>
#include <limits>
#include <map>

#include "base/error.h"
#include "base/input_file.h"
#include "study/text_table.h"

namespace commsim {
namespace {

struct TransferKey {
  std::size_t src = 0;
  std::size_t dst = 0;
  Bytes size = 0;
  auto operator<=>(const TransferKey&) const = default;
};

std::string describe(const TransferKey& key) {
  return std::to_string(key.src) + "->" + std::to_string(key.dst) + " " + std::to_string(key.size) +
         " B";
}

// The rows of one transfer so far.
struct Repetitions {
  std::uint64_t config_id = 0;
  std::size_t first_line = 0;
  std::string source;  // "PATH:LINE" of the first
  std::map<std::uint64_t, std::size_t> line_of_repetition;
  std::vector<std::uint64_t> durations_ns;
};

struct Columns {
  std::size_t config_id, src, dst, size, repetition, start, end, duration;
};

Columns columns_of(const CsvHeader& header) {
  return Columns{header.require("config_id"),
                 header.require("src"),
                 header.require("dst"),
                 header.require("size"),
                 header.require("repetition"),
                 header.require("timestamp_start_ns"),
                 header.require("timestamp_end_ns"),
                 header.require("duration_ns")};
}

std::uint64_t whole(std::string_view text, std::string_view field, const std::string& where,
                    std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  const std::string what = where + ": " + std::string(field);
  if (text.starts_with('-')) throw InputError(what + " '" + std::string(text) + "' is negative");
  return parse_count(text, what, 0, max);
}

class ProfileReader {
 public:
  void read_row(const CsvRow& row, const Columns& c) {
    const std::vector<std::string_view>& f = row.fields;
    const std::string& where = row.location;
    const std::size_t line = row.line_number;
    constexpr std::uint64_t kMaxRank = std::numeric_limits<std::uint32_t>::max();
    const std::uint64_t config_id = whole(f[c.config_id], "config_id", where);
    const TransferKey key{whole(f[c.src], "src", where, kMaxRank),
                          whole(f[c.dst], "dst", where, kMaxRank),
                          whole(f[c.size], "size", where, kMaxBytes)};
    const std::uint64_t repetition = whole(f[c.repetition], "repetition", where);
    const std::uint64_t start = whole(f[c.start], "timestamp_start_ns", where);
    const std::uint64_t end = whole(f[c.end], "timestamp_end_ns", where);
    const std::uint64_t duration = whole(f[c.duration], "duration_ns", where);
    if (end < start) {
      throw InputError(where + ": timestamp_end_ns " + std::to_string(end) +
                       " is before timestamp_start_ns " + std::to_string(start));
    }
    if (duration != end - start) {
      throw InputError(
          where + ": duration_ns " + std::to_string(duration) +
          " is not timestamp_end_ns - timestamp_start_ns = " + std::to_string(end - start));
    }
    check_config(config_id, key, line, where);
    Repetitions& transfer = transfers_[key];
    if (transfer.durations_ns.empty()) {
      transfer.config_id = config_id;
      transfer.first_line = line;
      transfer.source = where;
    }
    const auto [previous, inserted] = transfer.line_of_repetition.emplace(repetition, line);
    if (!inserted) {
      throw InputError(where + ": repetition " + std::to_string(repetition) + " of " +
                       describe(key) + " again (first at line " + std::to_string(previous->second) +
                       ")");
    }
    transfer.durations_ns.push_back(duration);
  }

  std::vector<P2pTransferTiming> timings() const {
    std::vector<P2pTransferTiming> result;
    for (const auto& [key, transfer] : transfers_) result.push_back(timing_of(key, transfer));
    return result;  // in key order: (src, dst, size)
  }

 private:
  // A configuration is one (src, dst, size): the same id for the same transfer, always.
  void check_config(std::uint64_t config_id, const TransferKey& key, std::size_t line,
                    const std::string& where) {
    const auto [config, inserted] = config_transfer_.emplace(config_id, std::pair{key, line});
    if (!inserted && config->second.first != key) {
      throw InputError(where + ": config_id " + std::to_string(config_id) + " is " + describe(key) +
                       " here but " + describe(config->second.first) + " at line " +
                       std::to_string(config->second.second));
    }
    const auto transfer = transfers_.find(key);
    if (transfer != transfers_.end() && transfer->second.config_id != config_id) {
      throw InputError(where + ": " + describe(key) + " has config_id " +
                       std::to_string(config_id) + " here but " +
                       std::to_string(transfer->second.config_id) + " at line " +
                       std::to_string(transfer->second.first_line));
    }
  }

  static P2pTransferTiming timing_of(const TransferKey& key, const Repetitions& transfer) {
    std::vector<std::uint64_t> d = transfer.durations_ns;
    std::sort(d.begin(), d.end());
    const std::size_t n = d.size();
    const double median =
        n % 2 == 1 ? static_cast<double>(d[n / 2])
                   : (static_cast<double>(d[n / 2 - 1]) + static_cast<double>(d[n / 2])) / 2;
    return P2pTransferTiming{.config_id = transfer.config_id,
                             .src_rank = key.src,
                             .dst_rank = key.dst,
                             .size_bytes = key.size,
                             .repetitions = n,
                             .median_duration_ns = median,
                             .min_duration_ns = d.front(),
                             .max_duration_ns = d.back(),
                             .source = transfer.source};
  }

  std::map<TransferKey, Repetitions> transfers_;
  std::map<std::uint64_t, std::pair<TransferKey, std::size_t>> config_transfer_;
};

}  // namespace

std::vector<P2pTransferTiming> parse_p2p_profile_log(std::string_view text,
                                                     const std::string& origin) {
  const CsvFile csv = split_csv(text, origin, "config_id,src,dst,size,...,duration_ns");
  const Columns columns = columns_of(csv.header);
  ProfileReader reader;
  for (const CsvRow& row : csv.rows) reader.read_row(row, columns);
  return reader.timings();
}

std::vector<P2pTransferTiming> read_p2p_profile_log(const std::string& path) {
  return parse_p2p_profile_log(read_input_file(path, "P2P profile log"), path);
}

MeasurementSet p2p_profile_measurements(const std::vector<P2pTransferTiming>& timings,
                                        const std::string& origin) {
  MeasurementSet set;
  set.origin = origin;
  for (const P2pTransferTiming& timing : timings) {
    Measurement row;
    row.operation = MeasuredOperation::point_to_point();
    row.size_bytes = timing.size_bytes;
    row.out_of_place.time_us = timing.median_duration_ns / 1e3;
    // bytes per nanosecond are GB/s (1e9 B/s).
    const double bandwidth_GBps =
        timing.median_duration_ns > 0
            ? static_cast<double>(timing.size_bytes) / timing.median_duration_ns
            : 0;
    row.out_of_place.algbw_GBps = bandwidth_GBps;
    row.out_of_place.busbw_GBps = bandwidth_GBps;
    row.src_rank = timing.src_rank;
    row.dst_rank = timing.dst_rank;
    row.repetitions = timing.repetitions;
    row.source = timing.source;
    set.rows.push_back(std::move(row));
  }
  return set;
}

}  // namespace commsim
