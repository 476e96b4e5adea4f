#pragma once

// CUPTI's enum values mapped onto the trace schema's enums. Pure functions, so
// the mapping is tested on machines without a GPU.

#include <cupti_activity.h>

#include <cstdint>
#include <optional>
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

// Short names used in collector_stats ("kernel", "memcpy", ...); "kind_<n>" otherwise.
std::string activity_kind_name(CUpti_ActivityKind kind);

}  // namespace gpuprof::collector
