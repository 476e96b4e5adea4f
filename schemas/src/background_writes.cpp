#include "background_writes.hpp"

namespace gpuprof::trace {

BackgroundWrites::BackgroundWrites(std::function<void(const WriteOp&)> apply)
    : apply_(std::move(apply)), thread_([this] { run(); }) {
  filling_.reserve(kOpsPerBatch);
}

BackgroundWrites::~BackgroundWrites() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queue_changed_.notify_all();
  thread_.join();
}

void BackgroundWrites::add(WriteOp op) {
  filling_.push_back(std::move(op));
  if (filling_.size() >= kOpsPerBatch) hand_over();
}

void BackgroundWrites::hand_over() {
  std::unique_lock lock(mutex_);
  queue_changed_.wait(lock, [this] { return queue_.size() < kQueuedBatches || failure_; });
  rethrow_locked();
  queue_.push_back(std::move(filling_));
  lock.unlock();
  queue_changed_.notify_all();
  filling_ = {};
  filling_.reserve(kOpsPerBatch);
}

void BackgroundWrites::wait_applied() {
  if (!filling_.empty()) hand_over();
  std::unique_lock lock(mutex_);
  queue_changed_.wait(lock, [this] { return (queue_.empty() && !applying_) || failure_; });
  rethrow_locked();
}

void BackgroundWrites::rethrow_locked() {
  if (failure_) std::rethrow_exception(failure_);
}

void BackgroundWrites::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    queue_changed_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    if (stopping_) return;
    auto batch = std::move(queue_.front());
    queue_.pop_front();
    applying_ = true;
    lock.unlock();
    queue_changed_.notify_all();  // a producer may wait for room
    std::exception_ptr failure;
    try {
      for (const auto& op : batch) apply_(op);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    applying_ = false;
    if (failure) {
      // Later batches are dropped unapplied: the writer throws, and the file is abandoned.
      failure_ = failure;
      queue_.clear();
    }
    queue_changed_.notify_all();
  }
}

}  // namespace gpuprof::trace
