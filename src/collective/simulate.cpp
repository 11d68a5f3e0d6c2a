#include "collective/simulate.h"

#include <memory>
#include <optional>

#include "base/error.h"
#include "collective/algorithms.h"
#include "collective/data_tracker.h"
#include "collective/footprint.h"
#include "collective/in_switch_run.h"
#include "collective/runner.h"
#include "engine/engine.h"
#include "network/network.h"

namespace commsim {

namespace {

std::string run_name(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm) {
  return std::string(algorithm_name(algorithm)) + " " + std::string(collective_name(kind)) + " on " +
         std::to_string(topology.npu_count()) + " ranks";
}

// nvls, nvls-tree: the switch reduces, so there is no data path to verify.
CollectiveResult simulate_in_switch(const Topology& topology, AlgorithmKind algorithm, Bytes size,
                                    const CollectiveConfig& config) {
  InSwitchRun run = simulate_in_switch_allreduce(topology, algorithm, size, config.library, config.overhead_ps,
                                                 config.rate_caps_by_class, config.on_message);
  CollectiveResult result{run.time_ps, run.flows, {}, {}};
  if (config.record_link_stats) result.link_stats = std::move(run.link_stats);
  return result;
}

std::unique_ptr<Schedule> schedule_of(const Topology& topology, CollectiveKind kind, AlgorithmKind algorithm,
                                      const CollectiveConfig& config) {
  return make_schedule(kind, algorithm, topology, config.root, config.channels, config.tree_node_gpus);
}

}  // namespace

void check_collective_footprint(const Topology& topology, CollectiveKind kind,
                                AlgorithmKind algorithm, const CollectiveConfig& config) {
  if (reduces_in_switch(algorithm)) {  // 2 flows per NPU (+1 across nodes): nothing to refuse
    if (const auto reason = inapplicable_reason(kind, algorithm, topology)) throw InputError(*reason);
    return;
  }
  const std::unique_ptr<Schedule> schedule = schedule_of(topology, kind, algorithm, config);
  check_footprint(*schedule, config.chunks, run_name(topology, kind, algorithm));
}

CollectiveResult simulate_collective(const Topology& topology, CollectiveKind kind,
                                     AlgorithmKind algorithm, Bytes size,
                                     const CollectiveConfig& config) {
  if (reduces_in_switch(algorithm)) {
    if (const auto reason = inapplicable_reason(kind, algorithm, topology)) throw InputError(*reason);
    return simulate_in_switch(topology, algorithm, size, config);
  }
  const std::unique_ptr<Schedule> schedule = schedule_of(topology, kind, algorithm, config);
  check_footprint(*schedule, config.chunks, run_name(topology, kind, algorithm));
  const std::size_t p = topology.npu_count();
  std::optional<DataTracker> tracker;
  if (config.verify) tracker.emplace(kind, p, schedule->blocks(), config.chunks, config.root);

  Engine engine;
  Network network(engine, topology, config.overhead_ps, config.library);
  RunOptions options;
  options.chunks = config.chunks;
  options.gamma_s_per_byte = config.gamma_s_per_byte;
  options.npu_of_rank = config.npu_of_rank;
  options.tracker = tracker ? &*tracker : nullptr;
  options.on_message = config.on_message;
  options.rate_caps_by_class = config.rate_caps_by_class;
  options.library = config.library;
  const auto channel_rates = channel_rates_of(topology, *schedule, config.npu_of_rank, config.library);
  options.channel_rates = channel_rates.get();
  CollectiveRunner runner(network, *schedule, block_space_bytes(kind, size, p), options);
  // The library's per-call latency (launch, set-up) passes before any rank starts.
  engine.schedule_after(config.library.call_latency_ps, [&runner] { runner.start(); });
  engine.run();
  if (!runner.done()) {
    throw InternalError(std::string(algorithm_name(algorithm)) + " " +
                        std::string(collective_name(kind)) + " did not finish: " +
                        runner.stuck_report());
  }
  CollectiveResult result;
  result.time_ps = runner.finish_time();
  result.messages = runner.messages_sent();
  if (tracker) result.verify_error = tracker->verify();
  if (config.record_link_stats) result.link_stats = network.link_stats(result.time_ps);
  return result;
}

}  // namespace commsim
