#pragma once

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "device_array.hpp"
#include "device_batch.hpp"
#include "device_context.hpp"
#include "host_array.hpp"
#include "sample_source.hpp"

namespace gpuprof::workloads {

struct InputPipelineConfig {
  int replica = 0;         // which share of each global batch this GPU trains on
  int per_gpu_batch = 0;
  int global_batch = 0;
  int steps_per_epoch = 0;
  int total_steps = 0;
  int prefetch = 0;        // batches copied ahead: 0 synchronous, 1 double, 2 triple buffering
  bool pinned = false;
  int loader_us = 0;
  int loader_threads = 1;
  std::uint64_t seed = 1;
};

// Feeds one GPU: assembles each batch on the host (pageable or pinned), copies it
// to the device, and with prefetch copies later batches on the copy stream while
// the compute stream works. Events, not host waits, order the two streams; the host
// waits only before reusing a staging buffer whose copy is still running.
// Batch contents depend only on (seed, step), never on the prefetch depth.
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
  struct Slot {
    HostArray<float> host_inputs;
    HostArray<float> host_targets;
    HostArray<std::int32_t> host_ints;
    DeviceArray<float> inputs;
    DeviceArray<float> targets;
    DeviceArray<std::int32_t> ints;
    cudaEvent_t copied = nullptr;
    cudaEvent_t consumed = nullptr;
  };

  void issue(int step);
  void assemble(int step, Slot& slot);
  Slot& slot_for(int step) { return slots_[static_cast<std::size_t>(step) % slots_.size()]; }

  const DeviceContext& context_;
  const SampleSource& dataset_;
  InputPipelineConfig config_;
  std::vector<Slot> slots_;
  int next_to_issue_ = 0;
  int order_epoch_ = -1;
  std::vector<std::int32_t> order_;
};

}  // namespace gpuprof::workloads
