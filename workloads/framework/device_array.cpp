#include "device_array.hpp"

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {
constexpr double mebibyte = 1024.0 * 1024.0;
}

void* allocate_device_bytes(std::size_t bytes, const std::string& what) {
  if (bytes == 0) return nullptr;
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the sticky-free error so later reporting is not confused
    int device = -1;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    cudaGetDevice(&device);
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw WorkloadError(fmt::format(
        "out of GPU memory allocating {} ({:.1f} MiB) on GPU {} ({:.1f} MiB free of {:.1f} MiB); "
        "try a smaller --batch (or --hidden, --seq-len)",
        what, static_cast<double>(bytes) / mebibyte, device, static_cast<double>(free_bytes) / mebibyte,
        static_cast<double>(total_bytes) / mebibyte));
  }
  check_status(status, "cudaMalloc");
  return pointer;
}

}  // namespace gpuprof::workloads
