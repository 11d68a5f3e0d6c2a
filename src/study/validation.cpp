#include "study/validation.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/counted.h"
#include "base/error.h"
#include "base/ordered_parallel.h"
#include "collective/algorithms.h"
#include "model/one_node_ramp.h"
#include "study/collective_study.h"
#include "study/p2p_study.h"

namespace commsim {
namespace {

struct Prediction {
  std::string algorithm;
  std::optional<Protocol> protocol;
  std::optional<std::uint32_t> channels;
  TimePs time_ps = 0;
};

Prediction predict_collective(const Topology& topology, const Measurement& row, const ValidationOptions& o) {
  const CollectiveKind kind = *row.operation.collective;
  const Bytes size = row.size_bytes;
  CollectiveStudyOptions options;
  options.gpus_per_thread = o.library.gpus_per_thread_or(row.gpus_per_thread);
  options.library = library_for_span(o.library, topology);
  options.protocol = o.protocol;
  options.run.channels = o.channels.value_or(default_channels(topology, o.library));
  options.pipeline_as_library = !o.library.ideal();
  const CollectivePoint point = run_collective_point(topology, kind, o.algorithm, size, options);
  const auto channels = point.protocol ? std::optional(point.channels) : std::nullopt;
  return {std::string(algorithm_name(point.algorithm)), point.protocol, channels, point.sim_ps};
}

// A profiled pair sends alone; an nccl-tests sendrecv row is every rank sending to the next.
Prediction predict_p2p(const Topology& topology, const Measurement& row, const ValidationOptions& o) {
  const std::vector<Message> messages =
      row.src_rank && row.dst_rank
          ? std::vector<Message>{{static_cast<Rank>(*row.src_rank), static_cast<Rank>(*row.dst_rank), row.size_bytes}}
          : sendrecv_ring(topology, row.size_bytes);
  P2pStudyOptions options{0, o.library, o.protocol, {}};
  options.gpus_per_thread = o.library.gpus_per_thread_or(row.gpus_per_thread);
  const P2pPoint point = run_p2p_point(topology, messages, options);
  return {"p2p", point.protocol, point.channels, point.sim_ps};
}

// How a row's ranks come to a topology of as many NPUs: the shipped cluster specs are built
// at the nodes and GPUs a node the row's file names (validate), or at --nodes and
// --gpus-per-node.
constexpr std::string_view kScaleACluster =
    "give a cluster spec, such as --topology-file h100-ib-cluster (or a100-, b200-ib-cluster): it is built at "
    "the nodes and GPUs a node the file names, or at --nodes and --gpus-per-node";

// " on 10 hosts of 2 GPUs" where the row's file names its hosts; else nothing.
std::string hosts_text(const Measurement& row) {
  if (row.nodes == 0) return "";
  std::string text = " on " + counted(row.nodes, "host");
  if (row.gpus_per_node > 0) text += " of " + counted(row.gpus_per_node, "GPU");
  return text;
}

void check_fits(const Topology& topology, const Measurement& row) {
  const std::size_t npus = topology.npu_count();
  if (row.ranks != 0 && row.ranks != npus && !(row.src_rank && row.dst_rank)) {
    throw InputError(row.source + ": " + std::to_string(row.ranks) + " ranks" + hosts_text(row) + ", and topology '" +
                     topology.name() + "' has " + std::to_string(npus) + " NPUs (" + std::string(kScaleACluster) + ")");
  }
  for (const auto& rank : {row.src_rank, row.dst_rank}) {
    if (rank && *rank >= npus) {
      throw InputError(row.source + ": rank " + std::to_string(*rank) + " is not an NPU of topology '" + topology.name() +
                       "' (0.." + std::to_string(npus - 1) + ")");
    }
  }
  if (!(row.out_of_place.time_us > 0)) throw InputError(row.source + ": a measured time must be positive");
}

}  // namespace

ErrorSummary summarise_errors(std::vector<double> errors) {
  ErrorSummary s;
  s.rows = errors.size();
  if (errors.empty()) return s;
  for (double& e : errors) e = std::abs(e);
  std::sort(errors.begin(), errors.end());
  const auto quantile = [&](double q) {
    const double k = static_cast<double>(errors.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(k);
    const std::size_t hi = std::min(lo + 1, errors.size() - 1);
    return errors[lo] + (errors[hi] - errors[lo]) * (k - static_cast<double>(lo));
  };
  s.median_abs_error = quantile(0.5);
  s.p90_abs_error = quantile(0.9);
  return s;
}

std::vector<TableErrors> tables_over(const ValidationResult& result, const ErrorLimits& limits) {
  std::vector<TableErrors> over;
  for (const TableErrors& table : result.by_table) {
    if (table.errors.median_abs_error > limits.median_abs_error || table.errors.p90_abs_error > limits.p90_abs_error) {
      over.push_back(table);
    }
  }
  return over;
}

namespace {

// The errors of the rows of each key, in the order of each key's first row.
template <typename Key>
class ErrorsBy {
 public:
  void add(const Key& key, double error) {
    auto it = std::find_if(groups_.begin(), groups_.end(), [&](const auto& group) { return group.first == key; });
    if (it == groups_.end()) it = groups_.insert(it, {key, {}});
    it->second.push_back(error);
  }
  const std::vector<std::pair<Key, std::vector<double>>>& groups() const { return groups_; }

 private:
  std::vector<std::pair<Key, std::vector<double>>> groups_;
};

// The prediction of `row` on `topology`, none for a call the library discards. InputError
// on a row that does not fit the topology, naming it.
std::optional<Prediction> predict(const Topology& topology, const Measurement& row, const ValidationOptions& o) {
  check_fits(topology, row);
  if (!row.operation.is_p2p() && o.library.discards(*row.operation.collective, row.size_bytes, topology.npu_count())) {
    return std::nullopt;
  }
  try {
    return row.operation.is_p2p() ? predict_p2p(topology, row, o) : predict_collective(topology, row, o);
  } catch (const InputError& e) {
    throw InputError(row.source + ": " + e.what());
  }
}

// Rows are predicted (predict), added one by one in order, each with its topology (add), and
// summarised at the end (finish).
class Validator {
 public:
  void add(const Topology& topology, const Measurement& measured, const std::optional<Prediction>& prediction) {
    if (!prediction) {
      ++result_.discarded_rows;
      return;
    }
    const Measurement row = complete_for(measured, topology.npu_count());
    const Prediction& p = *prediction;
    const double predicted_us = us_from_ps(p.time_ps);
    const double error = (predicted_us - row.out_of_place.time_us) / row.out_of_place.time_us;
    result_.rows.push_back({row, p.algorithm, p.protocol, p.channels, predicted_us, error});
    all_.push_back(error);
    (row.size_bytes <= kSmallRegimeMaxBytes   ? small_
     : row.size_bytes >= kLargeRegimeMinBytes ? large_
                                              : mid_)
        .push_back(error);
    by_operation_.add(row.operation, error);
    // A profiled pair keeps no rank count (complete_for): it counts among the topology's NPUs.
    by_table_.add({row.operation, row.ranks != 0 ? row.ranks : topology.npu_count()}, error);
  }

  ValidationResult finish() {
    for (const auto& [operation, errors] : by_operation_.groups()) {
      result_.by_operation.push_back({operation, summarise_errors(errors)});
    }
    for (const auto& [table, errors] : by_table_.groups()) {
      result_.by_table.push_back({table.first, table.second, summarise_errors(errors)});
    }
    result_.all = summarise_errors(all_);
    result_.small = summarise_errors(small_);
    result_.mid = summarise_errors(mid_);
    result_.large = summarise_errors(large_);
    return std::move(result_);
  }

 private:
  ValidationResult result_;
  std::vector<double> all_, small_, mid_, large_;
  ErrorsBy<MeasuredOperation> by_operation_;
  ErrorsBy<std::pair<MeasuredOperation, std::size_t>> by_table_;  // operation, ranks
};

}  // namespace

ValidationResult validate_measurements(const Topology& topology, const std::vector<Measurement>& rows,
                                       const ValidationOptions& options) {
  Validator validator;
  for (const Measurement& row : rows) validator.add(topology, row, predict(topology, row, options));
  return validator.finish();
}

ValidationResult validate_measurements(const std::vector<MeasuredRows>& groups, const ValidationOptions& options) {
  struct Placed {
    std::size_t place;
    const Topology* topology;
    const Measurement* row;
  };
  std::vector<Placed> placed;
  for (const MeasuredRows& group : groups) {
    for (std::size_t i = 0; i < group.rows.size(); ++i) {
      const std::size_t place = group.places.empty() ? placed.size() : group.places.at(i);
      placed.push_back({place, &group.topology, &group.rows[i]});
    }
  }
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.place < b.place; });
  Validator validator;
  // On several threads each row runs on a copy of its topology, whose routes an explicit
  // graph fills in as they are asked (Topology's cache of fastest paths is not shared).
  run_in_order<std::optional<Prediction>>(
      placed.size(), options.jobs,
      [&](std::size_t i) {
        if (options.jobs <= 1) return predict(*placed[i].topology, *placed[i].row, options);
        const Topology own = *placed[i].topology;
        return predict(own, *placed[i].row, options);
      },
      [&](std::size_t i, std::optional<Prediction>&& prediction) {
        validator.add(*placed[i].topology, *placed[i].row, prediction);
      });
  return validator.finish();
}

}  // namespace commsim
