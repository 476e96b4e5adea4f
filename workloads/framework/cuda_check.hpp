#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <nccl.h>

namespace gpuprof::workloads {

// One overload per library status type; each throws WorkloadError naming the call
// and the library's own description of the failure.
void check_status(cudaError_t status, const char* call);
void check_status(cublasStatus_t status, const char* call);
void check_status(cudnnStatus_t status, const char* call);
void check_status(ncclResult_t status, const char* call);

// Throws if a kernel launch was rejected (bad configuration, no kernel image for this GPU).
void check_last_launch(const char* kernel);

}  // namespace gpuprof::workloads

// Checks any CUDA, cuBLAS, cuDNN or NCCL call; the message names the call.
#define GPUPROF_CHECK(call) ::gpuprof::workloads::check_status((call), #call)
