#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "batch_loader_pool.hpp"
#include "device_array.hpp"
#include "device_batch.hpp"
#include "device_context.hpp"
#include "host_array.hpp"
#include "sample_source.hpp"

namespace gpuprof::workloads {

struct InputPipelineConfig {
  BatchSchedule schedule;
  int prefetch = 0;        // batches copied ahead: 0 synchronous, 1 double, 2 triple buffering
  bool pinned = false;
  bool pool = false;       // loader threads assemble batches ahead, off the training thread
  int loader_threads = 1;  // pool: loader threads; inline: threads sharing each batch
};

// Feeds one GPU: batches are assembled on the host (by a loader pool running ahead, or inline
// on the training thread) into pageable or pinned buffers, then copied to the device; with
// prefetch the copies of later batches run on the copy stream while the compute stream works.
// Events, not host waits, order the two streams; the host waits only before a host buffer whose
// copy is still running is handed back to the loaders. Events are created once, never per step.
// Batch contents depend only on (seed, step), never on the prefetch depth or thread count.
class InputPipeline {
 public:
  InputPipeline(const DeviceContext& context, const SampleSource& dataset, const InputPipelineConfig& config);
  ~InputPipeline();
  InputPipeline(const InputPipeline&) = delete;
  InputPipeline& operator=(const InputPipeline&) = delete;

  // The batch of `step`, usable by work enqueued next on the compute stream.
  DeviceBatch acquire(int step);
  // Call after the step's last use of the batch is enqueued on the compute stream.
  void release(int step);

 private:
  struct HostSlot {
    HostArray<float> inputs;
    HostArray<float> targets;
    HostArray<std::int32_t> ints;
    cudaEvent_t copied = nullptr;  // the copy out of this buffer is done
  };
  struct DeviceSlot {
    DeviceArray<float> inputs;
    DeviceArray<float> targets;
    DeviceArray<std::int32_t> ints;
    cudaEvent_t copied = nullptr;
    cudaEvent_t consumed = nullptr;
  };

  void issue(int step);
  // Hands finished copies' host buffers back to the loaders; waits for those up to `through`.
  void return_host_buffers(int through);
  HostSlot& host_slot(int step) { return host_[static_cast<std::size_t>(step) % host_.size()]; }
  DeviceSlot& device_slot(int step) { return device_[static_cast<std::size_t>(step) % device_.size()]; }

  const DeviceContext& context_;
  InputPipelineConfig config_;
  std::vector<HostSlot> host_;
  std::vector<DeviceSlot> device_;
  std::deque<int> copying_;  // steps whose host buffer the loaders do not have back yet
  int next_to_issue_ = 0;
  std::unique_ptr<BatchLoaderPool> loader_;  // after host_: its threads stop before the buffers go
};

}  // namespace gpuprof::workloads
