#include "element_type.hpp"

#include <cuda_bf16.h>

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 256;

unsigned blocks_for(long long count) { return static_cast<unsigned>((count + block_size - 1) / block_size); }

__global__ void round_to_bf16_kernel(const float* source, __nv_bfloat16* target, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) target[i] = __float2bfloat16_rn(source[i]);
}

__global__ void widen_from_bf16_kernel(const __nv_bfloat16* source, float* target, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) target[i] = __bfloat162float(source[i]);
}

__global__ void add_bf16_into_kernel(float* target, const __nv_bfloat16* source, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) target[i] += __bfloat162float(source[i]);
}

}  // namespace

cudnnDataType_t cudnn_data_type(ElementType type) {
  return type == ElementType::bf16 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
}

void launch_round_to_bf16(const float* source, void* bf16_target, long long count, cudaStream_t stream) {
  if (count == 0) return;
  round_to_bf16_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      source, static_cast<__nv_bfloat16*>(bf16_target), count);
  check_last_launch("round_to_bf16_kernel");
}

void launch_widen_from_bf16(const void* bf16_source, float* target, long long count, cudaStream_t stream) {
  if (count == 0) return;
  widen_from_bf16_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(bf16_source), target, count);
  check_last_launch("widen_from_bf16_kernel");
}

void launch_add_bf16_into(float* target, const void* bf16_source, long long count, cudaStream_t stream) {
  if (count == 0) return;
  add_bf16_into_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      target, static_cast<const __nv_bfloat16*>(bf16_source), count);
  check_last_launch("add_bf16_into_kernel");
}

void launch_store_as(ElementType type, const float* source, void* target, long long count, cudaStream_t stream) {
  if (type == ElementType::bf16) {
    launch_round_to_bf16(source, target, count, stream);
  } else if (count > 0) {
    GPUPROF_CHECK(cudaMemcpyAsync(target, source, static_cast<std::size_t>(count) * sizeof(float),
                                  cudaMemcpyDeviceToDevice, stream));
  }
}

void launch_load_from(ElementType type, const void* source, float* target, long long count, cudaStream_t stream) {
  if (type == ElementType::bf16) {
    launch_widen_from_bf16(source, target, count, stream);
  } else if (count > 0) {
    GPUPROF_CHECK(cudaMemcpyAsync(target, source, static_cast<std::size_t>(count) * sizeof(float),
                                  cudaMemcpyDeviceToDevice, stream));
  }
}

}  // namespace gpuprof::workloads
