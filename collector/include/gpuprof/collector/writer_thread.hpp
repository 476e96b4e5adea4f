#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gpuprof::collector {

// A buffer of activity records that CUPTI has filled.
struct CompletedBuffer {
  std::uint8_t* data = nullptr;
  std::size_t valid_bytes = 0;
};

struct BatchHandler {
  std::function<void(const CompletedBuffer&)> on_buffer;  // translate the records
  std::function<void()> on_batch_end;                     // commit what the batch wrote
  std::function<void(std::uint8_t*, std::size_t)> release;  // give the buffer (and its used bytes) back
  std::function<void(const std::string&)> on_failure;     // called once; later buffers are only released
};

// Owns the translation and writing of completed buffers, so that CUPTI's
// completion callback only queues a pointer and returns. All buffers queued
// when the thread wakes up form one batch (one transaction).
class WriterThread {
 public:
  explicit WriterThread(BatchHandler handler);
  ~WriterThread();
  WriterThread(const WriterThread&) = delete;
  WriterThread& operator=(const WriterThread&) = delete;

  // Safe from any thread; never waits for the writer.
  void submit(CompletedBuffer buffer);
  // Returns once every buffer submitted before the call has been handled.
  void drain();
  // Handles what is queued, then ends the thread. Idempotent.
  void stop();

  bool failed() const;
  std::uint64_t buffers_handled() const;

 private:
  void run();
  void handle_batch(std::deque<CompletedBuffer>& batch);

  BatchHandler handler_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable handled_;
  std::deque<CompletedBuffer> queue_;
  std::uint64_t submitted_ = 0;
  std::uint64_t handled_count_ = 0;
  bool stopping_ = false;
  bool failed_ = false;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace gpuprof::collector
