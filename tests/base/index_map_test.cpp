#include "base/index_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "base/error.h"

namespace commsim {
namespace {

TEST(IndexMap, FindsWhatWasInsertedAndForgetsWhatWasErased) {
  IndexMap map;
  EXPECT_EQ(map.find(7), nullptr);
  map.insert(7, 70);
  map.insert(UINT64_MAX, 1);
  ASSERT_NE(map.find(7), nullptr);
  EXPECT_EQ(*map.find(7), 70u);
  EXPECT_EQ(*map.find(UINT64_MAX), 1u);
  EXPECT_EQ(map.size(), 2u);
  map.erase(7);
  EXPECT_EQ(map.find(7), nullptr);
  EXPECT_EQ(*map.find(UINT64_MAX), 1u);
  EXPECT_EQ(map.size(), 1u);
}

TEST(IndexMap, MisuseIsAnInternalError) {
  IndexMap map;
  EXPECT_THROW(map.erase(3), InternalError);
  map.insert(3, 0);
  EXPECT_THROW(map.insert(3, 1), InternalError);
  EXPECT_THROW(map.erase(4), InternalError);
  EXPECT_THROW(map.insert(5, UINT32_MAX), InternalError);
}

// A burst of 10,000 entries takes 32,768 slots (at most half full); erasing all but 100
// shrinks the array to a quarter full of what is left (512 slots), keeping every entry.
TEST(IndexMap, ShrinksOnceAnEighthFull) {
  IndexMap map;
  for (std::uint32_t k = 0; k < 10'000; ++k) map.insert(std::uint64_t{k} << 32 | 7, k);
  EXPECT_EQ(map.capacity(), 32'768u);
  for (std::uint32_t k = 100; k < 10'000; ++k) map.erase(std::uint64_t{k} << 32 | 7);
  EXPECT_EQ(map.size(), 100u);
  EXPECT_EQ(map.capacity(), 512u);
  for (std::uint32_t k = 0; k < 10'000; ++k) {
    const std::uint32_t* found = map.find(std::uint64_t{k} << 32 | 7);
    if (k < 100) {
      ASSERT_NE(found, nullptr);
      EXPECT_EQ(*found, k);
    } else {
      EXPECT_EQ(found, nullptr);
    }
  }
  for (std::uint32_t k = 0; k < 100; ++k) map.erase(std::uint64_t{k} << 32 | 7);
  EXPECT_EQ(map.capacity(), 16u);
  EXPECT_TRUE(map.empty());
}

// Random inserts and erases against std::map, over few enough keys (0..299, in a table of
// up to 1,024 slots) that probe runs collide, wrap around the end and are cut by erasures:
// a wrong backward shift loses or duplicates a key here.
// for_each visits each entry once.
TEST(IndexMap, AgreesWithStdMapUnderRandomInsertsAndErases) {
  IndexMap map;
  std::map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 rng(15);
  for (std::uint32_t i = 0; i < 200'000; ++i) {
    // Keys that differ in high bits only, as times in picoseconds do.
    const std::uint64_t key = (rng() % 300) << 40;
    const auto it = reference.find(key);
    if (it == reference.end()) {
      map.insert(key, i);
      reference[key] = i;
    } else if (rng() % 2 == 0) {
      map.erase(key);
      reference.erase(it);
    }
    ASSERT_EQ(map.size(), reference.size());
  }
  std::map<std::uint64_t, std::uint32_t> visited;
  map.for_each([&](std::uint64_t key, std::uint32_t index) { EXPECT_TRUE(visited.emplace(key, index).second); });
  EXPECT_EQ(visited, reference);
  for (std::uint64_t k = 0; k < 300; ++k) {
    const auto it = reference.find(k << 40);
    const std::uint32_t* found = map.find(k << 40);
    ASSERT_EQ(found != nullptr, it != reference.end()) << k;
    if (found) {
      EXPECT_EQ(*found, it->second) << k;
    }
  }
}

}  // namespace
}  // namespace commsim
