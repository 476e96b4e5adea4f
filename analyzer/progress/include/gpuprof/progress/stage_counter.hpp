#pragma once

// Counts the units of one stage done by any number of threads and passes the
// running total to a ProgressCallback. The threads add what they did in
// batches (a loader adds every few thousand rows), so counting costs one atomic
// addition per batch; one call of the callback happens at a time, and a thread
// that finds it busy just goes on (the next batch reports the sum).

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "gpuprof/progress/progress.hpp"

namespace gpuprof::progress {

class StageCounter {
 public:
  StageCounter(ProgressCallback callback, std::string stage, std::int64_t total, std::string unit);
  // Whether anybody listens: work may skip counting when not.
  bool active() const { return static_cast<bool>(callback_); }
  void add(std::int64_t units);
  void set_item(std::string item);
  std::int64_t done() const { return done_.load(std::memory_order_relaxed); }

 private:
  ProgressCallback callback_;
  std::string stage_, unit_, item_;
  std::int64_t total_;
  std::atomic<std::int64_t> done_{0};
  std::mutex reporting_;
};

}  // namespace gpuprof::progress
