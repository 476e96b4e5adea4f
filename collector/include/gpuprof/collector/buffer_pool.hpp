#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace gpuprof::collector {

// At most buffer_count activity buffers, allocated the first time they are
// needed (CUDA 13 keeps one buffer per thread that uses CUDA, so how many a
// program needs is known only as it runs) and kept for reuse, so memory stays
// bounded and a request never waits. When every buffer is in use, or after
// close(), acquire() says so and CUPTI drops records (and counts them). Buffers
// handed out are zeroed: CUPTI is told so and skips zeroing them on the
// program's threads; release() zeroes a returned buffer on the caller's
// thread (the writer's).
class BufferPool {
 public:
  BufferPool(std::size_t buffer_size, std::size_t buffer_count);

  // A free, zeroed buffer of buffer_size() bytes, or nullptr when all are in use or the pool is closed.
  std::uint8_t* acquire();
  // Zeroes the buffer's first `used` bytes (all of it by default) and takes it back.
  void release(std::uint8_t* buffer, std::size_t used = SIZE_MAX);
  // From now on acquire() refuses: the recording is ending and no new buffer could be read.
  void close();
  bool closed() const;

  std::size_t buffer_size() const { return buffer_size_; }
  std::size_t buffer_limit() const { return buffer_limit_; }
  std::size_t buffers_allocated() const;
  std::uint64_t buffers_handed_out() const;
  std::uint64_t requests_refused() const;
  std::uint64_t requests_after_close() const;
  // Handed out and not yet released: still with CUPTI.
  std::size_t buffers_outstanding() const;
  std::size_t buffers_free() const;

 private:
  std::size_t buffer_size_;
  std::size_t buffer_limit_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::uint8_t[]>> storage_;
  std::vector<std::uint8_t*> free_;
  std::uint64_t handed_out_ = 0;
  std::uint64_t refused_ = 0;
  std::uint64_t after_close_ = 0;
  bool closed_ = false;
};

}  // namespace gpuprof::collector
