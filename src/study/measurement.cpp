#include "study/measurement.h"

#include "base/error.h"

namespace commsim {
namespace {

// nccl-tests' name of its point-to-point test (src/sendrecv.cu), which has no CollectiveKind.
constexpr std::string_view kSendRecvName = "sendrecv";

// Barrier moves no data: nccl-tests has no test of it, and no measurement here is one.
bool is_measurable(CollectiveKind kind) { return kind != CollectiveKind::kBarrier; }

std::string known_names() {
  std::string names;
  for (const CollectiveKind kind : all_collectives()) {
    if (is_measurable(kind)) names += std::string(collective_name(kind)) + ", ";
  }
  return names + std::string(kSendRecvName) +
         "; nccl-tests' all_reduce and the like are read without the '_'";
}

}  // namespace

std::string measured_operation_name(const MeasuredOperation& operation) {
  if (operation.is_p2p()) return std::string(kSendRecvName);
  return std::string(collective_name(*operation.collective));
}

std::optional<MeasuredOperation> measured_operation_from_name(std::string_view name) {
  std::string joined(name);
  std::erase(joined, '_');
  if (joined == kSendRecvName) return MeasuredOperation::point_to_point();
  const auto kind = collective_from_name(joined);
  if (!kind || !is_measurable(*kind)) return std::nullopt;
  return MeasuredOperation::of(*kind);
}

MeasuredOperation parse_measured_operation(std::string_view name, std::string_view where) {
  if (const auto operation = measured_operation_from_name(name)) return *operation;
  throw InputError(std::string(where) + ": unknown collective '" + std::string(name) +
                   "' (known: " + known_names() + ")");
}

}  // namespace commsim
