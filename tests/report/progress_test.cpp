// Progress: what the bar and the lines say at given instants of a clock the test drives.

#include "report/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace commsim {
namespace {

TEST(Progress, DurationsAsPeopleReadThem) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(65.4), "1:05");
  EXPECT_EQ(format_duration(7384), "2:03:04");
}

TEST(Progress, LinesEveryIntervalWithAnEstimateOfWhatIsLeft) {
  double now = 100;
  std::ostringstream out;
  Progress progress(out, 300, "points", ProgressStyle::kLines, [&] { return now; }, 5);
  now = 102;
  progress.advance(20);  // 2 s < 5 s: nothing yet
  EXPECT_EQ(out.str(), "");
  now = 112;
  progress.advance(100);  // 120 done in 12 s: 180 more take 18 s
  EXPECT_EQ(out.str(), "120/300 points, 0:12 elapsed, ~0:18 left\n");
  now = 130;
  progress.advance(180);
  progress.finish();  // the last line already says 300/300: not again
  EXPECT_EQ(out.str(), "120/300 points, 0:12 elapsed, ~0:18 left\n"
                       "300/300 points, 0:30 elapsed\n");
}

TEST(Progress, AnEndBeforeTheTotalHasItsOwnLine) {
  // A fit that converges at its 12th of at most 60 iterations: the last line came at 10;
  // finish says where it ended.
  double now = 0;
  std::ostringstream out;
  Progress progress(out, 60, "iterations (at most)", ProgressStyle::kLines, [&] { return now; }, 5);
  now = 10;
  progress.advance(10);
  now = 12;
  progress.advance(2);  // 2 s since the last line: none
  progress.finish();
  EXPECT_EQ(out.str(), "10/60 iterations (at most), 0:10 elapsed, ~0:50 left\n"
                       "12/60 iterations (at most), 0:12 elapsed\n");
}

TEST(Progress, TimeLeftByTheWorkOfTheItemsWhereTheyDiffer) {
  // Items of work 1, 1, 2 and 4: after the first two (2 of 8) in 10 s, 6 more take 30 s,
  // not the 10 s that counting items would say.
  double now = 0;
  std::ostringstream out;
  Progress progress(out, 4, "points", ProgressStyle::kLines, [&] { return now; }, 5);
  progress.set_item_work({1, 1, 2, 4});
  now = 10;
  progress.advance(2);
  EXPECT_EQ(out.str(), "2/4 points, 0:10 elapsed, ~0:30 left\n");
}

TEST(Progress, TimeLeftByTheWorkOfItemsKnownAsTheyFinish) {
  // 5 items of total work 1000: three of work 1 done in 10 s leave 997, 10 x 997 / 3 s
  // (55:23), where counting items would say 7 s; one more of work 497 leaves 500, as long
  // again as the 20 s the first 500 took.
  double now = 0;
  std::ostringstream out;
  Progress progress(out, 5, "nodes", ProgressStyle::kLines, [&] { return now; }, 5);
  progress.set_total_work(1000);
  progress.advance_work(1);
  progress.advance_work(1);
  now = 10;
  progress.advance_work(1);
  now = 20;
  progress.advance_work(497);
  EXPECT_EQ(out.str(), "3/5 nodes, 0:10 elapsed, ~55:23 left\n4/5 nodes, 0:20 elapsed, ~0:20 left\n");
}

TEST(Progress, ABarRedrawnInPlaceOnATerminal) {
  double now = 0;
  std::ostringstream out;
  Progress progress(out, 4, "points", ProgressStyle::kBar, [&] { return now; });
  now = 1;
  progress.advance();
  progress.finish();
  EXPECT_EQ(out.str(), "\r[#####               ] 1/4 points, 0:01 elapsed, ~0:03 left\x1b[K"
                       "\r[#####               ] 1/4 points, 0:01 elapsed\x1b[K\n");
}

TEST(Progress, AShortRunStaysSilent) {
  // Shown only from 2 s on: a run that ends at 1.5 s says nothing; one at 3 s says where it is.
  double now = 0;
  std::ostringstream out;
  Progress quick(out, 10, "points", ProgressStyle::kLines, [&] { return now; }, 1, 2);
  now = 1.5;
  quick.advance(10);
  quick.finish();
  EXPECT_EQ(out.str(), "");
  now = 0;
  Progress slow(out, 10, "points", ProgressStyle::kLines, [&] { return now; }, 1, 2);
  now = 3;
  slow.advance(5);
  EXPECT_EQ(out.str(), "5/10 points, 0:03 elapsed, ~0:03 left\n");
}

TEST(Progress, QuietSaysNothing) {
  std::ostringstream out;
  Progress progress(out, 4, "points", progress_style(true, true), [] { return 0.0; });
  progress.advance(4);
  progress.finish();
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(progress_style(false, true), ProgressStyle::kBar);
  EXPECT_EQ(progress_style(false, false), ProgressStyle::kLines);
}

}  // namespace
}  // namespace commsim
