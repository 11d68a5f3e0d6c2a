#include "engine/event_queue.h"

#include <gtest/gtest.h>

namespace commsim {
namespace {

TEST(EventQueue, PopsByTimeThenSequence) {
  EventQueue q;
  q.push({30, 0, 0, 0});
  q.push({10, 1, 1, 0});
  q.push({20, 2, 2, 0});
  q.push({10, 3, 3, 0});
  std::vector<std::uint32_t> order;
  while (!q.empty()) order.push_back(q.pop().slot);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 3, 2, 0}));
}

}  // namespace
}  // namespace commsim
