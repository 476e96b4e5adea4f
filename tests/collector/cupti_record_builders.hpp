#pragma once

// Hand-built CUPTI activity records, filled the way CUPTI fills them, for
// testing the translator without a GPU.

#include <cupti_activity.h>

#include <cstdint>
#include <cstring>

namespace gpuprof::testing {

template <typename Record>
Record zeroed(CUpti_ActivityKind kind) {
  Record record;
  std::memset(&record, 0, sizeof record);
  record.kind = kind;
  return record;
}

inline const CUpti_Activity& as_activity(const auto& record) {
  return reinterpret_cast<const CUpti_Activity&>(record);
}

inline CUpti_ActivityKernel10 kernel_record(const char* name, std::uint64_t start, std::uint64_t end,
                                            std::uint32_t correlation, std::uint32_t device = 0,
                                            std::uint32_t context = 1, std::uint32_t stream = 7) {
  auto record = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  record.name = name;
  record.start = start;
  record.end = end;
  record.correlationId = correlation;
  record.deviceId = device;
  record.contextId = context;
  record.streamId = stream;
  record.gridX = 4, record.gridY = 2, record.gridZ = 1;
  record.blockX = 128, record.blockY = 1, record.blockZ = 1;
  record.registersPerThread = 32;
  record.staticSharedMemory = 1024;
  record.dynamicSharedMemory = 2048;
  return record;
}

inline CUpti_ActivityMemcpy6 memcpy_record(CUpti_ActivityMemcpyKind kind, CUpti_ActivityMemoryKind source,
                                           CUpti_ActivityMemoryKind destination, std::uint64_t bytes,
                                           std::uint64_t start, std::uint64_t end, std::uint32_t correlation) {
  auto record = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  record.copyKind = static_cast<std::uint8_t>(kind);
  record.srcKind = static_cast<std::uint8_t>(source);
  record.dstKind = static_cast<std::uint8_t>(destination);
  record.bytes = bytes;
  record.start = start;
  record.end = end;
  record.correlationId = correlation;
  record.deviceId = 0;
  record.contextId = 1;
  record.streamId = 7;
  return record;
}

inline CUpti_ActivityAPI api_record(CUpti_ActivityKind kind, std::uint32_t callback_id, std::uint64_t start,
                                    std::uint64_t end, std::uint32_t correlation) {
  auto record = zeroed<CUpti_ActivityAPI>(kind);
  record.cbid = callback_id;
  record.start = start;
  record.end = end;
  record.correlationId = correlation;
  record.processId = 100;
  record.threadId = 200;
  return record;
}

inline CUpti_ActivityMarker2 marker_record(std::uint32_t id, CUpti_ActivityFlag flags, std::uint64_t timestamp,
                                           const char* name = nullptr, const char* domain = nullptr) {
  auto record = zeroed<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  record.id = id;
  record.flags = flags;
  record.timestamp = timestamp;
  record.name = name;
  record.domain = domain;
  record.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  record.objectId.pt.processId = 100;
  record.objectId.pt.threadId = 200;
  return record;
}

}  // namespace gpuprof::testing
