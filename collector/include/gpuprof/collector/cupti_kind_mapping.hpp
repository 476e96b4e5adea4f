#pragma once

// CUPTI's enum values mapped onto the trace schema's enums. Pure functions, so
// the mapping is tested on machines without a GPU.

#include <cupti_activity.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::collector {

// Arrays count as device memory: a copy to or from a CUDA array is a device-side copy.
trace::CopyKind to_copy_kind(std::uint8_t cupti_copy_kind);
// nullopt for CUPTI's "unknown" and for values this version does not know.
std::optional<trace::MemoryKind> to_memory_kind(std::uint8_t cupti_memory_kind);
trace::SyncType to_sync_type(CUpti_ActivitySynchronizationType type);
bool copies_from_device(std::uint8_t cupti_copy_kind);
bool copies_to_device(std::uint8_t cupti_copy_kind);

// Runtime calls a framework makes thousands of times a step that launch and wait
// for nothing (cudaGetDevice, cudaGetLastError, ...): left out unless asked for.
std::span<const std::uint32_t> frequent_runtime_calls();
// Driver calls that put work on a GPU (cuLaunchKernel, cuGraphLaunch, asynchronous
// copies and memsets). cuDNN, cuBLAS and Triton launch through the driver, not the
// runtime: without these records their kernels have no launching call. Recorded
// even when the driver API as a whole is not.
std::span<const std::uint32_t> work_submitting_driver_calls();
// cudaEventQuery, cudaStreamQuery and their driver forms: CUPTI 13 reports them as
// synchronization records, but a query returns at once and is not a wait.
bool is_sync_query(trace::ApiKind kind, std::uint32_t callback_id);

// Short names used in collector_stats ("kernel", "memcpy", ...); "kind_<n>" otherwise.
std::string activity_kind_name(CUpti_ActivityKind kind);

}  // namespace gpuprof::collector
