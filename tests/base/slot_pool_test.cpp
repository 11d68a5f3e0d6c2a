#include "base/slot_pool.h"

#include <gtest/gtest.h>

#include <set>

namespace commsim {
namespace {

TEST(SlotPool, NumbersNewRecordsInOrderAndReusesFreedOnesLastInFirstOut) {
  SlotPool<int> pool;
  EXPECT_EQ(pool.acquire(), 0u);
  EXPECT_EQ(pool.acquire(), 1u);
  EXPECT_EQ(pool.acquire(), 2u);
  pool.release(0);
  pool.release(2);
  EXPECT_EQ(pool.in_use(), 1u);
  EXPECT_EQ(pool.acquire(), 2u);
  EXPECT_EQ(pool.acquire(), 0u);
  EXPECT_EQ(pool.acquire(), 3u);
  EXPECT_EQ(pool.made(), 4u);
}

TEST(SlotPool, RecordsKeepTheirAddressWhileThePoolGrowsAcrossChunks) {
  SlotPool<long> pool;
  const std::uint32_t first = pool.acquire();
  pool[first] = 42;
  const long* where = &pool[first];
  for (int i = 0; i < 5000; ++i) pool[pool.acquire()] = i;  // several chunks of 1,024
  EXPECT_EQ(&pool[first], where);
  EXPECT_EQ(pool[first], 42);
  EXPECT_EQ(pool[4000], 3999);
  EXPECT_EQ(pool.made(), 5001u);
}

TEST(SlotPool, AReleasedRecordKeepsItsValueUntilAcquiredAgain) {
  SlotPool<int> pool;
  const std::uint32_t id = pool.acquire();
  pool[id] = 7;
  pool.release(id);
  EXPECT_EQ(pool.acquire(), id);
  EXPECT_EQ(pool[id], 7);
}

}  // namespace
}  // namespace commsim
