#include "gpuprof/rank/side_thread.hpp"

#include <stdexcept>

namespace gpuprof::analysis {

SideThread::SideThread() : thread_([this] { serve(); }) {}

SideThread::~SideThread() {
  {
    const std::lock_guard lock(mutex_);
    closing_ = true;
    tasks_.resize(started_);  // dropped, never started: their inputs may be gone with the owner's frame
    errors_.resize(started_);
  }
  wake_.notify_all();
  thread_.join();
}

void SideThread::add(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    if (closing_) throw std::logic_error("SideThread::add after finish");
    tasks_.push_back(std::move(task));
    errors_.emplace_back();
  }
  wake_.notify_one();
}

void SideThread::run_next(std::unique_lock<std::mutex>& lock) {
  const std::size_t index = started_++;
  auto& task = tasks_[index];
  lock.unlock();
  std::exception_ptr error;
  try {
    task();
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  errors_[index] = error;
  ++finished_;
  done_.notify_all();
}

void SideThread::serve() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return started_ < tasks_.size() || closing_; });
    if (started_ == tasks_.size()) return;  // closing, nothing left
    run_next(lock);
  }
}

void SideThread::finish() {
  std::unique_lock lock(mutex_);
  closing_ = true;
  wake_.notify_all();
  while (started_ < tasks_.size()) run_next(lock);
  done_.wait(lock, [this] { return finished_ == tasks_.size(); });
  for (const auto& error : errors_) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace gpuprof::analysis
