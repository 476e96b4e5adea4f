#include "host_array.hpp"

#include <new>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "cuda_check.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {

void* allocate_host_bytes(std::size_t bytes, bool pinned, const std::string& what) {
  if (bytes == 0) return nullptr;
  if (!pinned) {
    void* pointer = ::operator new(bytes, std::nothrow);
    if (pointer == nullptr) {
      throw WorkloadError(fmt::format("out of host memory allocating {} ({} bytes)", what, bytes));
    }
    return pointer;
  }
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status != cudaSuccess) {
    throw WorkloadError(fmt::format("cudaMallocHost failed for {} ({} bytes): {}", what, bytes,
                                    cudaGetErrorString(status)));
  }
  return pointer;
}

void free_host_bytes(void* pointer, bool pinned) {
  if (pointer == nullptr) return;
  if (pinned) {
    cudaFreeHost(pointer);
  } else {
    ::operator delete(pointer);
  }
}

}  // namespace gpuprof::workloads
