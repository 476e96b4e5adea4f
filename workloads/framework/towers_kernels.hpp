#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace gpuprof::workloads {

// Kernels of the towers model (towers_kernels.cu). Row-major, samples first. All run on
// `stream` and return without waiting.

// Shape of a token sequence inside a batch row: `length` tokens at `offset` in rows of `stride`.
struct TokenSpan {
  int stride = 0;
  int offset = 0;
  int length = 0;
};

// output[b][l][e] = table[tokens[b][offset + l]][e]
void launch_embedding_forward(const float* table, const std::int32_t* tokens, TokenSpan span, int batch,
                              int width, float* output, cudaStream_t stream);
// table_gradient[token][e] += output_gradient[b][l][e], scattered with atomicAdd (tokens repeat).
void launch_embedding_backward(const std::int32_t* tokens, TokenSpan span, int batch, int width,
                               const float* output_gradient, float* table_gradient, cudaStream_t stream);

// Unfolds [batch][length][width] into windows [batch][positions][kernel][width],
// positions = length - kernel + 1, so a 1-D convolution becomes one matrix product.
void launch_unfold_windows(const float* input, int batch, int length, int width, int kernel, float* windows,
                           cudaStream_t stream);
// The reverse for gradients: input_gradient[b][s][e] = sum of windows_gradient entries that read (s, e).
void launch_fold_window_gradients(const float* windows_gradient, int batch, int length, int width, int kernel,
                                  float* input_gradient, cudaStream_t stream);

// output[b][c] = max over t of input[b][t][c]; argmax keeps t for the backward pass.
void launch_max_over_time(const float* input, int batch, int positions, int channels, float* output,
                          std::int32_t* argmax, cudaStream_t stream);
// input_gradient[b][t][c] = output_gradient[b][c] where t is the argmax, else 0.
void launch_max_over_time_backward(const float* output_gradient, const std::int32_t* argmax, int batch,
                                   int positions, int channels, float* input_gradient, cudaStream_t stream);

// Factorization machine over z = [first[b], second[b]] (2 x width values):
// y = w0 + sum_i w_i z_i + 1/2 sum_f ((sum_i V_if z_i)^2 - sum_i V_if^2 z_i^2).
// parameters = [w0][w: 2*width][V: 2*width][factors]; sums[b][f] = sum_i V_if z_i is kept for backward.
struct FactorizationShape {
  int width = 0;    // per tower
  int factors = 0;
};
void launch_fm_forward(const float* parameters, const float* first, const float* second, int batch,
                       FactorizationShape shape, float* sums, float* prediction, cudaStream_t stream);
// Input gradients (overwritten) and parameter gradients (added), from dL/dy per sample.
void launch_fm_backward(const float* parameters, const float* first, const float* second, const float* sums,
                        const float* prediction_gradient, int batch, FactorizationShape shape,
                        float* first_gradient, float* second_gradient, float* parameter_gradient,
                        cudaStream_t stream);

}  // namespace gpuprof::workloads
