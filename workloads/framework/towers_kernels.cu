#include "towers_kernels.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 256;

int blocks_for(long long count) { return static_cast<int>((count + block_size - 1) / block_size); }

__device__ long long thread_index() { return blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; }

__global__ void embedding_forward_kernel(const float* table, const std::int32_t* tokens, TokenSpan span,
                                         int batch, int width, float* output) {
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * span.length * width) return;
  const int e = static_cast<int>(index % width);
  const long long position = index / width;  // b * length + l
  const long long b = position / span.length;
  const long long l = position % span.length;
  const std::int32_t token = tokens[b * span.stride + span.offset + l];
  output[index] = table[static_cast<long long>(token) * width + e];
}

__global__ void embedding_backward_kernel(const std::int32_t* tokens, TokenSpan span, int batch, int width,
                                          const float* output_gradient, float* table_gradient) {
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * span.length * width) return;
  const int e = static_cast<int>(index % width);
  const long long position = index / width;
  const std::int32_t token = tokens[(position / span.length) * span.stride + span.offset + position % span.length];
  atomicAdd(&table_gradient[static_cast<long long>(token) * width + e], output_gradient[index]);
}

// windows[b][t][k][e] = input[b][t + k][e]
__global__ void unfold_kernel(const float* input, int batch, int length, int width, int kernel, float* windows) {
  const int positions = length - kernel + 1;
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * positions * kernel * width) return;
  const int e = static_cast<int>(index % width);
  const int k = static_cast<int>((index / width) % kernel);
  const long long bt = index / (static_cast<long long>(width) * kernel);
  const long long b = bt / positions;
  const long long t = bt % positions;
  windows[index] = input[(b * length + t + k) * width + e];
}

// A gather rather than an atomic scatter: each input element sums the (at most kernel) windows that read it.
__global__ void fold_kernel(const float* windows_gradient, int batch, int length, int width, int kernel,
                            float* input_gradient) {
  const int positions = length - kernel + 1;
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * length * width) return;
  const int e = static_cast<int>(index % width);
  const long long bs = index / width;
  const long long b = bs / length;
  const int s = static_cast<int>(bs % length);
  float sum = 0.0F;
  for (int k = 0; k < kernel; ++k) {
    const int t = s - k;
    if (t >= 0 && t < positions) sum += windows_gradient[((b * positions + t) * kernel + k) * width + e];
  }
  input_gradient[index] = sum;
}

__global__ void max_over_time_kernel(const float* input, int batch, int positions, int channels, float* output,
                                     std::int32_t* argmax) {
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * channels) return;
  const long long b = index / channels;
  const int c = static_cast<int>(index % channels);
  const float* column = input + b * positions * channels + c;
  int best = 0;
  for (int t = 1; t < positions; ++t) {
    if (column[static_cast<long long>(t) * channels] > column[static_cast<long long>(best) * channels]) best = t;
  }
  output[index] = column[static_cast<long long>(best) * channels];
  argmax[index] = best;
}

__global__ void max_over_time_backward_kernel(const float* output_gradient, const std::int32_t* argmax, int batch,
                                              int positions, int channels, float* input_gradient) {
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * positions * channels) return;
  const int c = static_cast<int>(index % channels);
  const long long bt = index / channels;
  const long long b = bt / positions;
  const int t = static_cast<int>(bt % positions);
  const long long pooled = b * channels + c;
  input_gradient[index] = argmax[pooled] == t ? output_gradient[pooled] : 0.0F;
}

__device__ float fm_input(const float* first, const float* second, long long b, int i, int width) {
  return i < width ? first[b * width + i] : second[b * width + (i - width)];
}

__global__ void fm_forward_kernel(const float* parameters, const float* first, const float* second, int batch,
                                  FactorizationShape shape, float* sums, float* prediction) {
  const long long b = thread_index();
  if (b >= batch) return;
  const int n = 2 * shape.width;
  const float* w = parameters + 1;
  const float* v = parameters + 1 + n;
  float y = parameters[0];
  for (int i = 0; i < n; ++i) y += w[i] * fm_input(first, second, b, i, shape.width);
  for (int f = 0; f < shape.factors; ++f) {
    float sum = 0.0F;
    float squares = 0.0F;
    for (int i = 0; i < n; ++i) {
      const float term = v[i * shape.factors + f] * fm_input(first, second, b, i, shape.width);
      sum += term;
      squares += term * term;
    }
    sums[b * shape.factors + f] = sum;
    y += 0.5F * (sum * sum - squares);
  }
  prediction[b] = y;
}

// One thread per (sample, input): dy/dz_i = w_i + sum_f V_if (s_f - V_if z_i).
__global__ void fm_input_gradient_kernel(const float* parameters, const float* first, const float* second,
                                         const float* sums, const float* prediction_gradient, int batch,
                                         FactorizationShape shape, float* first_gradient, float* second_gradient) {
  const int n = 2 * shape.width;
  const long long index = thread_index();
  if (index >= static_cast<long long>(batch) * n) return;
  const long long b = index / n;
  const int i = static_cast<int>(index % n);
  const float* v = parameters + 1 + n;
  const float z = fm_input(first, second, b, i, shape.width);
  float slope = parameters[1 + i];
  for (int f = 0; f < shape.factors; ++f) {
    const float vf = v[i * shape.factors + f];
    slope += vf * (sums[b * shape.factors + f] - vf * z);
  }
  const float gradient = prediction_gradient[b] * slope;
  if (i < shape.width) {
    first_gradient[b * shape.width + i] = gradient;
  } else {
    second_gradient[b * shape.width + (i - shape.width)] = gradient;
  }
}

