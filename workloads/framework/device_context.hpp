#pragma once

#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "element_type.hpp"

namespace gpuprof::workloads {

// fp32: exact fp32 arithmetic (FMA kernels). tf32: fp32 data, tensor cores round matrix
// inputs to tf32. bf16: mixed precision with fp32 master weights: matrix products and
// convolutions take bf16 inputs on tensor cores and accumulate in fp32.
enum class Precision { fp32, tf32, bf16 };

Precision parse_precision(const std::string& name);

// What one GPU needs to run a replica: its streams and library handles, all
// bound to the compute stream. Creating one makes its device current.
class DeviceContext {
 public:
  DeviceContext(int device, Precision precision);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  void make_current() const;
  void synchronize() const;

  int device() const { return device_; }
  Precision precision() const { return precision_; }
  // What cuDNN layers store their activations in.
  ElementType activation_type() const {
    return precision_ == Precision::bf16 ? ElementType::bf16 : ElementType::fp32;
  }
  // cuBLAS's compute type for products of fp32 matrices in this precision.
  cublasComputeType_t gemm_compute_type() const;
  const std::string& name() const { return name_; }
  cudaStream_t compute_stream() const { return compute_stream_; }
  cudaStream_t copy_stream() const { return copy_stream_; }
  cudaStream_t communication_stream() const { return communication_stream_; }
  cublasHandle_t cublas() const { return cublas_; }
  cudnnHandle_t cudnn() const { return cudnn_; }

 private:
  int device_;
  Precision precision_;
  std::string name_;
  cudaStream_t compute_stream_ = nullptr;
  cudaStream_t copy_stream_ = nullptr;
  cudaStream_t communication_stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  cudnnHandle_t cudnn_ = nullptr;
};

// Number of CUDA devices; throws WorkloadError with exit status 2 when there is
// none or the driver cannot be used, since nothing else can run then.
int require_cuda_devices();

}  // namespace gpuprof::workloads
