// A count with its noun, and names joined in a line.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/counted.h"
#include "base/joined.h"

namespace commsim {
namespace {

TEST(TextHelpers, CountedIsSingularForOne) {
  EXPECT_EQ(counted(0, "row"), "0 rows");
  EXPECT_EQ(counted(1, "measured row"), "1 measured row");
  EXPECT_EQ(counted(80, "GPU"), "80 GPUs");
}

TEST(TextHelpers, JoinedPutsTheSeparatorBetweenItems) {
  EXPECT_EQ(joined(std::vector<std::string>{}), "");
  EXPECT_EQ(joined(std::vector<std::string>{"allreduce"}), "allreduce");
  EXPECT_EQ(joined(std::vector<std::string_view>{"allreduce", "allgather", "sendrecv"}), "allreduce, allgather, sendrecv");
  EXPECT_EQ(joined(std::vector<std::string>{"allreduce", "sendrecv"}, ","), "allreduce,sendrecv");
}

}  // namespace
}  // namespace commsim
