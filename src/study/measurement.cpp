#include "study/measurement.h"

#include "base/error.h"
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
