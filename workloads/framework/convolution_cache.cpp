#include "convolution_cache.hpp"

namespace gpuprof::workloads {

ConvolutionMeasurement ConvolutionCache::find_or_measure(const ConvolutionKey& key,
                                                         const std::function<ConvolutionMeasurement()>& measure) {
  // Measuring under the lock is deliberate: concurrent timings on one GPU would disturb each other.
  const std::lock_guard lock(mutex_);
  const auto found = measurements_.find(key);
  if (found != measurements_.end()) return found->second;
  ConvolutionMeasurement measured = measure();  // a throw stores nothing: the next caller measures again
  measurements_.emplace(key, measured);
  return measured;
}

std::size_t ConvolutionCache::size() const {
  const std::lock_guard lock(mutex_);
  return measurements_.size();
}

ConvolutionCache& convolution_cache() {
  static ConvolutionCache cache;
  return cache;
}

}  // namespace gpuprof::workloads
