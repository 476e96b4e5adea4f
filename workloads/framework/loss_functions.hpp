#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace gpuprof::workloads {

// Loss kernels write the gradient of (scale * sum of per-sample losses) with
// respect to their input, and add the loss sum (and correct predictions, where
// that means something) to metrics[0] (and metrics[1]) on the device, so a step
// never waits for the host. The caller picks scale = 1 / global batch, which
// makes the sum of replicas' gradients the gradient of the global mean loss.
struct LossMetrics {
  double* accumulators = nullptr;  // device: [loss sum, correct count]
};

// logits [rows][classes], labels [rows] in [0, classes)
void softmax_cross_entropy(const float* logits, const std::int32_t* labels, int rows, int classes,
                           float scale, float* logits_gradient, LossMetrics metrics, cudaStream_t stream);

// Sigmoid + binary cross-entropy on logits, computed stably; targets in [0, 1].
// A prediction counts as correct when (logit > 0) == (target > 0.5).
void binary_cross_entropy_with_logits(const float* logits, const float* targets, int count, float scale,
                                      float* logits_gradient, LossMetrics metrics, cudaStream_t stream);

// (prediction - target)^2 per element; a prediction within 0.5 of its target counts
// as correct (for ratings: it rounds to the right number of stars).
void mean_squared_error(const float* predictions, const float* targets, int count, float scale,
                        float* predictions_gradient, LossMetrics metrics, cudaStream_t stream);

}  // namespace gpuprof::workloads
