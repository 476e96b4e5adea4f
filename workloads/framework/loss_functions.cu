#include "loss_functions.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 128;

int blocks_for(int count) { return (count + block_size - 1) / block_size; }

// One thread per sample: class counts are small, and per-sample work in a fixed
// order keeps results reproducible apart from the order of the atomic sums.
__global__ void softmax_cross_entropy_kernel(const float* logits, const std::int32_t* labels, int rows,
                                             int classes, float scale, float* gradient,
                                             double* accumulators) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* z = logits + static_cast<long long>(row) * classes;
  float* g = gradient + static_cast<long long>(row) * classes;
  int best = 0;
  for (int c = 1; c < classes; ++c) best = z[c] > z[best] ? c : best;
  const float maximum = z[best];
  float sum = 0.0F;
  for (int c = 0; c < classes; ++c) sum += expf(z[c] - maximum);
  const int label = labels[row];
  const float log_sum = logf(sum);
  for (int c = 0; c < classes; ++c) {
    const float probability = expf(z[c] - maximum) / sum;
    g[c] = scale * (probability - (c == label ? 1.0F : 0.0F));
  }
  atomicAdd(&accumulators[0], static_cast<double>(log_sum + maximum - z[label]));
  if (best == label) atomicAdd(&accumulators[1], 1.0);
}

__global__ void binary_cross_entropy_kernel(const float* logits, const float* targets, int count,
                                            float scale, float* gradient, double* accumulators) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count) return;
  const float z = logits[index];
  const float y = targets[index];
  // max(z,0) - z*y + log(1 + exp(-|z|)) never overflows.
  const float loss = fmaxf(z, 0.0F) - z * y + log1pf(expf(-fabsf(z)));
  const float probability = 1.0F / (1.0F + expf(-z));
  gradient[index] = scale * (probability - y);
  atomicAdd(&accumulators[0], static_cast<double>(loss));
  if ((z > 0.0F) == (y > 0.5F)) atomicAdd(&accumulators[1], 1.0);
}

__global__ void mean_squared_error_kernel(const float* predictions, const float* targets, int count,
                                          float scale, float* gradient, double* accumulators) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= count) return;
  const float difference = predictions[index] - targets[index];
  gradient[index] = scale * 2.0F * difference;
  atomicAdd(&accumulators[0], static_cast<double>(difference * difference));
  if (fabsf(difference) < 0.5F) atomicAdd(&accumulators[1], 1.0);
}

}  // namespace

void softmax_cross_entropy(const float* logits, const std::int32_t* labels, int rows, int classes,
                           float scale, float* logits_gradient, LossMetrics metrics, cudaStream_t stream) {
  if (rows == 0) return;
  softmax_cross_entropy_kernel<<<blocks_for(rows), block_size, 0, stream>>>(
      logits, labels, rows, classes, scale, logits_gradient, metrics.accumulators);
  check_last_launch("softmax_cross_entropy_kernel");
}

void binary_cross_entropy_with_logits(const float* logits, const float* targets, int count, float scale,
                                      float* logits_gradient, LossMetrics metrics, cudaStream_t stream) {
  if (count == 0) return;
  binary_cross_entropy_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      logits, targets, count, scale, logits_gradient, metrics.accumulators);
  check_last_launch("binary_cross_entropy_kernel");
}

void mean_squared_error(const float* predictions, const float* targets, int count, float scale,
                        float* predictions_gradient, LossMetrics metrics, cudaStream_t stream) {
  if (count == 0) return;
  mean_squared_error_kernel<<<blocks_for(count), block_size, 0, stream>>>(
      predictions, targets, count, scale, predictions_gradient, metrics.accumulators);
  check_last_launch("mean_squared_error_kernel");
}

}  // namespace gpuprof::workloads
