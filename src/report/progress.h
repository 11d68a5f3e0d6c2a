#pragma once
// Progress of long work, for stderr: on a terminal a bar redrawn in place,
//   [########            ] 120/300 points, 0:12 elapsed, ~0:18 left
// elsewhere (a log file, a batch job) the same words as a line every few seconds and at the
// end; nothing when quiet. The time left is elapsed x items left / items done, or by their
// work where the items differ (set_item_work, or set_total_work and advance_work). Time
// comes from a clock the caller may replace, so a test drives it.

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace commsim {

enum class ProgressStyle { kBar, kLines, kQuiet };

/// kQuiet if asked, else a bar on a terminal and lines elsewhere.
ProgressStyle progress_style(bool quiet, bool terminal);

/// "1:05" for 65 s, "2:03:04" past an hour.
std::string format_duration(double seconds);

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds since any fixed instant
  /// The steady clock.
  static double steady_seconds();

  /// Nothing is shown before `show_after_s` has passed: a run that ends sooner stays silent.
  Progress(std::ostream& out, std::size_t total, std::string unit, ProgressStyle style, Clock clock = steady_seconds,
           double line_interval_s = 5, double show_after_s = 0);
  /// `n` more items done; redraws the bar (at most 10 times a second) or writes a line if
  /// the interval has passed.
  void advance(std::size_t n = 1);
  /// The final state (all done or not), then a newline after a bar; as lines, not again if
  /// the last line already showed it.
  void finish();

  /// The work of each item (any unit), in the order they finish, where items differ: the
  /// time left is then elapsed x work left / work done, not counted in items. One value per
  /// item of the total.
  void set_item_work(const std::vector<double>& work);
  /// The work of all the items, where each item's own is known only as it finishes
  /// (advance_work): the time left is then elapsed x work left / work done.
  void set_total_work(double total);
  /// One more item done, of `work` (set_total_work).
  void advance_work(double work);

  std::size_t done() const { return done_; }
  /// Nothing will be shown (kQuiet): no need to weigh the items.
  bool quiet() const { return style_ == ProgressStyle::kQuiet; }
  /// "120/300 points, 0:12 elapsed, ~0:18 left" (no estimate before the first item).
  std::string status() const { return summary(true); }

 private:
  std::string summary(bool with_time_left) const;
  void show(bool final);

  std::ostream& out_;
  std::size_t total_;
  std::string unit_;
  ProgressStyle style_;
  Clock clock_;
  double interval_s_;
  double show_after_s_;
  bool shown_ = false;
  std::size_t shown_done_ = 0;  // the count the last line or bar showed
  double start_s_;
  double last_shown_s_;
  std::size_t done_ = 0;
  std::vector<double> work_before_;  // work of the items before item i; empty: all alike
  std::optional<double> total_work_;  // set_total_work
  double work_done_ = 0;              // advance_work's so far
};

}  // namespace commsim
