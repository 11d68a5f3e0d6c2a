// Shards: parsing I/N, taking them from a launcher's environment, and that the shards of a
// sweep hold every point exactly once.

#include "study/sweep_shard.h"

#include <gtest/gtest.h>

#include <map>

#include "base/error.h"
#include "study_test_support.h"

namespace commsim::testing {
namespace {

TEST(SweepShard, ParsesIOfN) {
  EXPECT_EQ(parse_shard("0/3", "--shard"), (Shard{0, 3}));
  EXPECT_EQ(parse_shard("2/3", "--shard"), (Shard{2, 3}));
  EXPECT_EQ(shard_text(Shard{2, 3}), "2/3");
  EXPECT_CONTAINS(input_error_of([] { parse_shard("3/3", "--shard"); }),
                  "--shard 3/3: shard 3 of 3 does not exist (shards are numbered 0 to 2)");
  EXPECT_CONTAINS(input_error_of([] { parse_shard("0/0", "--shard"); }), "cannot be split into 0 shards");
  for (const char* bad : {"", "1", "1/", "/2", "a/2", "1/2/3", "-1/2", "1.5/2"}) {
    EXPECT_CONTAINS(input_error_of([&] { parse_shard(bad, "--shard"); }), "is not I/N");
  }
}

TEST(SweepShard, EveryPointIsInExactlyOneShard) {
  for (std::size_t point = 0; point < 100; ++point) {
    int holders = 0;
    for (std::uint32_t i = 0; i < 7; ++i) holders += Shard{i, 7}.holds(point) ? 1 : 0;
    EXPECT_EQ(holders, 1);
  }
  EXPECT_TRUE(Shard{}.holds(12345));  // unsharded: 0/1
}

TEST(SweepShard, FromALaunchersEnvironment) {
  std::map<std::string, std::string> env;
  const auto getenv = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_FALSE(shard_from_environment(getenv));
  env = {{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "8"}};
  EXPECT_EQ(shard_from_environment(getenv), (Shard{5, 8}));
  env = {{"PMI_RANK", "1"}, {"PMI_SIZE", "4"}};
  EXPECT_EQ(shard_from_environment(getenv), (Shard{1, 4}));
  // A Slurm array --array=1-10 numbers its tasks from 1: task 4 is shard 3 of 10.
  env = {{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "10"}, {"SLURM_ARRAY_TASK_MIN", "1"},
         {"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}};
  EXPECT_EQ(shard_from_environment(getenv), (Shard{3, 10}));
  env = {{"PMI_RANK", "x"}, {"PMI_SIZE", "4"}};
  EXPECT_CONTAINS(input_error_of([&] { shard_from_environment(getenv); }),
                  "environment variable PMI_RANK='x' is not a whole number");
  env = {{"PMI_RANK", "4"}, {"PMI_SIZE", "4"}};
  EXPECT_CONTAINS(input_error_of([&] { shard_from_environment(getenv); }), "shard 4 of 4 does not exist");
}

}  // namespace
}  // namespace commsim::testing
