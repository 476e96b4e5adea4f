#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sample_source.hpp"

namespace gpuprof::workloads {

// Host memory one batch is assembled into, owned by the caller (pinned or pageable).
struct HostBatchView {
  float* inputs = nullptr;
  float* targets = nullptr;
  std::int32_t* ints = nullptr;
};

// Which samples make the batch of each step: this GPU's share of the global batch, in the
// epoch's shuffled order. A batch depends only on (seed, step), never on threads or timing.
struct BatchSchedule {
  int replica = 0;
  int per_gpu_batch = 0;
  int global_batch = 0;
  int steps_per_epoch = 0;
  int total_steps = 0;
  std::uint64_t seed = 1;
  int loader_us = 0;  // busy host work per batch imitating a slow loader
};

// Assembles training batches into a ring of host buffers, the batch of step s into
// slots[s % slots.size()]. With threads > 0 (the pool) loader threads run ahead of the
// training thread, one whole batch each, as far as free slots allow: the ring is the
// bounded queue, and a slot is free again once the caller releases its batch (after the
// copy to the GPU). With threads == 0 (inline) wait() assembles the batch on the calling
// thread, its rows split over inline_threads threads: the old behaviour.
// A loader's error is rethrown by wait(); destruction stops the threads even while they wait.
class BatchLoaderPool {
 public:
  BatchLoaderPool(const SampleSource& source, const BatchSchedule& schedule, std::vector<HostBatchView> slots,
                  int threads, int inline_threads = 1);
  ~BatchLoaderPool();
  BatchLoaderPool(const BatchLoaderPool&) = delete;
  BatchLoaderPool& operator=(const BatchLoaderPool&) = delete;

  // Steps in order, each once: blocks until the batch of `step` is in its slot.
  const HostBatchView& wait(int step);
  // The caller is done with the batch of `step` (steps in order): its slot may be refilled.
  void release(int step);

  int slots() const { return static_cast<int>(slots_.size()); }

 private:
  void work();
  void assemble(int step, int threads);
  std::shared_ptr<const std::vector<std::int32_t>> order_for(int epoch);
  bool may_claim() const;

  const SampleSource& source_;
  BatchSchedule schedule_;
  std::vector<HostBatchView> slots_;
  int inline_threads_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<int> filled_;  // per slot: the step whose batch it holds, -1 none
  int next_claim_ = 0;       // the next step a loader thread takes
  int released_ = 0;         // steps released so far (all below this)
  int next_wait_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  int order_epoch_ = -1;
  std::shared_ptr<const std::vector<std::int32_t>> order_;
  std::vector<std::jthread> threads_;  // last: joined before the state above goes
};

}  // namespace gpuprof::workloads
