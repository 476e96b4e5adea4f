#pragma once

#include <string>

#include <cuda_runtime_api.h>

namespace gpuprof::workloads::testing {

// Empty when a CUDA device is usable; otherwise why not, for GTEST_SKIP.
inline std::string why_no_gpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("no usable CUDA GPU: ") + cudaGetErrorString(status);
  if (count == 0) return "no CUDA GPU on this machine";
  return {};
}

}  // namespace gpuprof::workloads::testing

#define GPUPROF_SKIP_WITHOUT_GPU()                                                  \
  do {                                                                              \
    const std::string reason = ::gpuprof::workloads::testing::why_no_gpu();        \
    if (!reason.empty()) GTEST_SKIP() << reason;                                    \
  } while (false)
