#pragma once

// One second thread for the analyses of a rank, fed in order as each analysis's inputs come to exist. On the
// two cores of the machines this runs on, a third busy thread only adds switching, so the owner does not
// wait idly at the end: finish() runs on the owner's thread every task the side thread has not started yet,
// then waits for the one it runs. Which thread runs a task never changes what the task computes.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace gpuprof::analysis {

class SideThread {
 public:
  SideThread();
  SideThread(const SideThread&) = delete;
  SideThread& operator=(const SideThread&) = delete;
  // Without finish() (the owner threw): tasks not started are dropped, the running one is waited for.
  ~SideThread();

  // Queues `task`; tasks start in the order added. Not after finish().
  void add(std::function<void()> task);
  // Runs here what the side thread has not started, waits for the rest, and rethrows the exception of the
  // first task (in the order added) that threw: every task ran, so the error does not depend on scheduling.
  void finish();

 private:
  void serve();
  void run_next(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<std::function<void()>> tasks_;  // a deque: a running task's entry stays put while others are added
  std::deque<std::exception_ptr> errors_;
  std::size_t started_ = 0, finished_ = 0;
  bool closing_ = false;
  std::thread thread_;  // last: it starts once the members it reads exist
};

}  // namespace gpuprof::analysis
