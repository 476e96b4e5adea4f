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

  void step(float* parameters, const float* gradients, cudaStream_t stream);
  std::int64_t steps_taken() const { return steps_taken_; }

 private:
  OptimizerConfig config_;
  std::size_t parameter_count_;
  DeviceArray<float> first_state_;
  DeviceArray<float> second_state_;
  std::int64_t steps_taken_ = 0;
};

}  // namespace gpuprof::workloads
