#include "gpuprof/collector/buffer_pool.hpp"

namespace gpuprof::collector {
namespace {

// CUPTI requires buffers aligned to 8 bytes; sizes are rounded up to keep them so.
constexpr std::size_t kAlignment = 8;

}  // namespace

BufferPool::BufferPool(std::size_t buffer_size, std::size_t buffer_count)
    : buffer_size_((buffer_size + kAlignment - 1) / kAlignment * kAlignment) {
  storage_.reserve(buffer_count);
  free_.reserve(buffer_count);
  for (std::size_t i = 0; i < buffer_count; ++i) {
    // new[] of a byte array is aligned for any fundamental type, which covers CUPTI's 8.
    storage_.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(buffer_size_));
    free_.push_back(storage_.back().get());
  }
}

std::uint8_t* BufferPool::acquire() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) {
    ++refused_;
    return nullptr;
  }
  std::uint8_t* buffer = free_.back();
  free_.pop_back();
  ++handed_out_;
  return buffer;
}

void BufferPool::release(std::uint8_t* buffer) {
  if (buffer == nullptr) return;
  std::lock_guard lock(mutex_);
  free_.push_back(buffer);
}

std::uint64_t BufferPool::buffers_handed_out() const {
  std::lock_guard lock(mutex_);
  return handed_out_;
}

std::uint64_t BufferPool::requests_refused() const {
  std::lock_guard lock(mutex_);
  return refused_;
}

std::size_t BufferPool::buffers_free() const {
  std::lock_guard lock(mutex_);
  return free_.size();
}

}  // namespace gpuprof::collector
