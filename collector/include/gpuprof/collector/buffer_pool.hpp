#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace gpuprof::collector {

// A fixed set of activity buffers allocated up front, so that collection uses
// bounded memory and CUPTI's buffer requests never allocate or wait. When every
// buffer is in use, acquire() says so and CUPTI drops records (and counts them).
class BufferPool {
 public:
  BufferPool(std::size_t buffer_size, std::size_t buffer_count);

  // A free buffer of buffer_size() bytes, or nullptr when all are in use.
  std::uint8_t* acquire();
  void release(std::uint8_t* buffer);

  std::size_t buffer_size() const { return buffer_size_; }
  std::size_t buffer_count() const { return storage_.size(); }
  std::uint64_t buffers_handed_out() const;
  std::uint64_t requests_refused() const;
  std::size_t buffers_free() const;

 private:
  std::size_t buffer_size_;
  std::vector<std::unique_ptr<std::uint8_t[]>> storage_;
  mutable std::mutex mutex_;
  std::vector<std::uint8_t*> free_;
  std::uint64_t handed_out_ = 0;
  std::uint64_t refused_ = 0;
};

}  // namespace gpuprof::collector
