#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>

namespace gpuprof::workloads {

// Measurements by key, each made at most once. Thread-safe: a second caller with the same
// key waits for the first measurement rather than timing the GPU again. Measuring under the
// lock is deliberate: concurrent timings on one GPU would disturb each other. A measurement
// that throws stores nothing, so the next caller measures again.
template <typename Key, typename Value>
class MeasurementCache {
 public:
  Value find_or_measure(const Key& key, const std::function<Value()>& measure) {
    const std::lock_guard lock(mutex_);
    const auto found = values_.find(key);
    if (found != values_.end()) return found->second;
    Value measured = measure();
    values_.emplace(key, measured);
    return measured;
  }

  std::size_t size() const {
    const std::lock_guard lock(mutex_);
    return values_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::map<Key, Value> values_;
};

}  // namespace gpuprof::workloads
