#include "dense_layer.hpp"

#include <cmath>

#include "cuda_check.hpp"
#include "layer_kernels.hpp"

namespace gpuprof::workloads {

// cuBLAS is column-major: a row-major [rows][columns] matrix is, to cuBLAS, its
// transpose with leading dimension `columns`. The calls below are written in
// those terms: x^T is inputs x batch, W^T is inputs x outputs, y^T is outputs x batch.

std::size_t DenseLayer::parameter_count() const {
  return static_cast<std::size_t>(inputs_) * outputs_ + static_cast<std::size_t>(outputs_);
}

void DenseLayer::initialize(std::span<float> values, DeterministicRandom& random) const {
  const double bound = 1.0 / std::sqrt(static_cast<double>(inputs_));
  for (float& value : values) value = static_cast<float>(random.uniform(-bound, bound));
}

void DenseLayer::forward(const DeviceContext& context, const float* input, int batch, float* output) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  // y^T (outputs x batch) = (W^T)^T x^T
  GPUPROF_CHECK(cublasSgemm(context.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, outputs_, batch, inputs_, &one,
                            weights(), inputs_, input, inputs_, &zero, output, outputs_));
  launch_add_bias(output, bias(), batch, outputs_, context.compute_stream());
}

void DenseLayer::backward(const DeviceContext& context, const float* input, const float* output_gradient,
                          int batch, float* input_gradient) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  float* weight_gradient = parameters_.gradients;
  float* bias_gradient = parameters_.gradients + static_cast<std::size_t>(inputs_) * outputs_;
  // dW^T (inputs x outputs) += x^T dy
  GPUPROF_CHECK(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_T, inputs_, outputs_, batch, &one,
                            input, inputs_, output_gradient, outputs_, &one, weight_gradient, inputs_));
  launch_accumulate_bias_gradient(output_gradient, bias_gradient, batch, outputs_, context.compute_stream());
  if (input_gradient != nullptr) {
    // dx^T (inputs x batch) = W^T dy^T
    GPUPROF_CHECK(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, inputs_, batch, outputs_, &one,
                              weights(), inputs_, output_gradient, outputs_, &zero, input_gradient,
                              inputs_));
  }
}

}  // namespace gpuprof::workloads
