#include "device_optimizer.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 256;

__global__ void sgd_kernel(float* parameters, float* velocity, const float* gradients, long long count,
                           float learning_rate, float momentum) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) sgd_momentum_update(parameters[i], velocity[i], gradients[i], learning_rate, momentum);
}

__global__ void adam_kernel(float* parameters, float* first_moment, float* second_moment,
                            const float* gradients, long long count, float beta1, float beta2,
                            float epsilon, AdamStepFactors factors) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) {
    adam_update(parameters[i], first_moment[i], second_moment[i], gradients[i], beta1, beta2, epsilon,
                factors);
  }
}

}  // namespace

DeviceOptimizer::DeviceOptimizer(OptimizerConfig config, std::size_t parameter_count)
    : config_(config), parameter_count_(parameter_count),
      first_state_(parameter_count, "optimizer state"),
      second_state_(config.kind == OptimizerKind::adam ? parameter_count : 0, "Adam second moments") {
  GPUPROF_CHECK(cudaMemset(first_state_.data(), 0, first_state_.bytes()));
  if (second_state_.size() > 0) GPUPROF_CHECK(cudaMemset(second_state_.data(), 0, second_state_.bytes()));
  // cudaMemset may still be running; kernels on non-blocking streams would not wait for it.
  GPUPROF_CHECK(cudaDeviceSynchronize());
}

void DeviceOptimizer::step(float* parameters, const float* gradients, cudaStream_t stream) {
  ++steps_taken_;
  const auto count = static_cast<long long>(parameter_count_);
  const auto blocks = static_cast<unsigned>((count + block_size - 1) / block_size);
  if (count == 0) return;
  if (config_.kind == OptimizerKind::sgd) {
    sgd_kernel<<<blocks, block_size, 0, stream>>>(parameters, first_state_.data(), gradients, count,
                                                  config_.learning_rate, config_.momentum);
    check_last_launch("sgd_kernel");
    return;
  }
  adam_kernel<<<blocks, block_size, 0, stream>>>(parameters, first_state_.data(), second_state_.data(),
                                                 gradients, count, config_.beta1, config_.beta2,
                                                 config_.epsilon, adam_step_factors(config_, steps_taken_));
  check_last_launch("adam_kernel");
}

}  // namespace gpuprof::workloads
