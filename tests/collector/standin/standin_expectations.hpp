#pragma once

// What one step of standin_host produces on one device, shared by the host and
// the tests that check the recorded trace row by row.

#include <cstdint>

namespace gpuprof::standin {

inline constexpr int kPlainKernelsPerStep = 4;  // the first through __cudaLaunchKernel, as nvcc 13's <<<>>>
inline constexpr int kGraphKernelsPerStep = 2;
// cuLaunchKernel, as cuDNN and cuBLAS launch: recorded though the driver API as a whole is not.
inline constexpr int kDriverKernelsPerStep = 1;
inline constexpr int kKernelsPerStep =
    kPlainKernelsPerStep + kDriverKernelsPerStep + kGraphKernelsPerStep + 1;  // + the all-reduce
inline constexpr std::uint64_t kInputBytes = 1 << 20;
inline constexpr std::uint64_t kOutputBytes = 4096;
inline constexpr std::uint64_t kPeerCopyBytes = 8 << 20;
inline constexpr std::uint64_t kDeviceCopyBytes = 2 << 20;
// HtoD, DtoD, DtoH, and one peer copy when there is a peer (reported twice by CUPTI, written once).
inline constexpr int copies_per_step(int devices) { return devices > 1 ? 4 : 3; }
inline constexpr int kMemsetsPerStep = 1;
// Memory: each device thread allocates its weights once (cudaMalloc, never freed), and each step a workspace
// (cudaMallocAsync) freed at its end (cudaFreeAsync); every allocation and free is a MEMORY2 record.
inline constexpr std::uint64_t kWeightsBytes = 64 << 20;
inline constexpr std::uint64_t kWorkspaceBytes = 16 << 20;
inline constexpr int kMemoryEventsPerStep = 2;
inline constexpr int kSetupCallsPerDevice = 1;  // the weights' cudaMalloc
// Only the stream synchronize waits: the unfinished event query is not reported
// (all sync records off) and the finished one is a query, not a wait.
inline constexpr int kWaitsPerStep = 1;
// Recorded calls: 3 copies, the plain and driver launches, the graph launch, the all-reduce
// launch, the memset, 2 event queries, the stream synchronize, the workspace's
// allocation and free, and the peer copy; cudaGetLastError and cudaGetDevice
// after each plain launch but the first, and the driver's cuCtxGetCurrent, are left out.
inline constexpr int api_calls_per_step(int devices) {
  return kPlainKernelsPerStep + kDriverKernelsPerStep + 11 + (devices > 1 ? 1 : 0);
}
inline constexpr int kExcludedCallsPerStep = 2 * (kPlainKernelsPerStep - 1);
inline constexpr int kRangesPerStep = 2;  // "step N" and "forward" in the domain "standin"

}  // namespace gpuprof::standin
