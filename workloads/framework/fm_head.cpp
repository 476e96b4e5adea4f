#include "fm_head.hpp"

#include <cmath>

namespace gpuprof::workloads {

FmHead::FmHead(FactorizationShape shape, int max_batch)
    : shape_(shape), sums_(static_cast<std::size_t>(max_batch) * shape.factors, "factorization machine sums") {}

std::size_t FmHead::parameter_count() const {
  const auto inputs = static_cast<std::size_t>(2 * shape_.width);
  return 1 + inputs + inputs * static_cast<std::size_t>(shape_.factors);
}

void FmHead::initialize(std::span<float> values, DeterministicRandom& random, float bias) const {
  const double bound = 1.0 / std::sqrt(2.0 * shape_.width);
  for (float& value : values) value = static_cast<float>(random.uniform(-bound, bound));
  values[0] = bias;
}

void FmHead::forward(const DeviceContext& context, const float* first, const float* second, int batch,
                     float* prediction) {
  launch_fm_forward(parameters_.values, first, second, batch, shape_, sums_.data(), prediction,
                    context.compute_stream());
}

void FmHead::backward(const DeviceContext& context, const float* first, const float* second,
                      const float* prediction_gradient, int batch, float* first_gradient, float* second_gradient) {
  launch_fm_backward(parameters_.values, first, second, sums_.data(), prediction_gradient, batch, shape_,
                     first_gradient, second_gradient, parameters_.gradients, context.compute_stream());
}

}  // namespace gpuprof::workloads
