#include "network/route_store.h"

#include <gtest/gtest.h>

#include <vector>

namespace commsim {
namespace {

std::vector<ChannelId> as_vector(std::span<const ChannelId> s) { return {s.begin(), s.end()}; }

TEST(RouteStore, GivesBackEachRouteAsStored) {
  RouteStore store;
  const auto a = store.store(Route{4, 9});
  const auto b = store.store(Route{1, 2, 3});
  const auto c = store.store(Route{7});
  EXPECT_EQ(as_vector(store.channels(a)), (Route{4, 9}));
  EXPECT_EQ(as_vector(store.channels(b)), (Route{1, 2, 3}));
  EXPECT_EQ(as_vector(store.channels(c)), (Route{7}));
}

TEST(RouteStore, TheEmptyRouteTakesNoBlock) {
  RouteStore store;
  const auto h = store.store(Route{});
  EXPECT_EQ(h.length, 0u);
  EXPECT_TRUE(store.channels(h).empty());
  store.free(h);  // nothing to free
}

TEST(RouteStore, AFreedBlockServesTheNextRouteOfItsSizeClass) {
  RouteStore store;
  const auto three = store.store(Route{1, 2, 3});   // class of 4 hops, block 0
  const auto two = store.store(Route{5, 6});        // class of 2 hops, block 0
  const auto four = store.store(Route{1, 1, 1, 1});  // class of 4 hops, block 1
  EXPECT_EQ(three.block, 0u);
  EXPECT_EQ(two.block, 0u);
  EXPECT_EQ(four.block, 1u);
  store.free(three);
  const auto again = store.store(Route{8, 8, 8, 8});  // 4 hops: reuses block 0 of its class
  EXPECT_EQ(again.block, 0u);
  EXPECT_EQ(as_vector(store.channels(again)), (Route{8, 8, 8, 8}));
  EXPECT_EQ(as_vector(store.channels(four)), (Route{1, 1, 1, 1}));
}

TEST(RouteStore, PositionsAreKeptPerHop) {
  RouteStore store;
  const auto a = store.store(Route{1, 2});
  const auto b = store.store(Route{3, 4});
  store.positions(a)[0] = 10;
  store.positions(a)[1] = 11;
  store.positions(b)[0] = 20;
  EXPECT_EQ(store.positions(a)[0], 10u);
  EXPECT_EQ(store.positions(a)[1], 11u);
  EXPECT_EQ(store.positions(b)[0], 20u);
}

}  // namespace
}  // namespace commsim
