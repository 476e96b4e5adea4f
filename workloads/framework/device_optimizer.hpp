#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "device_array.hpp"
#include "optimizer_rule.hpp"

namespace gpuprof::workloads {

// SGD with momentum or Adam over one flat parameter array on one GPU, as a
// single elementwise kernel per step (optimizer_rule.hpp holds the arithmetic).
class DeviceOptimizer {
 public:
  DeviceOptimizer(OptimizerConfig config, std::size_t parameter_count);

  // Launched on a capturing stream, the update is recorded for the step it will first run as
  // (steps_taken() + 1) and not counted; before_replay() counts each replay and gives its kernel
  // node that step's Adam factors, which are arguments and so would otherwise stay those captured.
  void step(float* parameters, const float* gradients, cudaStream_t stream);
  void before_replay(cudaGraphExec_t exec);
  std::int64_t steps_taken() const { return steps_taken_; }

 private:
  OptimizerConfig config_;
  std::size_t parameter_count_;
  DeviceArray<float> first_state_;
  DeviceArray<float> second_state_;
  std::int64_t steps_taken_ = 0;
  cudaGraphNode_t captured_node_ = nullptr;  // the Adam update's node in the captured step
  float* captured_parameters_ = nullptr;
  const float* captured_gradients_ = nullptr;
};

}  // namespace gpuprof::workloads
