#include "device_context.hpp"

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {

Precision parse_precision(const std::string& name) {
  if (name == "fp32") return Precision::fp32;
  if (name == "tf32") return Precision::tf32;
  if (name == "bf16") return Precision::bf16;
  throw WorkloadError(fmt::format("--precision {} is not supported; use fp32, tf32 or bf16", name));
}

DeviceContext::DeviceContext(int device, Precision precision) : device_(device), precision_(precision) {
  GPUPROF_CHECK(cudaSetDevice(device));
  cudaDeviceProp properties{};
  GPUPROF_CHECK(cudaGetDeviceProperties(&properties, device));
  name_ = properties.name;
  // Before Ampere there are no bf16 (or tf32) tensor cores; cuDNN would refuse the layers one by one.
  if (precision != Precision::fp32 && properties.major < 8) {
    throw WorkloadError(
        fmt::format("--precision {} needs a GPU of compute capability 8.0 or newer; {} (GPU {}) is {}.{}",
                    precision == Precision::bf16 ? "bf16" : "tf32", name_, device, properties.major,
                    properties.minor),
        exit_bad_input);
  }
  // Non-blocking streams: the legacy default stream must not serialise copies with compute.
  GPUPROF_CHECK(cudaStreamCreateWithFlags(&compute_stream_, cudaStreamNonBlocking));
  GPUPROF_CHECK(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking));
  GPUPROF_CHECK(cudaStreamCreateWithFlags(&communication_stream_, cudaStreamNonBlocking));
  GPUPROF_CHECK(cublasCreate(&cublas_));
  GPUPROF_CHECK(cublasSetStream(cublas_, compute_stream_));
  GPUPROF_CHECK(cublasSetMathMode(
      cublas_, precision == Precision::tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
  GPUPROF_CHECK(cudnnCreate(&cudnn_));
  GPUPROF_CHECK(cudnnSetStream(cudnn_, compute_stream_));
}

DeviceContext::~DeviceContext() {
  // Best effort: errors cannot be reported from a destructor, and the process is ending anyway.
  cudaSetDevice(device_);
  if (cudnn_ != nullptr) cudnnDestroy(cudnn_);
  if (cublas_ != nullptr) cublasDestroy(cublas_);
  for (cudaStream_t stream : {compute_stream_, copy_stream_, communication_stream_}) {
    if (stream != nullptr) cudaStreamDestroy(stream);
  }
}

cublasComputeType_t DeviceContext::gemm_compute_type() const {
  switch (precision_) {
    case Precision::tf32: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case Precision::bf16: return CUBLAS_COMPUTE_32F_FAST_16BF;
    case Precision::fp32: break;
  }
  return CUBLAS_COMPUTE_32F;
}

void DeviceContext::make_current() const { GPUPROF_CHECK(cudaSetDevice(device_)); }

void DeviceContext::synchronize() const {
  make_current();
  GPUPROF_CHECK(cudaStreamSynchronize(compute_stream_));
}

int require_cuda_devices() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    throw WorkloadError(
        fmt::format("no usable CUDA GPU on this machine: cudaGetDeviceCount failed: {}",
                    cudaGetErrorString(status)),
        exit_no_gpu);
  }
  if (count == 0) throw WorkloadError("no CUDA GPU on this machine", exit_no_gpu);
  return count;
}

}  // namespace gpuprof::workloads
