#include "layer_kernels.hpp"

#include <cuda_bf16.h>

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

__device__ float widen(float value) { return value; }
__device__ float widen(__nv_bfloat16 value) { return __bfloat162float(value); }
template <typename T>
__device__ T narrow(float value);
template <>
__device__ float narrow<float>(float value) { return value; }
template <>
__device__ __nv_bfloat16 narrow<__nv_bfloat16>(float value) { return __float2bfloat16_rn(value); }

template <typename T>
__global__ void add_into_kernel(T* target, const T* source, long long count) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index < count) target[index] = narrow<T>(widen(target[index]) + widen(source[index]));
}

template <typename T>
__global__ void activation_forward_kernel(ActivationKind kind, const T* input, T* output, long long count) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index >= count) return;
  const float x = widen(input[index]);
  output[index] = narrow<T>(kind == ActivationKind::relu ? fmaxf(x, 0.0F) : tanhf(x));
}

template <typename T>
__global__ void activation_backward_kernel(ActivationKind kind, const T* output, const T* output_gradient,
                                           T* input_gradient, long long count) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index >= count) return;
  const float y = widen(output[index]);
  const float slope = kind == ActivationKind::relu ? (y > 0.0F ? 1.0F : 0.0F) : 1.0F - y * y;
  input_gradient[index] = narrow<T>(widen(output_gradient[index]) * slope);
}

template <typename T>
void add_into(void* target, const void* source, long long count, cudaStream_t stream) {
  add_into_kernel<<<blocks_for(count), block_size, 0, stream>>>(static_cast<T*>(target),
                                                                static_cast<const T*>(source), count);
  check_last_launch("add_into_kernel");
}

template <typename T>
void activation_forward(ActivationKind kind, const void* input, void* output, long long count,
                        cudaStream_t stream) {
  activation_forward_kernel<<<blocks_for(count), block_size, 0, stream>>>(kind, static_cast<const T*>(input),
                                                                          static_cast<T*>(output), count);
  check_last_launch("activation_forward_kernel");
}

template <typename T>
void activation_backward(ActivationKind kind, const void* output, const void* output_gradient,
                         void* input_gradient, long long count, cudaStream_t stream) {
  activation_backward_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      kind, static_cast<const T*>(output), static_cast<const T*>(output_gradient),
      static_cast<T*>(input_gradient), count);
  check_last_launch("activation_backward_kernel");
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
  launch_add_into(ElementType::fp32, target, source, count, stream);
}

void launch_activation_forward(ActivationKind kind, const float* input, float* output, int count,
                               cudaStream_t stream) {
  launch_activation_forward(ElementType::fp32, kind, input, output, count, stream);
}

void launch_activation_backward(ActivationKind kind, const float* output, const float* output_gradient,
                                float* input_gradient, int count, cudaStream_t stream) {
  launch_activation_backward(ElementType::fp32, kind, output, output_gradient, input_gradient, count, stream);
}

void launch_add_into(ElementType type, void* target, const void* source, long long count, cudaStream_t stream) {
  if (count == 0) return;
  if (type == ElementType::bf16) {
    add_into<__nv_bfloat16>(target, source, count, stream);
  } else {
    add_into<float>(target, source, count, stream);
  }
}

void launch_activation_forward(ElementType type, ActivationKind kind, const void* input, void* output,
                               long long count, cudaStream_t stream) {
  if (count == 0) return;
  if (type == ElementType::bf16) {
    activation_forward<__nv_bfloat16>(kind, input, output, count, stream);
  } else {
    activation_forward<float>(kind, input, output, count, stream);
  }
}

void launch_activation_backward(ElementType type, ActivationKind kind, const void* output,
                                const void* output_gradient, void* input_gradient, long long count,
                                cudaStream_t stream) {
  if (count == 0) return;
  if (type == ElementType::bf16) {
    activation_backward<__nv_bfloat16>(kind, output, output_gradient, input_gradient, count, stream);
  } else {
    activation_backward<float>(kind, output, output_gradient, input_gradient, count, stream);
  }
}

}  // namespace gpuprof::workloads
