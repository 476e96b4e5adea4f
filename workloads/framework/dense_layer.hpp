#pragma once

#include <span>

#include "deterministic_random.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"

namespace gpuprof::workloads {

// y = x W^T + b with x [batch][inputs], W [outputs][inputs], b [outputs], all
// row-major as in PyTorch's Linear, computed with cuBLAS on the compute stream.
class DenseLayer {
 public:
  DenseLayer(int inputs, int outputs) : inputs_(inputs), outputs_(outputs) {}

  std::size_t parameter_count() const;
  void bind(ParameterSlice slice) { parameters_ = slice; }

  // PyTorch's default: weights and biases uniform in +-1/sqrt(inputs).
  void initialize(std::span<float> values, DeterministicRandom& random) const;

  void forward(const DeviceContext& context, const float* input, int batch, float* output) const;
  // Adds dL/dW and dL/db to the bound gradients; writes dL/dx when input_gradient is not null.
  void backward(const DeviceContext& context, const float* input, const float* output_gradient, int batch,
                float* input_gradient) const;

  int inputs() const { return inputs_; }
  int outputs() const { return outputs_; }

 private:
  const float* weights() const { return parameters_.values; }
  const float* bias() const { return parameters_.values + static_cast<std::size_t>(inputs_) * outputs_; }

  int inputs_;
  int outputs_;
  ParameterSlice parameters_;
};

}  // namespace gpuprof::workloads
