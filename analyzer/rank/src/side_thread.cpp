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
    done_tasks_.resize(started_);
  }
  wake_.notify_all();
  thread_.join();
}

std::size_t SideThread::add(std::function<void()> task) {
  std::size_t index = 0;
  {
    const std::lock_guard lock(mutex_);
    if (closing_) throw std::logic_error("SideThread::add after finish");
    index = tasks_.size();
    tasks_.push_back(std::move(task));
    errors_.emplace_back();
    done_tasks_.push_back(false);
  }
  wake_.notify_one();
  return index;
}

void SideThread::wait_for(std::size_t task) {
  std::unique_lock lock(mutex_);
  if (task >= tasks_.size()) throw std::logic_error("SideThread::wait_for a task never added");
  while (started_ <= task) run_next(lock);
  done_.wait(lock, [&] { return done_tasks_[task]; });
  if (errors_[task]) std::rethrow_exception(errors_[task]);
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
  done_tasks_[index] = true;
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
