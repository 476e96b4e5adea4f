#include "cuda_check.hpp"

#include <string>

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

// The call as written in the source is long; the function name is what users search for.
std::string function_name(const char* call) {
  const std::string text(call);
  return text.substr(0, text.find('('));
}

// Libraries allocate memory of their own; when that fails, the remedy is the same as for ours.
constexpr const char* memory_hint = "; out of memory: try a smaller --batch (or --hidden, --seq-len)";

[[noreturn]] void fail(const char* call, int code, const char* description, bool out_of_memory = false) {
  throw WorkloadError(fmt::format("{} failed: {} (code {}){}", function_name(call), description, code,
                                  out_of_memory ? memory_hint : ""));
}

}  // namespace

void check_status(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    fail(call, static_cast<int>(status), cudaGetErrorString(status), status == cudaErrorMemoryAllocation);
  }
}

void check_status(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    fail(call, static_cast<int>(status), cublasGetStatusString(status), status == CUBLAS_STATUS_ALLOC_FAILED);
  }
}

void check_status(cudnnStatus_t status, const char* call) {
  if (status != CUDNN_STATUS_SUCCESS) {
    fail(call, static_cast<int>(status), cudnnGetErrorString(status),
         status == CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED ||
             status == CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED);
  }
}

void check_status(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) fail(call, static_cast<int>(status), ncclGetErrorString(status));
}

void check_last_launch(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    throw WorkloadError(fmt::format("launching kernel {} failed: {}", kernel, cudaGetErrorString(status)));
  }
}

}  // namespace gpuprof::workloads
