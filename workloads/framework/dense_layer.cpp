#include "dense_layer.hpp"

#include <cmath>

#include "cuda_check.hpp"
#include "layer_kernels.hpp"

namespace gpuprof::workloads {

// cuBLAS is column-major: a row-major [rows][columns] matrix is, to cuBLAS, its
// transpose with leading dimension `columns`. The calls below are written in
// those terms: x^T is inputs x batch, W^T is inputs x outputs, y^T is outputs x batch.

namespace {

// C = alpha op(A) op(B) + beta C on fp32 matrices, in the context's precision: exact fp32,
// tf32 tensor cores, or bf16 tensor cores (inputs rounded to bf16, fp32 accumulation), so
// bf16 runs multiply bf16 copies of the fp32 master weights as mixed precision does.
void multiply(const DeviceContext& context, cublasOperation_t transpose_a, cublasOperation_t transpose_b, int m,
              int n, int k, const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc) {
  const float alpha = 1.0F;
  GPUPROF_CHECK(cublasGemmEx(context.cublas(), transpose_a, transpose_b, m, n, k, &alpha, a, CUDA_R_32F, lda, b,
                             CUDA_R_32F, ldb, &beta, c, CUDA_R_32F, ldc, context.gemm_compute_type(),
                             CUBLAS_GEMM_DEFAULT));
}

}  // namespace

std::size_t DenseLayer::parameter_count() const {
  return static_cast<std::size_t>(inputs_) * outputs_ + static_cast<std::size_t>(outputs_);
}

void DenseLayer::initialize(std::span<float> values, DeterministicRandom& random) const {
  const double bound = 1.0 / std::sqrt(static_cast<double>(inputs_));
  for (float& value : values) value = static_cast<float>(random.uniform(-bound, bound));
}

void DenseLayer::forward(const DeviceContext& context, const float* input, int batch, float* output) const {
  // y^T (outputs x batch) = (W^T)^T x^T
  multiply(context, CUBLAS_OP_T, CUBLAS_OP_N, outputs_, batch, inputs_, weights(), inputs_, input, inputs_, 0.0F,
           output, outputs_);
  launch_add_bias(output, bias(), batch, outputs_, context.compute_stream());
}

void DenseLayer::backward(const DeviceContext& context, const float* input, const float* output_gradient,
                          int batch, float* input_gradient) const {
  float* weight_gradient = parameters_.gradients;
  float* bias_gradient = parameters_.gradients + static_cast<std::size_t>(inputs_) * outputs_;
  // dW^T (inputs x outputs) += x^T dy
  multiply(context, CUBLAS_OP_N, CUBLAS_OP_T, inputs_, outputs_, batch, input, inputs_, output_gradient, outputs_,
           1.0F, weight_gradient, inputs_);
  launch_accumulate_bias_gradient(output_gradient, bias_gradient, batch, outputs_, context.compute_stream());
  if (input_gradient != nullptr) {
    // dx^T (inputs x batch) = W^T dy^T
    multiply(context, CUBLAS_OP_N, CUBLAS_OP_N, inputs_, batch, outputs_, weights(), inputs_, output_gradient,
             outputs_, 0.0F, input_gradient, inputs_);
  }
}

}  // namespace gpuprof::workloads
