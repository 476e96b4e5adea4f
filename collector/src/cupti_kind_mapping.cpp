#include "gpuprof/collector/cupti_kind_mapping.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "gpuprof/collector/launch_accounting.hpp"

namespace gpuprof::collector {

trace::CopyKind to_copy_kind(std::uint8_t cupti_copy_kind) {
  using trace::CopyKind;
  switch (cupti_copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return CopyKind::host_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return CopyKind::device_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return CopyKind::device_to_device;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return CopyKind::host_to_host;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CopyKind::peer_to_peer;
    default: return CopyKind::unknown;
  }
}

bool copies_from_device(std::uint8_t cupti_copy_kind) {
  const auto kind = to_copy_kind(cupti_copy_kind);
  return kind == trace::CopyKind::device_to_host || kind == trace::CopyKind::device_to_device;
}

bool copies_to_device(std::uint8_t cupti_copy_kind) {
  const auto kind = to_copy_kind(cupti_copy_kind);
  return kind == trace::CopyKind::host_to_device || kind == trace::CopyKind::device_to_device;
}

std::optional<trace::MemoryKind> to_memory_kind(std::uint8_t cupti_memory_kind) {
  using trace::MemoryKind;
  switch (cupti_memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return MemoryKind::pageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return MemoryKind::pinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return MemoryKind::device;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return MemoryKind::array;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return MemoryKind::managed;
    default: return std::nullopt;
  }
}

trace::SyncType to_sync_type(CUpti_ActivitySynchronizationType type) {
  using trace::SyncType;
  switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return SyncType::event;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return SyncType::stream_wait_event;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE: return SyncType::stream;
    // cudaDeviceSynchronize is reported as a context synchronization.
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE: return SyncType::context;
    default: return SyncType::unknown;
  }
}

std::span<const std::uint32_t> frequent_runtime_calls() {
  static constexpr std::array<std::uint32_t, 15> calls = {
      CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
      CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030,
  };
  return calls;
}

std::span<const std::uint32_t> work_submitting_driver_calls() {
  static const std::vector<std::uint32_t> calls = [] {
    const auto launches = LaunchAccounting::driver_kernel_launches();
    std::vector<std::uint32_t> all(launches.begin(), launches.end());
    all.insert(all.end(), {
                              CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                              CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync,
                              CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async,
                              CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async,
                              CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz,
                          });
    return all;
  }();
  return calls;
}

bool is_sync_query(trace::ApiKind kind, std::uint32_t callback_id) {
  static constexpr std::array<std::uint32_t, 3> runtime_queries = {
      CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000};
  static constexpr std::array<std::uint32_t, 3> driver_queries = {
      CUPTI_DRIVER_TRACE_CBID_cuEventQuery, CUPTI_DRIVER_TRACE_CBID_cuStreamQuery,
      CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz};
  const auto& list = kind == trace::ApiKind::runtime ? runtime_queries : driver_queries;
  return std::find(list.begin(), list.end(), callback_id) != list.end();
}

std::string activity_kind_name(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return "kernel";
    case CUPTI_ACTIVITY_KIND_MEMCPY: return "memcpy";
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return "memcpy_peer";
    case CUPTI_ACTIVITY_KIND_MEMSET: return "memset";
    case CUPTI_ACTIVITY_KIND_MEMORY2: return "memory";
    case CUPTI_ACTIVITY_KIND_RUNTIME: return "runtime_api";
    case CUPTI_ACTIVITY_KIND_DRIVER: return "driver_api";
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return "synchronization";
    case CUPTI_ACTIVITY_KIND_MARKER: return "marker";
    case CUPTI_ACTIVITY_KIND_MARKER_DATA: return "marker_data";
    case CUPTI_ACTIVITY_KIND_NAME: return "name";
    case CUPTI_ACTIVITY_KIND_DEVICE: return "device";
    case CUPTI_ACTIVITY_KIND_OVERHEAD: return "overhead";
    default: return "kind_" + std::to_string(static_cast<int>(kind));
  }
}

}  // namespace gpuprof::collector
