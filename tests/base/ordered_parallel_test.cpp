// The ordered runner: results arrive in index order whatever the thread count and however
// long each item takes, and the lowest failing index's exception comes back.

#include "base/ordered_parallel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace commsim {
namespace {

// Item i takes longer the earlier it is, so later items finish first on several threads.
std::vector<std::pair<std::size_t, std::string>> run(std::size_t count, unsigned jobs) {
  std::vector<std::pair<std::size_t, std::string>> emitted;
  run_in_order<std::string>(
      count, jobs,
      [&](std::size_t i) {
        std::this_thread::sleep_for(std::chrono::microseconds(50 * (count - i)));
        return "item " + std::to_string(i * i);
      },
      [&](std::size_t i, std::string&& s) { emitted.emplace_back(i, std::move(s)); });
  return emitted;
}

TEST(OrderedParallel, ResultsComeInIndexOrderWhateverTheThreadCount) {
  const auto one = run(40, 1);
  ASSERT_EQ(one.size(), 40u);
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].first, i);
    EXPECT_EQ(one[i].second, "item " + std::to_string(i * i));
  }
  EXPECT_EQ(run(40, 2), one);
  EXPECT_EQ(run(40, 7), one);
  EXPECT_EQ(run(3, 16), run(3, 1));  // more threads than items
  EXPECT_TRUE(run(0, 4).empty());
}

TEST(OrderedParallel, TheLowestFailureStopsTheRunAfterEverythingBeforeIt) {
  for (const unsigned jobs : {1u, 3u}) {
    SCOPED_TRACE(jobs);
    std::vector<std::size_t> emitted;
    try {
      run_in_order<int>(
          50, jobs,
          [](std::size_t i) -> int {
            if (i == 17 || i == 30) throw std::runtime_error("item " + std::to_string(i) + " failed");
            return static_cast<int>(i);
          },
          [&](std::size_t i, int&&) { emitted.push_back(i); });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "item 17 failed");
    }
    ASSERT_EQ(emitted.size(), 17u);  // 0..16, in order
    EXPECT_EQ(emitted.back(), 16u);
  }
}

}  // namespace
}  // namespace commsim
