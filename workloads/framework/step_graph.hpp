#pragma once

#include <functional>
#include <string>

#include <cuda_runtime_api.h>

namespace gpuprof::workloads {

// A training step captured once from a stream (stream capture) and replayed with one graph launch.
// Capture is thread-local: calls that cannot be captured (a synchronisation, an allocation, an event
// query) fail the capture, and capture() returns why instead of throwing, so the caller keeps
// launching call by call. What the step's host code does is not replayed: only the GPU work it
// enqueued on the stream (and streams joined to it) is.
class StepGraph {
 public:
  StepGraph() = default;
  ~StepGraph();
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;

  // Captures `enqueue_step` on `stream` and instantiates it. Empty on success, else the reason.
  std::string capture(cudaStream_t stream, const std::function<void()>& enqueue_step);
  bool ready() const { return exec_ != nullptr; }
  cudaGraphExec_t exec() const { return exec_; }
  void launch(cudaStream_t stream) const;
  void reset();

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Times one step on a stream from its first to its last work, with events created once. With
// hold(), the stream waits (a host function blocking on the stream) until release(), so the whole
// step is queued before the GPU starts it: its GPU time without launch gaps. A hold ends by itself
// after `hold_limit_seconds` so a call that waits for the GPU cannot deadlock the run; the
// measurement is then marked invalid.
class StepTimer {
 public:
  explicit StepTimer(double hold_limit_seconds = 2.0);
  ~StepTimer();
  StepTimer(const StepTimer&) = delete;
  StepTimer& operator=(const StepTimer&) = delete;

  void begin(cudaStream_t stream, bool hold);
  void end(cudaStream_t stream);
  // Releases a hold, waits for the stream; the GPU seconds between begin and end, and whether a hold
  // (if any) lasted until release (false: the hold timed out, the figure is not of a queued step).
  struct Result {
    double gpu_seconds = 0.0;
    bool held_until_release = true;
  };
  Result finish(cudaStream_t stream);

 private:
  struct Hold;
  static void CUDART_CB wait_for_release(void* hold);
  void release();

  double hold_limit_seconds_;
  cudaStream_t held_stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  Hold* hold_ = nullptr;
};

}  // namespace gpuprof::workloads
