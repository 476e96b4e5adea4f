#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/launcher/collector_environment.hpp"

namespace gpuprof::collector {

// What to record and where, read from the environment `gpuprof record` sets.
struct CollectorConfig {
  std::string output_pattern;  // default: launcher::kDefaultOutputPattern
  bool force = false;
  std::size_t buffer_size = 4u << 20;
  // At most 256 MiB, allocated as CUPTI asks: CUDA 13 holds one buffer per thread that uses CUDA.
  std::size_t buffer_count = 64;
  std::uint32_t flush_interval_ms = 1000;
  bool trace_cuda = true;    // kernels, copies, memsets
  bool trace_nvtx = true;    // NVTX ranges
  bool trace_api = true;     // CUDA runtime API
  bool trace_sync = true;    // synchronization calls
  bool trace_driver = false; // CUDA driver API (many records; off by default)
  bool trace_memory = true;  // allocations and frees of GPU memory (CUPTI memory activity)
  // Also the runtime calls a framework makes thousands of times a step and that
  // launch nothing (cudaGetDevice, cudaGetLastError, ...); kineto leaves them out too.
  bool trace_frequent_api = false;
  std::string files_list;    // where to append the written file's path, if set
  // Settings that could not be used, with the reason; the defaults apply instead.
  std::vector<std::string> warnings;
};

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

// Parses the GPUPROF_* variables. Bad values never fail: they are reported in
// `warnings` and the default is kept, because the host program must run anyway.
CollectorConfig read_collector_config(const EnvironmentLookup& environment);

// Parses a --trace list ("cuda,nvtx,api,sync,memory,driver", "api-all" for api with the frequent calls) into
// `config`; returns the unknown names.
std::vector<std::string> apply_trace_list(const std::string& list, CollectorConfig& config);

// Limits that keep one process's collector memory bounded.
inline constexpr std::size_t kMinBufferSize = launcher::environment::kMinBufferSize;
inline constexpr std::size_t kMaxBufferSize = launcher::environment::kMaxBufferSize;
inline constexpr std::size_t kMaxTotalBufferBytes = 4ull << 30;

}  // namespace gpuprof::collector
