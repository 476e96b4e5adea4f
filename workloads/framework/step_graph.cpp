#include "step_graph.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>

#include <fmt/format.h>

#include "cuda_check.hpp"

namespace gpuprof::workloads {

StepGraph::~StepGraph() { reset(); }

void StepGraph::reset() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  if (graph_ != nullptr) cudaGraphDestroy(graph_);
  exec_ = nullptr;
  graph_ = nullptr;
}

std::string StepGraph::capture(cudaStream_t stream, const std::function<void()>& enqueue_step) {
  reset();
  GPUPROF_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  std::string failure;
  try {
    enqueue_step();
  } catch (const std::exception& error) {
    failure = error.what();
  }
  // Ends the capture whatever happened: a stream left capturing would refuse all later work.
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph_);
  if (failure.empty() && ended != cudaSuccess) {
    failure = fmt::format("cudaStreamEndCapture: {}", cudaGetErrorString(ended));
  }
  if (failure.empty()) {
    const cudaError_t instantiated = cudaGraphInstantiate(&exec_, graph_, 0);
    if (instantiated != cudaSuccess) failure = fmt::format("cudaGraphInstantiate: {}", cudaGetErrorString(instantiated));
  }
  if (!failure.empty()) {
    reset();
    cudaGetLastError();  // a failed capture leaves its error behind; the eager step that follows must not see it
  }
  return failure;
}

void StepGraph::launch(cudaStream_t stream) const { GPUPROF_CHECK(cudaGraphLaunch(exec_, stream)); }

struct StepTimer::Hold {
  std::mutex mutex;
  std::condition_variable released_signal;
  bool released = false;
  bool timed_out = false;
  std::chrono::duration<double> limit{0.0};
};

StepTimer::StepTimer(double hold_limit_seconds) : hold_limit_seconds_(hold_limit_seconds) {
  GPUPROF_CHECK(cudaEventCreate(&start_));
  GPUPROF_CHECK(cudaEventCreate(&stop_));
}

StepTimer::~StepTimer() {
  if (hold_ != nullptr) {  // left by an exception between begin() and finish()
    release();
    cudaStreamSynchronize(held_stream_);  // the callback reads the hold until it returns
    delete hold_;
  }
  if (start_ != nullptr) cudaEventDestroy(start_);
  if (stop_ != nullptr) cudaEventDestroy(stop_);
}

// Runs on CUDA's callback thread and so holds the stream; it makes no CUDA call.
void CUDART_CB StepTimer::wait_for_release(void* opaque) {
  auto* hold = static_cast<Hold*>(opaque);
  std::unique_lock lock(hold->mutex);
  if (!hold->released_signal.wait_for(lock, hold->limit, [hold] { return hold->released; })) hold->timed_out = true;
}

void StepTimer::begin(cudaStream_t stream, bool hold) {
  if (hold) {
    hold_ = new Hold;
    hold_->limit = std::chrono::duration<double>(hold_limit_seconds_);
    held_stream_ = stream;
    GPUPROF_CHECK(cudaLaunchHostFunc(stream, &StepTimer::wait_for_release, hold_));
  }
  GPUPROF_CHECK(cudaEventRecord(start_, stream));
}

void StepTimer::end(cudaStream_t stream) { GPUPROF_CHECK(cudaEventRecord(stop_, stream)); }

void StepTimer::release() {
  if (hold_ == nullptr) return;
  {
    std::lock_guard lock(hold_->mutex);
    hold_->released = true;
  }
  hold_->released_signal.notify_all();
}

StepTimer::Result StepTimer::finish(cudaStream_t stream) {
  release();
  GPUPROF_CHECK(cudaStreamSynchronize(stream));  // the host function has returned: the hold can go
  Result result;
  if (hold_ != nullptr) {
    result.held_until_release = !hold_->timed_out;
    delete hold_;
    hold_ = nullptr;
  }
  float milliseconds = 0.0F;
  GPUPROF_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
  result.gpu_seconds = static_cast<double>(milliseconds) / 1e3;
  return result;
}

}  // namespace gpuprof::workloads
