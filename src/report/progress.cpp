#include "report/progress.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace commsim {
namespace {

constexpr std::size_t kBarWidth = 20;
constexpr double kBarRedraw_s = 0.1;

}  // namespace

ProgressStyle progress_style(bool quiet, bool terminal) {
  if (quiet) return ProgressStyle::kQuiet;
  return terminal ? ProgressStyle::kBar : ProgressStyle::kLines;
}

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
  char text[32];
  if (h > 0) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", h, m, s);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", m, s);
  }
  return text;
}

double Progress::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Progress::Progress(std::ostream& out, std::size_t total, std::string unit, ProgressStyle style, Clock clock,
                   double line_interval_s, double show_after_s)
    : out_(out),
      total_(total),
      unit_(std::move(unit)),
      style_(style),
      clock_(std::move(clock)),
      interval_s_(line_interval_s),
      show_after_s_(show_after_s),
      start_s_(clock_()),
      last_shown_s_(start_s_) {}

// The final state has no time left, whether all the items were done or the work ended sooner.
std::string Progress::summary(bool with_time_left) const {
  const double elapsed = clock_() - start_s_;
  std::string text = std::to_string(done_) + "/" + std::to_string(total_) + " " + unit_ + ", " +
                     format_duration(elapsed) + " elapsed";
  if (with_time_left && done_ > 0 && done_ < total_) {
    double work_done = static_cast<double>(done_), work_left = static_cast<double>(total_ - done_);
    if (total_work_) {
      work_done = work_done_;
      work_left = std::max(0.0, *total_work_ - work_done_);
    } else if (!work_before_.empty()) {
      work_done = work_before_[done_];
      work_left = work_before_.back() - work_done;
    }
    if (work_done > 0) text += ", ~" + format_duration(elapsed * work_left / work_done) + " left";
  }
  return text;
}

void Progress::set_item_work(const std::vector<double>& work) {
  work_before_.assign(1, 0.0);
  for (const double w : work) work_before_.push_back(work_before_.back() + std::max(0.0, w));
  work_before_.resize(total_ + 1, work_before_.back());
}

void Progress::set_total_work(double total) { total_work_ = std::max(0.0, total); }

void Progress::advance_work(double work) {
  work_done_ += std::max(0.0, work);
  advance();
}

void Progress::advance(std::size_t n) {
  done_ = std::min(total_, done_ + n);
  const double now = clock_();
  if (now - start_s_ < show_after_s_) return;
  const double wait = style_ == ProgressStyle::kBar ? kBarRedraw_s : interval_s_;
  if (now - last_shown_s_ >= wait) show(false);
}

void Progress::finish() {
  if (style_ == ProgressStyle::kQuiet || (!shown_ && clock_() - start_s_ < show_after_s_)) return;
  if (style_ == ProgressStyle::kLines && shown_ && shown_done_ == done_) return;
  show(true);
}

void Progress::show(bool final) {
  last_shown_s_ = clock_();
  shown_done_ = done_;
  switch (style_) {
    case ProgressStyle::kQuiet: return;
    case ProgressStyle::kLines: out_ << summary(!final) << "\n"; break;
    case ProgressStyle::kBar: {
      const std::size_t filled = total_ == 0 ? kBarWidth : kBarWidth * done_ / total_;
      out_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, ' ') << "] " << summary(!final)
           << "\x1b[K";
      if (final) out_ << "\n";
      break;
    }
  }
  out_.flush();
  shown_ = true;
}

}  // namespace commsim
