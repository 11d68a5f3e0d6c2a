#pragma once
// Runs independent work items on several threads and hands their results on in index order,
// so that what a caller writes is the same whatever the thread count.
//
// compute(i) runs for every i in [0, count) on `jobs` worker threads (each takes the next
// index not yet taken); emit(i, result) runs on the calling thread for i = 0, 1, 2, ... as
// soon as result i and every earlier one are ready. Results that finish before an earlier
// one wait in memory (all of them, in the worst case of a slow first item). If compute(i)
// throws, nothing from i on is emitted, the workers take no new items, and the exception of
// the lowest failing index is rethrown once they have finished (as is one from emit). With
// jobs <= 1 everything runs in order on the calling thread.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace commsim {

template <typename Result>
void run_in_order(std::size_t count, unsigned jobs, const std::function<Result(std::size_t)>& compute,
                  const std::function<void(std::size_t, Result&&)>& emit) {
  if (jobs <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) emit(i, compute(i));
    return;
  }
  std::mutex mutex;
  std::condition_variable ready;
  std::size_t next_to_take = 0;
  bool stop = false;
  std::map<std::size_t, Result> done;
  std::map<std::size_t, std::exception_ptr> failed;
  const auto work = [&] {
    for (;;) {
      std::size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (stop || next_to_take == count) return;
        i = next_to_take++;
      }
      std::optional<Result> result;
      std::exception_ptr error;
      try {
        result.emplace(compute(i));
      } catch (...) {
        error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (error) {
          failed.emplace(i, error);
          stop = true;
        } else {
          done.emplace(i, std::move(*result));
        }
      }
      ready.notify_all();
    }
  };
  std::vector<std::thread> workers;
  const std::size_t threads = std::min<std::size_t>(jobs, count);
  for (std::size_t t = 0; t < threads; ++t) workers.emplace_back(work);
  std::exception_ptr error;
  for (std::size_t i = 0; i < count && !error; ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [&] { return done.count(i) || failed.count(i) || (!failed.empty() && failed.begin()->first < i); });
    if (!failed.empty() && failed.begin()->first <= i) {
      error = failed.begin()->second;
      break;
    }
    Result result = std::move(done.at(i));
    done.erase(i);
    lock.unlock();
    try {
      emit(i, std::move(result));
    } catch (...) {
      error = std::current_exception();
      std::lock_guard<std::mutex> stop_lock(mutex);
      stop = true;
    }
  }
  for (std::thread& w : workers) w.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace commsim
