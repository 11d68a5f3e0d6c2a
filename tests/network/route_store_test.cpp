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

TEST(RouteStore, RoutesOfUpToTwoHopsLiveInTheirHandle) {
  RouteStore store;
  const auto two = store.store(Route{5, 6});
  const auto one = store.store(Route{7});
  EXPECT_EQ(store.channels(two).data(), two.words);
  EXPECT_EQ(store.channels(one).data(), one.words);
  EXPECT_EQ(as_vector(store.channels(two)), (Route{5, 6}));
  // A three-hop route takes block 0 of its class: the short ones took none.
  EXPECT_EQ(store.store(Route{1, 2, 3}).block(), 0u);
}

TEST(RouteStore, AFreedBlockServesTheNextRouteOfItsSizeClass) {
  RouteStore store;
  const auto three = store.store(Route{1, 2, 3});   // class of 4 hops, block 0
  const auto five = store.store(Route{5, 6, 7, 8, 9});  // class of 8 hops, block 0
  const auto four = store.store(Route{1, 1, 1, 1});  // class of 4 hops, block 1
  EXPECT_EQ(three.block(), 0u);
  EXPECT_EQ(five.block(), 0u);
  EXPECT_EQ(four.block(), 1u);
  store.free(three);
  const auto again = store.store(Route{8, 8, 8, 8});  // 4 hops: reuses block 0 of its class
  EXPECT_EQ(again.block(), 0u);
  EXPECT_EQ(as_vector(store.channels(again)), (Route{8, 8, 8, 8}));
  EXPECT_EQ(as_vector(store.channels(four)), (Route{1, 1, 1, 1}));
  EXPECT_EQ(as_vector(store.channels(five)), (Route{5, 6, 7, 8, 9}));
}

TEST(RouteStore, PositionsAreKeptPerHop) {
  RouteStore store;
  auto a = store.store(Route{1, 2});
  auto b = store.store(Route{3, 4, 5});
  auto c = store.store(Route{6, 7, 8});
  store.positions(a)[0] = 10;
  store.positions(a)[1] = 11;
  store.positions(b)[0] = 20;
  store.positions(b)[2] = 22;
  store.positions(c)[2] = 32;
  EXPECT_EQ(store.positions(a)[0], 10u);
  EXPECT_EQ(store.positions(a)[1], 11u);
  EXPECT_EQ(store.positions(b)[0], 20u);
  EXPECT_EQ(store.positions(b)[2], 22u);
  EXPECT_EQ(store.positions(c)[2], 32u);
}

}  // namespace
}  // namespace commsim
