#include "input_pipeline.hpp"

#include <algorithm>

#include "cuda_check.hpp"
#include "nvtx_range.hpp"

namespace gpuprof::workloads {

InputPipeline::InputPipeline(const DeviceContext& context, const SampleSource& dataset,
                             const InputPipelineConfig& config)
    : context_(context), config_(config) {
  context.make_current();
  const auto batch = static_cast<std::size_t>(config.schedule.per_gpu_batch);
  const SampleShape shape = dataset.shape();
  device_.resize(static_cast<std::size_t>(config.prefetch) + 1);
  // The pool's queue: a buffer per device slot, and one more per loader thread to fill meanwhile.
  host_.resize(device_.size() + (config.pool ? static_cast<std::size_t>(config.loader_threads) : 0));
  std::vector<HostBatchView> views;
  for (HostSlot& slot : host_) {
    slot.inputs = HostArray<float>(batch * shape.inputs, config.pinned, "host batch inputs");
    slot.targets = HostArray<float>(batch * shape.targets, config.pinned, "host batch targets");
    slot.ints = HostArray<std::int32_t>(batch * shape.ints, config.pinned, "host batch integers");
    GPUPROF_CHECK(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming));
    views.push_back({slot.inputs.data(), slot.targets.data(), slot.ints.data()});
  }
  for (DeviceSlot& slot : device_) {
    slot.inputs = DeviceArray<float>(batch * shape.inputs, "batch inputs");
    slot.targets = DeviceArray<float>(batch * shape.targets, "batch targets");
    slot.ints = DeviceArray<std::int32_t>(batch * shape.ints, "batch integers");
    GPUPROF_CHECK(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming));
    GPUPROF_CHECK(cudaEventCreateWithFlags(&slot.consumed, cudaEventDisableTiming));
  }
  loader_ = std::make_unique<BatchLoaderPool>(dataset, config.schedule, std::move(views),
                                              config.pool ? config.loader_threads : 0, config.loader_threads);
}

InputPipeline::~InputPipeline() {
  loader_.reset();  // no loader thread writes into a buffer from here on
  cudaSetDevice(context_.device());
  // Copies still reading the host buffers finish before the buffers are freed.
  for (HostSlot& slot : host_) {
    if (slot.copied != nullptr) {
      cudaEventSynchronize(slot.copied);
      cudaEventDestroy(slot.copied);
    }
  }
  for (DeviceSlot& slot : device_) {
    if (slot.copied != nullptr) cudaEventDestroy(slot.copied);
    if (slot.consumed != nullptr) cudaEventDestroy(slot.consumed);
  }
}

void InputPipeline::return_host_buffers(int through) {
  while (!copying_.empty()) {
    const int step = copying_.front();
    if (step <= through) {
      GPUPROF_CHECK(cudaEventSynchronize(host_slot(step).copied));
    } else if (cudaEventQuery(host_slot(step).copied) != cudaSuccess) {
      break;  // still copying (or failed: the synchronisation above will say so in time)
    }
    loader_->release(step);
    copying_.pop_front();
  }
}

void InputPipeline::issue(int step) {
  const bool synchronous = config_.prefetch == 0;
  // The loaders may need this step's host buffer back before they can have its batch ready.
  return_host_buffers(step - static_cast<int>(host_.size()));
  const HostBatchView* batch = nullptr;
  {
    NvtxRange range("data");
    batch = &loader_->wait(step);
  }
  NvtxRange range("h2d");
  HostSlot& host = host_slot(step);
  DeviceSlot& slot = device_slot(step);
  cudaStream_t stream = synchronous ? context_.compute_stream() : context_.copy_stream();
  // The device buffer may still be read by the step that used it last.
  if (!synchronous) GPUPROF_CHECK(cudaStreamWaitEvent(stream, slot.consumed, 0));
  // Parts the model has none of (size 0) are skipped: a zero-byte copy would still show in the trace.
  if (slot.inputs.size() > 0) slot.inputs.upload(batch->inputs, host.inputs.size(), stream);
  if (slot.targets.size() > 0) slot.targets.upload(batch->targets, host.targets.size(), stream);
  if (slot.ints.size() > 0) slot.ints.upload(batch->ints, host.ints.size(), stream);
  GPUPROF_CHECK(cudaEventRecord(slot.copied, stream));
  GPUPROF_CHECK(cudaEventRecord(host.copied, stream));
  copying_.push_back(step);
  // Without prefetch the loader is synchronous: the host waits for the copy, and the
  // copy waits for the previous step's compute, as in a naive training loop.
  if (synchronous) {
    GPUPROF_CHECK(cudaStreamSynchronize(stream));
    return_host_buffers(step);
  }
}

DeviceBatch InputPipeline::acquire(int step) {
  context_.make_current();
  return_host_buffers(-1);  // what finished copying goes back to the loaders, without waiting
  const int last = std::min(step + config_.prefetch, config_.schedule.total_steps - 1);
  while (next_to_issue_ <= last) issue(next_to_issue_++);
  DeviceSlot& slot = device_slot(step);
  GPUPROF_CHECK(cudaStreamWaitEvent(context_.compute_stream(), slot.copied, 0));
  return DeviceBatch{slot.inputs.data(), slot.targets.data(), slot.ints.data(), config_.schedule.per_gpu_batch};
}

void InputPipeline::release(int step) {
  context_.make_current();
  GPUPROF_CHECK(cudaEventRecord(device_slot(step).consumed, context_.compute_stream()));
}

}  // namespace gpuprof::workloads
