#include "graphed_steps.hpp"

#include <chrono>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "nvtx_range.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

GraphedSteps::GraphedSteps(CudaGraphMode mode, const CudaGraphSchedule& schedule, Replica& replica,
                           const SampleShape& shape, int batch, EnqueueStep enqueue_step)
    : mode_(mode), schedule_(schedule), replica_(replica), enqueue_step_(std::move(enqueue_step)), batch_(batch) {
  replica_.contexts.front()->make_current();
  const auto rows = static_cast<std::size_t>(batch);
  inputs_ = DeviceArray<float>(rows * shape.inputs, "graphed step inputs");
  targets_ = DeviceArray<float>(rows * shape.targets, "graphed step targets");
  ints_ = DeviceArray<std::int32_t>(rows * shape.ints, "graphed step integers");
  decision_ = decide_cuda_graphs(mode, schedule, {});  // until the capture step decides
}

cudaStream_t GraphedSteps::stream() const { return replica_.contexts.front()->compute_stream(); }

void GraphedSteps::run_step(int step) {
  InputPipeline& pipeline = *replica_.pipelines.front();
  const DeviceBatch batch = pipeline.acquire(step);
  switch (schedule_.role(step)) {
    case StepRole::eager: enqueue_step_({batch}); break;
    case StepRole::measure_launched: measure(batch, false); break;
    case StepRole::measure_queued: measure(batch, true); break;
    case StepRole::capture: decide_and_capture(batch); break;
    case StepRole::replay:
      if (graph_.ready()) {
        replay(batch);
      } else {
        enqueue_step_({batch});
      }
      break;
  }
  pipeline.release(step);
}

// A launched step starts on an idle GPU and is timed from the host's first call; a queued one is
// held on the stream until the host has enqueued all of it.
void GraphedSteps::measure(const DeviceBatch& batch, bool queued) {
  GPUPROF_CHECK(cudaStreamSynchronize(stream()));
  const auto start = std::chrono::steady_clock::now();
  timer_.begin(stream(), queued);
  enqueue_step_({batch});
  const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timer_.end(stream());
  const StepTimer::Result result = timer_.finish(stream());
  if (!queued) {
    pending_ = StepMeasurement{result.gpu_seconds, host_seconds, 0.0, true};
    return;
  }
  pending_.queued_gpu_seconds = result.gpu_seconds;
  pending_.valid = result.held_until_release;
  measurements_.push_back(pending_);
}

void GraphedSteps::decide_and_capture(const DeviceBatch& batch) {
  decision_ = decide_cuda_graphs(mode_, schedule_, measurements_);
  if (!decision_.capture) {
    enqueue_step_({batch});
    return;
  }
  capture_and_launch(batch);
}

void GraphedSteps::stage(const DeviceBatch& batch) {
  if (batch.size != batch_) throw WorkloadError(fmt::format("a graphed step got a batch of {}, not {}", batch.size, batch_));
  // Parts the model has none of are skipped, as the pipeline skips them.
  if (inputs_.size() > 0) {
    GPUPROF_CHECK(cudaMemcpyAsync(inputs_.data(), batch.inputs, inputs_.bytes(), cudaMemcpyDeviceToDevice, stream()));
  }
  if (targets_.size() > 0) {
    GPUPROF_CHECK(cudaMemcpyAsync(targets_.data(), batch.targets, targets_.bytes(), cudaMemcpyDeviceToDevice, stream()));
  }
  if (ints_.size() > 0) {
    GPUPROF_CHECK(cudaMemcpyAsync(ints_.data(), batch.ints, ints_.bytes(), cudaMemcpyDeviceToDevice, stream()));
  }
}

void GraphedSteps::capture_and_launch(const DeviceBatch& batch) {
  stage(batch);
  const std::vector<DeviceBatch> fixed = {{inputs_.data(), targets_.data(), ints_.data(), batch_}};
  std::string failure;
  {
    NvtxRange range("cuda-graph capture");
    failure = graph_.capture(stream(), [&] { enqueue_step_(fixed); });
  }
  if (!failure.empty()) {
    notes_.push_back(fmt::format("note: cuda graphs: capturing the training step failed ({}); steps are launched "
                                 "call by call",
                                 failure));
    decision_.capture = false;
    decision_.reason = fmt::format("off: the capture failed ({}), after: {}", failure, decision_.reason);
    enqueue_step_({batch});
    return;
  }
  captured_bindings_ = replica_.model->graph_bindings();
  launch_graph();
}

void GraphedSteps::replay(const DeviceBatch& batch) {
  const std::vector<std::string> moved = moved_bindings(captured_bindings_, replica_.model->graph_bindings());
  if (!moved.empty()) {
    notes_.push_back(fmt::format("note: cuda graphs: {} moved since the capture; the step is captured again",
                                 joined(moved)));
    capture_and_launch(batch);
    return;
  }
  stage(batch);
  launch_graph();
}

void GraphedSteps::launch_graph() {
  for (auto& optimizer : replica_.optimizers) optimizer->before_replay(graph_.exec());
  graph_.launch(stream());
}

}  // namespace gpuprof::workloads
