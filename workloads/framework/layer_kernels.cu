#include "layer_kernels.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 256;

int blocks_for(long long count) { return static_cast<int>((count + block_size - 1) / block_size); }

__global__ void add_bias_kernel(float* rows, const float* bias, long long count, int columns) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index < count) rows[index] += bias[index % columns];
}

// One thread per column: batches are small enough that a serial sum per column is
// not the bottleneck, and the summation order stays fixed (reproducible results).
__global__ void accumulate_bias_gradient_kernel(const float* gradient, float* bias_gradient,
                                                int row_count, int columns) {
  const int column = blockIdx.x * blockDim.x + threadIdx.x;
  if (column >= columns) return;
  float sum = 0.0F;
  for (int row = 0; row < row_count; ++row) sum += gradient[static_cast<long long>(row) * columns + column];
  bias_gradient[column] += sum;
}

__global__ void add_into_kernel(float* target, const float* source, long long count) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index < count) target[index] += source[index];
}

__global__ void activation_forward_kernel(ActivationKind kind, const float* input, float* output,
                                          int count) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count) return;
  const float x = input[index];
  output[index] = kind == ActivationKind::relu ? fmaxf(x, 0.0F) : tanhf(x);
}

__global__ void activation_backward_kernel(ActivationKind kind, const float* output,
                                           const float* output_gradient, float* input_gradient,
                                           int count) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count) return;
  const float y = output[index];
  const float slope = kind == ActivationKind::relu ? (y > 0.0F ? 1.0F : 0.0F) : 1.0F - y * y;
  input_gradient[index] = output_gradient[index] * slope;
}

}  // namespace

void launch_add_bias(float* rows, const float* bias, int row_count, int columns, cudaStream_t stream) {
  const long long count = static_cast<long long>(row_count) * columns;
  if (count == 0) return;
  add_bias_kernel<<<blocks_for(count), block_size, 0, stream>>>(rows, bias, count, columns);
  check_last_launch("add_bias_kernel");
}

void launch_accumulate_bias_gradient(const float* gradient, float* bias_gradient, int row_count,
                                     int columns, cudaStream_t stream) {
  if (columns == 0) return;
  accumulate_bias_gradient_kernel<<<blocks_for(columns), block_size, 0, stream>>>(
      gradient, bias_gradient, row_count, columns);
  check_last_launch("accumulate_bias_gradient_kernel");
}

void launch_add_into(float* target, const float* source, long long count, cudaStream_t stream) {
  if (count == 0) return;
  add_into_kernel<<<blocks_for(count), block_size, 0, stream>>>(target, source, count);
  check_last_launch("add_into_kernel");
}

void launch_activation_forward(ActivationKind kind, const float* input, float* output, int count,
                               cudaStream_t stream) {
  if (count == 0) return;
  activation_forward_kernel<<<blocks_for(count), block_size, 0, stream>>>(kind, input, output, count);
  check_last_launch("activation_forward_kernel");
}

void launch_activation_backward(ActivationKind kind, const float* output, const float* output_gradient,
                                float* input_gradient, int count, cudaStream_t stream) {
  if (count == 0) return;
  activation_backward_kernel<<<blocks_for(count), block_size, 0, stream>>>(kind, output, output_gradient,
                                                                          input_gradient, count);
  check_last_launch("activation_backward_kernel");
}

}  // namespace gpuprof::workloads
