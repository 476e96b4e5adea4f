#pragma once

#include <cuda_runtime_api.h>

#include "element_type.hpp"

namespace gpuprof::workloads {

// Launchers for our own elementwise kernels (layer_kernels.cu). Rows are samples,
// columns features, row-major. All run on `stream` and return without waiting.
void launch_add_bias(float* rows, const float* bias, int row_count, int columns, cudaStream_t stream);
// bias_gradient[c] += sum over rows of gradient[r][c], one block of threads per 32 columns
// (rows shared among the block, summed in a fixed order: reproducible).
void launch_accumulate_bias_gradient(const float* gradient, float* bias_gradient, int row_count,
                                     int columns, cudaStream_t stream);

// target[i] += source[i]: residual connections (forward) and gradients that meet at a fork (backward).
void launch_add_into(float* target, const float* source, long long count, cudaStream_t stream);

enum class ActivationKind { relu, tanh };

void launch_activation_forward(ActivationKind kind, const float* input, float* output, int count,
                               cudaStream_t stream);
// Gradient through the activation, from its output (both relu and tanh allow that).
void launch_activation_backward(ActivationKind kind, const float* output, const float* output_gradient,
                                float* input_gradient, int count, cudaStream_t stream);

// The same on arrays of either element type (bf16 arithmetic is done in fp32 and rounded once).
// 16-byte vector accesses where every pointer is 16-byte aligned (cudaMalloc'd buffers are).
void launch_add_into(ElementType type, void* target, const void* source, long long count, cudaStream_t stream);
// output[i] = max(output[i] + residual[i], 0): a residual block's add and ReLU in one pass.
void launch_add_relu(ElementType type, void* output, const void* residual, long long count, cudaStream_t stream);
void launch_activation_forward(ElementType type, ActivationKind kind, const void* input, void* output,
                               long long count, cudaStream_t stream);
void launch_activation_backward(ElementType type, ActivationKind kind, const void* output,
                                const void* output_gradient, void* input_gradient, long long count,
                                cudaStream_t stream);

}  // namespace gpuprof::workloads
