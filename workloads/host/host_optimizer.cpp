#include "host_optimizer.hpp"

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {

OptimizerConfig make_optimizer_config(const std::string& kind, double learning_rate, double momentum) {
  OptimizerConfig config;
  if (kind == "sgd") {
    config.kind = OptimizerKind::sgd;
  } else if (kind == "adam") {
    config.kind = OptimizerKind::adam;
  } else {
    throw WorkloadError(fmt::format("unknown --optimizer '{}'", kind));
  }
  config.learning_rate = static_cast<float>(learning_rate);
  config.momentum = static_cast<float>(momentum);
  return config;
}

HostOptimizer::HostOptimizer(OptimizerConfig config, std::size_t parameter_count)
    : config_(config), first_state_(parameter_count, 0.0F),
      second_state_(config.kind == OptimizerKind::adam ? parameter_count : 0, 0.0F) {}

void HostOptimizer::step(std::span<float> parameters, std::span<const float> gradients) {
  if (parameters.size() != first_state_.size() || gradients.size() != first_state_.size()) {
    throw WorkloadError(fmt::format("host optimizer got {} parameters and {} gradients, expected {}",
                                    parameters.size(), gradients.size(), first_state_.size()));
  }
  ++steps_taken_;
  if (config_.kind == OptimizerKind::sgd) {
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      sgd_momentum_update(parameters[i], first_state_[i], gradients[i], config_.learning_rate,
                          config_.momentum);
    }
    return;
  }
  const AdamStepFactors factors = adam_step_factors(config_, steps_taken_);
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    adam_update(parameters[i], first_state_[i], second_state_[i], gradients[i], config_.beta1,
                config_.beta2, config_.epsilon, factors);
  }
}

}  // namespace gpuprof::workloads
