#pragma once
// A pipeline-parallel training step on a topology and library profile, simulated beside its
// closed form (DESIGN.md section 3, "Pipeline parallelism"): each schedule with each P2P
// mode, the step time, the bubble fraction, the time in communication calls and the peak of
// activations held, beside model/pipeline_model.h:
//   T = (m + p - 1)(tf + tb) for GPipe and 1F1B, (m + (p-1)/v)(tf + tb) interleaved,
//   T_p2p = T + 2 (p v - 1) t_p2p,   bubble (p - 1) / (v m + p - 1).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/pipeline_model.h"
#include "pipeline/pipeline_sim.h"
#include "pipeline/schedules.h"
#include "topology/library.h"
#include "topology/topology.h"

namespace commsim {

struct PipelineStudyOptions {
  /// Stages, micro-batches, per-stage times and activation bytes; the schedule and its
  /// virtual stages are set per run.
  PipelineShape shape;
  std::uint32_t virtual_stages = 2;  // v of the interleaved schedule (the others run 1)
  std::vector<PipelineSchedule> schedules{PipelineSchedule::k1F1B};
  std::vector<P2PMode> modes{P2PMode::kOverlapped};
  /// Overhead, placement, send-first order, timeline, link statistics; the mode and library
  /// are set per run.
  PipelineRunOptions run;
  LibraryProfile library;            // ideal: the wire alone
  std::optional<Protocol> protocol;  // forced; empty: pipeline_protocol
  bool deadlock_is_a_row = false;    // a deadlocked run is reported in its row, not thrown
  std::function<void()> on_run;      // called after each run of a study (progress); may be empty
};

struct PipelineRun {
  PipelineSchedule schedule = PipelineSchedule::k1F1B;
  P2PMode mode = P2PMode::kOverlapped;
  std::uint32_t virtual_stages = 1;
  PipelineResult result;
  PipelineModel model;
  std::string deadlock;                     // the report of a deadlocked run; then no result
  double bubble = 0;                        // mean over stages of idle / step
  double sim_over_model = 0;                // step / the model with P2P
  TimePs mean_p2p_wait_ps = 0;              // mean over stages of the time in communication calls
  std::uint32_t peak_in_flight = 0;         // the most micro-batch chunks any stage holds
  /// Per stage, the bytes of activations held at its peak: a micro-batch on one model chunk
  /// holds 1/v of a stage's activation.
  std::vector<Bytes> peak_activation_bytes;
};

struct PipelineStudy {
  std::optional<Protocol> protocol;  // the library's, for every transfer; empty for ideal
  std::vector<PipelineRun> runs;     // every schedule with every mode, in that order
};

/// The protocol of least closed-form time for one boundary transfer (model/pipeline_model.h
/// boundary_transfer_s; with v > 1 the last stage's wrap to the first counts): every
/// transfer is one activation or gradient.
std::optional<Protocol> pipeline_protocol(const Topology& topology, const PipelineStudyOptions& options);

/// Every run. Throws InputError for a shape or placement that does not fit, and
/// DeadlockError for a deadlock unless deadlock_is_a_row.
PipelineStudy study_pipeline(const Topology& topology, const PipelineStudyOptions& options);

}  // namespace commsim