// One thread per parameter summing over the batch in a fixed order (reproducible, no atomics).
__global__ void fm_parameter_gradient_kernel(const float* parameters, const float* first, const float* second,
                                             const float* sums, const float* prediction_gradient, int batch,
                                             FactorizationShape shape, float* parameter_gradient) {
  const int n = 2 * shape.width;
  const long long p = thread_index();
  if (p >= 1 + n + static_cast<long long>(n) * shape.factors) return;
  float total = 0.0F;
  for (long long b = 0; b < batch; ++b) {
    const float g = prediction_gradient[b];
    if (p == 0) {
      total += g;
    } else if (p <= n) {
      total += g * fm_input(first, second, b, static_cast<int>(p - 1), shape.width);
    } else {
      const long long q = p - 1 - n;
      const int i = static_cast<int>(q / shape.factors);
      const int f = static_cast<int>(q % shape.factors);
      const float z = fm_input(first, second, b, i, shape.width);
      total += g * (z * sums[b * shape.factors + f] - parameters[p] * z * z);
    }
  }
  parameter_gradient[p] += total;
}

}  // namespace

void launch_embedding_forward(const float* table, const std::int32_t* tokens, TokenSpan span, int batch, int width,
                              float* output, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * span.length * width;
  if (count == 0) return;
  embedding_forward_kernel<<<blocks_for(count), block_size, 0, stream>>>(table, tokens, span, batch, width, output);
  check_last_launch("embedding_forward_kernel");
}

void launch_embedding_backward(const std::int32_t* tokens, TokenSpan span, int batch, int width,
                               const float* output_gradient, float* table_gradient, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * span.length * width;
  if (count == 0) return;
  embedding_backward_kernel<<<blocks_for(count), block_size, 0, stream>>>(tokens, span, batch, width,
                                                                          output_gradient, table_gradient);
  check_last_launch("embedding_backward_kernel");
}

void launch_unfold_windows(const float* input, int batch, int length, int width, int kernel, float* windows,
                           cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * (length - kernel + 1) * kernel * width;
  if (count <= 0) return;
  unfold_kernel<<<blocks_for(count), block_size, 0, stream>>>(input, batch, length, width, kernel, windows);
  check_last_launch("unfold_kernel");
}

void launch_fold_window_gradients(const float* windows_gradient, int batch, int length, int width, int kernel,
                                  float* input_gradient, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * length * width;
  if (count == 0) return;
  fold_kernel<<<blocks_for(count), block_size, 0, stream>>>(windows_gradient, batch, length, width, kernel,
                                                            input_gradient);
  check_last_launch("fold_kernel");
}

void launch_max_over_time(const float* input, int batch, int positions, int channels, float* output,
                          std::int32_t* argmax, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * channels;
  if (count == 0) return;
  max_over_time_kernel<<<blocks_for(count), block_size, 0, stream>>>(input, batch, positions, channels, output,
                                                                     argmax);
  check_last_launch("max_over_time_kernel");
}

void launch_max_over_time_backward(const float* output_gradient, const std::int32_t* argmax, int batch,
                                   int positions, int channels, float* input_gradient, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * positions * channels;
  if (count == 0) return;
  max_over_time_backward_kernel<<<blocks_for(count), block_size, 0, stream>>>(output_gradient, argmax, batch,
                                                                              positions, channels, input_gradient);
  check_last_launch("max_over_time_backward_kernel");
}

void launch_fm_forward(const float* parameters, const float* first, const float* second, int batch,
                       FactorizationShape shape, float* sums, float* prediction, cudaStream_t stream) {
  if (batch == 0) return;
  fm_forward_kernel<<<blocks_for(batch), block_size, 0, stream>>>(parameters, first, second, batch, shape, sums,
                                                                  prediction);
  check_last_launch("fm_forward_kernel");
}

void launch_fm_backward(const float* parameters, const float* first, const float* second, const float* sums,
                        const float* prediction_gradient, int batch, FactorizationShape shape,
                        float* first_gradient, float* second_gradient, float* parameter_gradient,
                        cudaStream_t stream) {
  if (batch == 0) return;
  const long long inputs = static_cast<long long>(batch) * 2 * shape.width;
  fm_input_gradient_kernel<<<blocks_for(inputs), block_size, 0, stream>>>(
      parameters, first, second, sums, prediction_gradient, batch, shape, first_gradient, second_gradient);
  check_last_launch("fm_input_gradient_kernel");
  const long long count = 1 + 2LL * shape.width + 2LL * shape.width * shape.factors;
  fm_parameter_gradient_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      parameters, first, second, sums, prediction_gradient, batch, shape, parameter_gradient);
  check_last_launch("fm_parameter_gradient_kernel");
}

}  // namespace gpuprof::workloads
