#include "study/measurement.h"

#include <algorithm>
#include <iterator>

#include "base/counted.h"
#include "base/error.h"
#include "base/joined.h"
#include "base/name_match.h"

namespace commsim {
namespace {

// nccl-tests' name of its point-to-point test (src/sendrecv.cu), which has no CollectiveKind.
constexpr std::string_view kSendRecvName = "sendrecv";

// Barrier moves no data: nccl-tests has no test of it, and no measurement here is one.
bool is_measurable(CollectiveKind kind) { return kind != CollectiveKind::kBarrier; }

}  // namespace

std::vector<std::string_view> measured_operation_names() {
  std::vector<std::string_view> names;
  for (const CollectiveKind kind : all_collectives()) {
    if (is_measurable(kind)) names.push_back(collective_name(kind));
  }
  names.push_back(kSendRecvName);
  return names;
}

std::string measured_operation_name(const MeasuredOperation& operation) {
  if (operation.is_p2p()) return std::string(kSendRecvName);
  return std::string(collective_name(*operation.collective));
}

std::optional<MeasuredOperation> measured_operation_from_name(std::string_view name) {
  // nccl-tests spells them all_reduce, sendrecv and the like: any spelling is taken.
  if (same_loose_name(name, kSendRecvName)) return MeasuredOperation::point_to_point();
  const auto kind = collective_from_name(name);
  if (!kind || !is_measurable(*kind)) return std::nullopt;
  return MeasuredOperation::of(*kind);
}

MeasuredOperation parse_measured_operation(std::string_view name, std::string_view where) {
  if (const auto operation = measured_operation_from_name(name)) return *operation;
  throw InputError(unknown_name_message(where, "collective", name, measured_operation_names()));
}

std::string left_out_text(const std::vector<LeftOutRun>& runs) {
  std::string text;
  for (const LeftOutRun& run : runs) {
    text += (text.empty() ? "" : ", ") + run.test + " (" + counted(run.rows, "row") + ", " + run.source + ")";
  }
  return text;
}

std::string nothing_but_left_out_message(const std::string& origin, const std::vector<LeftOutRun>& runs) {
  return origin + ": no rows of an operation commsim predicts: its runs are of " + left_out_text(runs) +
         " (operations: " + joined(measured_operation_names()) + ")";
}

bool is_nccl_test_without_model(std::string_view name) {
  static constexpr std::string_view kTestsWithoutModel[] = {"gather", "scatter", "hypercube"};
  return std::any_of(std::begin(kTestsWithoutModel), std::end(kTestsWithoutModel),
                     [&](std::string_view test) { return same_loose_name(name, test); });
}

void add_timing_note(MeasurementSet& set, const std::string& note, const std::string& source) {
  for (const std::string& existing : set.timing_notes) {
    if (existing.starts_with(note + " (")) return;
  }
  set.timing_notes.push_back(note + " (" + source + ")");
}

// nccl-tests times `iters` calls issued back to back, the host launching the next while the
// GPUs run the last (src/common.cu), which is what commsim predicts.
std::string blocking_calls_note(std::string_view how) {
  return "blocking calls (nccl-tests -z: " + std::string(how) +
         "): each time holds the host's wait on the call, which commsim does not predict";
}

// nccl-tests divides the time of iters x agg_iters calls (x graph launches) by their count.
std::string graph_launches_note(std::uint64_t launches) {
  return "calls launched from CUDA graphs (nccl-tests -G " + std::to_string(launches) +
         "): their launch costs less than the library's thread term commsim adds";
}

std::string aggregated_calls_note(std::uint64_t calls) {
  return std::to_string(calls) + " calls aggregated in one group (nccl-tests -m " + std::to_string(calls) +
         "): one launch serves them all, where commsim adds the library's thread term to each";
}

double bus_factor(const Measurement& m) {
  return m.operation.is_p2p() ? 1.0 : busbw_factor(*m.operation.collective, m.ranks);
}

Measurement complete_for(Measurement m, std::size_t npus) {
  if (m.ranks == 0 && !(m.src_rank && m.dst_rank)) m.ranks = npus;
  const double factor = bus_factor(m);
  if (!m.out_of_place.busbw_GBps) m.out_of_place.busbw_GBps = m.out_of_place.algbw_GBps * factor;
  if (m.in_place && !m.in_place->busbw_GBps) m.in_place->busbw_GBps = m.in_place->algbw_GBps * factor;
  return m;
}

}  // namespace commsim
