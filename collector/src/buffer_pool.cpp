#include "gpuprof/collector/buffer_pool.hpp"

#include <algorithm>
#include <cstring>

namespace gpuprof::collector {
namespace {

// CUPTI requires buffers aligned to 8 bytes; sizes are rounded up to keep them so.
constexpr std::size_t kAlignment = 8;

}  // namespace

BufferPool::BufferPool(std::size_t buffer_size, std::size_t buffer_count)
    : buffer_size_((buffer_size + kAlignment - 1) / kAlignment * kAlignment), buffer_limit_(buffer_count) {
  storage_.reserve(buffer_count);
  free_.reserve(buffer_count);
}

std::uint8_t* BufferPool::acquire() {
  std::lock_guard lock(mutex_);
  if (closed_) {
    ++after_close_;
    return nullptr;
  }
  if (free_.empty() && storage_.size() < buffer_limit_) {
    // Value-initialised: zero pages from the kernel, touched only as CUPTI writes them.
    // new[] of a byte array is aligned for any fundamental type, which covers CUPTI's 8.
    try {
      storage_.push_back(std::make_unique<std::uint8_t[]>(buffer_size_));
    } catch (...) {
      ++refused_;
      return nullptr;
    }
    free_.push_back(storage_.back().get());
  }
  if (free_.empty()) {
    ++refused_;
    return nullptr;
  }
  std::uint8_t* buffer = free_.back();
  free_.pop_back();
  ++handed_out_;
  return buffer;
}

void BufferPool::release(std::uint8_t* buffer, std::size_t used) {
  if (buffer == nullptr) return;
  std::memset(buffer, 0, std::min(used, buffer_size_));
  std::lock_guard lock(mutex_);
  free_.push_back(buffer);
}

void BufferPool::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

bool BufferPool::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::size_t BufferPool::buffers_allocated() const {
  std::lock_guard lock(mutex_);
  return storage_.size();
}

std::uint64_t BufferPool::buffers_handed_out() const {
  std::lock_guard lock(mutex_);
  return handed_out_;
}

std::uint64_t BufferPool::requests_refused() const {
  std::lock_guard lock(mutex_);
  return refused_;
}

std::uint64_t BufferPool::requests_after_close() const {
  std::lock_guard lock(mutex_);
  return after_close_;
}

std::size_t BufferPool::buffers_outstanding() const {
  std::lock_guard lock(mutex_);
  return storage_.size() - free_.size();
}

std::size_t BufferPool::buffers_free() const {
  std::lock_guard lock(mutex_);
  return free_.size() + (buffer_limit_ - storage_.size());
}

}  // namespace gpuprof::collector
