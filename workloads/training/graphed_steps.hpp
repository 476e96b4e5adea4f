#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cuda_graph_plan.hpp"
#include "device_array.hpp"
#include "replica.hpp"
#include "sample_source.hpp"
#include "step_graph.hpp"

namespace gpuprof::workloads {

// --cuda-graphs for a run with one replica on one GPU: runs each training step as its schedule
// says (call by call, measured, captured, replayed). A replay reads its batch from fixed device
// buffers, into which each step's batch is copied on the compute stream first; the captured step
// reads those, the model's buffers (bindings checked before every replay) and the optimizer, whose
// step-dependent Adam factors are set on the graph before each launch.
class GraphedSteps {
 public:
  using EnqueueStep = std::function<void(const std::vector<DeviceBatch>& batches)>;

  GraphedSteps(CudaGraphMode mode, const CudaGraphSchedule& schedule, Replica& replica, const SampleShape& shape,
               int batch, EnqueueStep enqueue_step);

  void run_step(int step);
  // The decision for the run summary: the mode's, or auto's from the warm-up measurement.
  const std::string& decision() const { return decision_.reason; }
  // Lines worth printing once (a capture that failed, a graph captured again).
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void measure(const DeviceBatch& batch, bool queued);
  void decide_and_capture(const DeviceBatch& batch);
  void capture_and_launch(const DeviceBatch& batch);
  void replay(const DeviceBatch& batch);
  void stage(const DeviceBatch& batch);
  void launch_graph();
  cudaStream_t stream() const;

  CudaGraphMode mode_;
  CudaGraphSchedule schedule_;
  Replica& replica_;
  EnqueueStep enqueue_step_;
  DeviceArray<float> inputs_;
  DeviceArray<float> targets_;
  DeviceArray<std::int32_t> ints_;
  int batch_ = 0;
  StepTimer timer_;
  StepMeasurement pending_;
  std::vector<StepMeasurement> measurements_;
  CudaGraphDecision decision_;
  StepGraph graph_;
  std::vector<GraphBinding> captured_bindings_;
  std::vector<std::string> notes_;
};

}  // namespace gpuprof::workloads
