#pragma once

#include <span>

#include "deterministic_random.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"
#include "towers_kernels.hpp"

namespace gpuprof::workloads {

// DeepCoNN's rating head: a factorization machine over the concatenated tower outputs,
// so user-item interactions enter through factor dot products (towers_kernels.hpp).
class FmHead {
 public:
  // Allocates the per-sample factor sums on the current device.
  FmHead(FactorizationShape shape, int max_batch);

  std::size_t parameter_count() const;
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // w0 starts at `bias` (the middle of the rating scale) so training does not spend its
  // first steps moving the mean; w and V start small.
  void initialize(std::span<float> values, DeterministicRandom& random, float bias) const;

  void forward(const DeviceContext& context, const float* first, const float* second, int batch,
               float* prediction);
  void backward(const DeviceContext& context, const float* first, const float* second,
                const float* prediction_gradient, int batch, float* first_gradient, float* second_gradient);

 private:
  FactorizationShape shape_;
  ParameterSlice parameters_;
  DeviceArray<float> sums_;
};

}  // namespace gpuprof::workloads
