#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "write_ops.hpp"

namespace gpuprof::trace {

// Applies batches of writes on a thread of its own, in the order submitted,
// so that a producer (an importer parsing its source file) and SQLite's
// inserts use two cores. At most kQueuedBatches wait, which bounds memory: a
// producer faster than SQLite waits for it.
class BackgroundWrites {
 public:
  static constexpr std::size_t kOpsPerBatch = 4096;
  static constexpr std::size_t kQueuedBatches = 4;

  explicit BackgroundWrites(std::function<void(const WriteOp&)> apply);
  // Stops without waiting for queued batches to be applied.
  ~BackgroundWrites();
  BackgroundWrites(const BackgroundWrites&) = delete;
  BackgroundWrites& operator=(const BackgroundWrites&) = delete;

  // Queues one write; hands the batch over once full. Throws what an earlier
  // write threw on the background thread.
  void add(WriteOp op);
  // Returns once every write added so far is applied; throws as add() does.
  void wait_applied();

 private:
  void hand_over();
  void run();
  void rethrow_locked();

  std::function<void(const WriteOp&)> apply_;
  std::vector<WriteOp> filling_;
  std::mutex mutex_;
  std::condition_variable queue_changed_;
  std::deque<std::vector<WriteOp>> queue_;
  bool applying_ = false;  // a batch is out of the queue and being applied
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace gpuprof::trace
