#pragma once

// The per-parameter update rules, written once and compiled both for the host
// (host-staged strategy, tests) and for the GPU kernels, so all strategies apply
// the very same arithmetic.
#ifdef __CUDACC__
#define GPUPROF_HOST_DEVICE __host__ __device__
#else
#define GPUPROF_HOST_DEVICE
#endif

#include <cmath>
#include <cstdint>
#include <string>

namespace gpuprof::workloads {

enum class OptimizerKind { sgd, adam };

struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::adam;
  float learning_rate = 1e-3F;
  float momentum = 0.9F;  // sgd
  float beta1 = 0.9F;     // adam
  float beta2 = 0.999F;
  float epsilon = 1e-8F;
};

OptimizerConfig make_optimizer_config(const std::string& kind, double learning_rate, double momentum);

// Step-dependent Adam factors, computed once per step on the host in double.
struct AdamStepFactors {
  float step_size = 0.0F;               // learning_rate / (1 - beta1^t)
  float inverse_sqrt_correction = 0.0F; // 1 / sqrt(1 - beta2^t)
};

inline AdamStepFactors adam_step_factors(const OptimizerConfig& config, std::int64_t step) {
  const double t = static_cast<double>(step);
  const double correction1 = 1.0 - std::pow(static_cast<double>(config.beta1), t);
  const double correction2 = 1.0 - std::pow(static_cast<double>(config.beta2), t);
  return {static_cast<float>(config.learning_rate / correction1),
          static_cast<float>(1.0 / std::sqrt(correction2))};
}

// Heavy-ball momentum as in PyTorch: velocity = momentum * velocity + gradient.
GPUPROF_HOST_DEVICE inline void sgd_momentum_update(float& parameter, float& velocity, float gradient,
                                                    float learning_rate, float momentum) {
  velocity = momentum * velocity + gradient;
  parameter -= learning_rate * velocity;
}

GPUPROF_HOST_DEVICE inline void adam_update(float& parameter, float& first_moment, float& second_moment,
                                            float gradient, float beta1, float beta2, float epsilon,
                                            AdamStepFactors factors) {
  first_moment = beta1 * first_moment + (1.0F - beta1) * gradient;
  second_moment = beta2 * second_moment + (1.0F - beta2) * gradient * gradient;
  const float denominator = std::sqrt(second_moment) * factors.inverse_sqrt_correction + epsilon;
  parameter -= factors.step_size * first_moment / denominator;
}

}  // namespace gpuprof::workloads
