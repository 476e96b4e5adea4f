#include "gpuprof/collector/writer_thread.hpp"

#include <exception>

namespace gpuprof::collector {

WriterThread::WriterThread(BatchHandler handler) : handler_(std::move(handler)) {
  thread_ = std::thread([this] { run(); });
}

WriterThread::~WriterThread() { stop(); }

void WriterThread::submit(CompletedBuffer buffer) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(buffer);
    ++submitted_;
  }
  wake_.notify_one();
}

void WriterThread::drain() {
  std::unique_lock lock(mutex_);
  const auto target = submitted_;
  handled_.wait(lock, [&] { return handled_count_ >= target || finished_; });
}

void WriterThread::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool WriterThread::failed() const {
  std::lock_guard lock(mutex_);
  return failed_;
}

std::uint64_t WriterThread::buffers_handled() const {
  std::lock_guard lock(mutex_);
  return handled_count_;
}

void WriterThread::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() && stopping_) {
      finished_ = true;
      handled_.notify_all();
      return;
    }
    std::deque<CompletedBuffer> batch;
    batch.swap(queue_);
    lock.unlock();
    handle_batch(batch);
    lock.lock();
    handled_count_ += batch.size();
    handled_.notify_all();
  }
}

// After the first failure the thread keeps running so that buffers still return
// to the pool, but nothing more is translated: collection has stopped.
void WriterThread::handle_batch(std::deque<CompletedBuffer>& batch) {
  bool failed = this->failed();
  std::string problem;
  for (const auto& buffer : batch) {
    if (!failed) {
      try {
        if (handler_.on_buffer) handler_.on_buffer(buffer);
      } catch (const std::exception& error) {
        failed = true, problem = error.what();
      } catch (...) {
        failed = true, problem = "unknown error";
      }
    }
    if (handler_.release) handler_.release(buffer.data, buffer.valid_bytes);
  }
  if (!failed) {
    try {
      if (handler_.on_batch_end) handler_.on_batch_end();
    } catch (const std::exception& error) {
      failed = true, problem = error.what();
    } catch (...) {
      failed = true, problem = "unknown error";
    }
  }
  if (failed && !problem.empty()) {
    {
      std::lock_guard lock(mutex_);
      failed_ = true;
    }
    if (handler_.on_failure) handler_.on_failure(problem);
  }
}

}  // namespace gpuprof::collector
