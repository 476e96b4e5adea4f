#include "device_optimizer.hpp"

#include <string>

#include "cuda_check.hpp"
#include "workload_error.hpp"

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
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  GPUPROF_CHECK(cudaStreamIsCapturing(stream, &capture));
  // An invalidated capture counts too: its launch fails, and the eager step that follows counts the step.
  const bool capturing = capture != cudaStreamCaptureStatusNone;
  const std::int64_t step_number = steps_taken_ + 1;
  if (!capturing) steps_taken_ = step_number;
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
                                                 config_.epsilon, adam_step_factors(config_, step_number));
  check_last_launch("adam_kernel");
  if (!capturing) return;
  // The node just captured is what the stream's next work would depend on.
  const cudaGraphNode_t* dependencies = nullptr;
  std::size_t dependency_count = 0;
  GPUPROF_CHECK(cudaStreamGetCaptureInfo(stream, &capture, nullptr, nullptr, &dependencies, nullptr,
                                         &dependency_count));
  if (dependency_count != 1) {
    throw WorkloadError("the captured Adam update has " + std::to_string(dependency_count) +
                        " graph nodes after it, not 1");
  }
  captured_node_ = dependencies[0];
  captured_parameters_ = parameters;
  captured_gradients_ = gradients;
}

void DeviceOptimizer::before_replay(cudaGraphExec_t exec) {
  ++steps_taken_;
  if (config_.kind != OptimizerKind::adam || parameter_count_ == 0) return;
  if (captured_node_ == nullptr) throw WorkloadError("a graph replay without a captured Adam update");
  float* parameters = captured_parameters_;
  float* first = first_state_.data();
  float* second = second_state_.data();
  const float* gradients = captured_gradients_;
  auto count = static_cast<long long>(parameter_count_);
  float beta1 = config_.beta1;
  float beta2 = config_.beta2;
  float epsilon = config_.epsilon;
  AdamStepFactors factors = adam_step_factors(config_, steps_taken_);
  void* arguments[] = {&parameters, &first, &second, &gradients, &count, &beta1, &beta2, &epsilon, &factors};
  cudaKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(&adam_kernel);
  params.gridDim = dim3(static_cast<unsigned>((count + block_size - 1) / block_size));
  params.blockDim = dim3(block_size);
  params.kernelParams = arguments;
  GPUPROF_CHECK(cudaGraphExecKernelNodeSetParams(exec, captured_node_, &params));
}

}  // namespace gpuprof::workloads
