#include "base/small_id_list.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace commsim {
namespace {

std::vector<std::uint32_t> contents(const SmallIdList& list) { return {list.begin(), list.end()}; }

TEST(SmallIdList, KeepsAVectorsOrderInPlaceAndOnTheHeap) {
  SmallIdList list;
  EXPECT_TRUE(list.empty());
  list.push_back(7);
  list.push_back(9);
  EXPECT_EQ(contents(list), (std::vector<std::uint32_t>{7, 9}));
  // The third id moves the list to the heap; order and values stay.
  for (std::uint32_t id = 10; id < 20; ++id) list.push_back(id);
  ASSERT_EQ(list.size(), 12u);
  EXPECT_EQ(list[0], 7u);
  EXPECT_EQ(list[1], 9u);
  EXPECT_EQ(list[11], 19u);
  // Swap-with-last removal, as the network does it.
  list[0] = list[list.size() - 1];
  list.pop_back();
  EXPECT_EQ(list[0], 19u);
  EXPECT_EQ(list.size(), 11u);
  while (!list.empty()) list.pop_back();
  list.push_back(3);  // heap storage is reused
  EXPECT_EQ(contents(list), (std::vector<std::uint32_t>{3}));
}

TEST(SmallIdList, MovesTakeTheIds) {
  SmallIdList small;
  small.push_back(1);
  SmallIdList big;
  for (std::uint32_t id = 0; id < 5; ++id) big.push_back(id);
  SmallIdList moved_small(std::move(small));
  SmallIdList moved_big(std::move(big));
  EXPECT_EQ(contents(moved_small), (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(contents(moved_big), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(small.empty());
  EXPECT_TRUE(big.empty());
  moved_small = std::move(moved_big);
  EXPECT_EQ(contents(moved_small), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  std::vector<SmallIdList> lists(3);  // as the network keeps them
  lists[1].push_back(4);
  lists.resize(100);
  EXPECT_EQ(contents(lists[1]), (std::vector<std::uint32_t>{4}));
}

}  // namespace
}  // namespace commsim
