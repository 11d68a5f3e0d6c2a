#include "engine/event_scheduler.h"

#include "base/error.h"
#include "engine/binary_heap_scheduler.h"
#include "engine/instant_heap_scheduler.h"
#include "engine/radix_heap_scheduler.h"

namespace commsim {

std::unique_ptr<EventScheduler> make_scheduler(SchedulerKind kind) {
  switch (kind) {
    case SchedulerKind::kBinaryHeap: return std::make_unique<BinaryHeapScheduler>();
    case SchedulerKind::kInstantHeap: return std::make_unique<InstantHeapScheduler>();
    case SchedulerKind::kRadixHeap: return std::make_unique<RadixHeapScheduler>();
  }
  COMMSIM_CHECK(false, "unknown scheduler kind");
  return nullptr;
}

std::string_view scheduler_name(SchedulerKind kind) {
  switch (kind) {
    case SchedulerKind::kBinaryHeap: return "binary-heap";
    case SchedulerKind::kInstantHeap: return "instant-heap";
    case SchedulerKind::kRadixHeap: return "radix-heap";
  }
  return "?";
}

}  // namespace commsim
