#include "input_pipeline.hpp"

#include <algorithm>
#include <chrono>

#include "cuda_check.hpp"
#include "nvtx_range.hpp"

namespace gpuprof::workloads {
namespace {

// Busy work rather than sleep: a slow loader keeps a CPU core busy, and a sleeping
// thread would look different in a profile.
void imitate_loader_work(int microseconds) {
  if (microseconds <= 0) return;
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  volatile std::uint64_t sink = 0;
  while (std::chrono::steady_clock::now() < end) sink = sink + 1;
}

}  // namespace

InputPipeline::InputPipeline(const DeviceContext& context, const SampleSource& dataset,
                             const InputPipelineConfig& config)
    : context_(context), dataset_(dataset), config_(config) {
  context.make_current();
  const auto batch = static_cast<std::size_t>(config.per_gpu_batch);
  const SampleShape shape = dataset.shape();
  slots_.resize(static_cast<std::size_t>(config.prefetch) + 1);
  for (Slot& slot : slots_) {
    slot.host_inputs = HostArray<float>(batch * shape.inputs, config.pinned, "host batch inputs");
    slot.host_targets = HostArray<float>(batch * shape.targets, config.pinned, "host batch targets");
    slot.host_ints = HostArray<std::int32_t>(batch * shape.ints, config.pinned, "host batch integers");
    slot.inputs = DeviceArray<float>(batch * shape.inputs, "batch inputs");
    slot.targets = DeviceArray<float>(batch * shape.targets, "batch targets");
    slot.ints = DeviceArray<std::int32_t>(batch * shape.ints, "batch integers");
    GPUPROF_CHECK(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming));
    GPUPROF_CHECK(cudaEventCreateWithFlags(&slot.consumed, cudaEventDisableTiming));
  }
}

InputPipeline::~InputPipeline() {
  cudaSetDevice(context_.device());
  for (Slot& slot : slots_) {
    if (slot.copied != nullptr) cudaEventDestroy(slot.copied);
    if (slot.consumed != nullptr) cudaEventDestroy(slot.consumed);
  }
}

void InputPipeline::assemble(int step, Slot& slot) {
  NvtxRange range("data");
  const int epoch = step / config_.steps_per_epoch;
  if (epoch != order_epoch_) {
    order_ = epoch_order(dataset_.samples(), config_.seed, epoch);
    order_epoch_ = epoch;
  }
  const int first = (step % config_.steps_per_epoch) * config_.global_batch +
                    config_.replica * config_.per_gpu_batch;
  gather_samples(dataset_, order_, first, config_.per_gpu_batch, slot.host_inputs.data(),
                 slot.host_targets.data(), slot.host_ints.data(), config_.loader_threads);
  imitate_loader_work(config_.loader_us);
}

void InputPipeline::issue(int step) {
  Slot& slot = slot_for(step);
  const bool synchronous = config_.prefetch == 0;
  // The copy that last read this staging buffer must be done before we overwrite it.
  GPUPROF_CHECK(cudaEventSynchronize(slot.copied));
  assemble(step, slot);
  NvtxRange range("h2d");
  cudaStream_t stream = synchronous ? context_.compute_stream() : context_.copy_stream();
  // The device buffer may still be read by the step that used it last.
  if (!synchronous) GPUPROF_CHECK(cudaStreamWaitEvent(stream, slot.consumed, 0));
  // Parts the model has none of (size 0) are skipped: a zero-byte copy would still show in the trace.
  if (slot.inputs.size() > 0) slot.inputs.upload(slot.host_inputs.data(), slot.host_inputs.size(), stream);
  if (slot.targets.size() > 0) slot.targets.upload(slot.host_targets.data(), slot.host_targets.size(), stream);
  if (slot.ints.size() > 0) slot.ints.upload(slot.host_ints.data(), slot.host_ints.size(), stream);
  GPUPROF_CHECK(cudaEventRecord(slot.copied, stream));
  // Without prefetch the loader is synchronous: the host waits for the copy, and the
  // copy waits for the previous step's compute, as in a naive training loop.
  if (synchronous) GPUPROF_CHECK(cudaStreamSynchronize(stream));
}

DeviceBatch InputPipeline::acquire(int step) {
  context_.make_current();
  const int last = std::min(step + config_.prefetch, config_.total_steps - 1);
  while (next_to_issue_ <= last) issue(next_to_issue_++);
  Slot& slot = slot_for(step);
  GPUPROF_CHECK(cudaStreamWaitEvent(context_.compute_stream(), slot.copied, 0));
  return DeviceBatch{slot.inputs.data(), slot.targets.data(), slot.ints.data(), config_.per_gpu_batch};
}

void InputPipeline::release(int step) {
  context_.make_current();
  GPUPROF_CHECK(cudaEventRecord(slot_for(step).consumed, context_.compute_stream()));
}

}  // namespace gpuprof::workloads
