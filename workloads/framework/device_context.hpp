#pragma once

#include <string>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace gpuprof::workloads {

enum class Precision { fp32, tf32 };

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
