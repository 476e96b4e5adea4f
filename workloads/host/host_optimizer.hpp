#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optimizer_rule.hpp"

namespace gpuprof::workloads {

// Applies the optimizer to master weights held in host memory: the update of
// the host-staged strategy, and the reference the GPU optimizer is tested against.
class HostOptimizer {
 public:
  HostOptimizer(OptimizerConfig config, std::size_t parameter_count);

  void step(std::span<float> parameters, std::span<const float> gradients);
  std::int64_t steps_taken() const { return steps_taken_; }

 private:
  OptimizerConfig config_;
  std::vector<float> first_state_;   // sgd velocity, or adam first moment
  std::vector<float> second_state_;  // adam second moment
  std::int64_t steps_taken_ = 0;
};

}  // namespace gpuprof::workloads
