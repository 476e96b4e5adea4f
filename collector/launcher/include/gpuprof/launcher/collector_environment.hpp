#pragma once

// The environment variables through which `gpuprof record` configures the
// collector injected into the program. Both sides include this header so the
// names cannot drift apart.

namespace gpuprof::launcher::environment {

inline constexpr const char* kOutputPattern = "GPUPROF_OUTPUT";
inline constexpr const char* kForce = "GPUPROF_FORCE";  // "1": overwrite existing files
inline constexpr const char* kTrace = "GPUPROF_TRACE";  // e.g. "cuda,nvtx,api,sync,driver"
inline constexpr const char* kBufferSize = "GPUPROF_BUFFER_SIZE";    // bytes per activity buffer
inline constexpr const char* kBufferCount = "GPUPROF_BUFFER_COUNT";  // buffers in the pool
inline constexpr const char* kFlushIntervalMs = "GPUPROF_FLUSH_INTERVAL_MS";
// A file to which every collector appends the path of the trace it wrote, one a line.
inline constexpr const char* kFilesList = "GPUPROF_FILES_LIST";
// Overrides where `gpuprof record` finds libgpuprof_collector.so.
inline constexpr const char* kCollectorPath = "GPUPROF_COLLECTOR";

// Limits on GPUPROF_BUFFER_SIZE, checked by `gpuprof record` and again by the collector.
inline constexpr unsigned long long kMinBufferSize = 64ull << 10;
inline constexpr unsigned long long kMaxBufferSize = 256ull << 20;

// Both name the collector: it forwards NVTX's entry points to the libcupti it loaded.
inline constexpr const char* kCudaInjection = "CUDA_INJECTION64_PATH";
inline constexpr const char* kNvtxInjection = "NVTX_INJECTION64_PATH";

}  // namespace gpuprof::launcher::environment
