#include "gpuprof/progress/stage_counter.hpp"

#include <utility>

namespace gpuprof::progress {

StageCounter::StageCounter(ProgressCallback callback, std::string stage, std::int64_t total, std::string unit)
    : callback_(std::move(callback)), stage_(std::move(stage)), unit_(std::move(unit)), total_(total) {}

void StageCounter::add(std::int64_t units) {
  done_.fetch_add(units, std::memory_order_relaxed);
  if (!callback_) return;
  std::unique_lock lock(reporting_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  // Read under the lock, not before it: reports then never go backwards.
  callback_({stage_, done_.load(std::memory_order_relaxed), total_, unit_, item_});
}

void StageCounter::set_item(std::string item) {
  const std::lock_guard lock(reporting_);
  item_ = std::move(item);
}

}  // namespace gpuprof::progress
