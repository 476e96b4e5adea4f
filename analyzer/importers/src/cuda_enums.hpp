#pragma once

// CUPTI and Nsight Systems enum codes mapped onto the trace schema's kinds.
// The nsys export renumbers memory kinds (pageable = 0), CUPTI does not.

#include <cstdint>
#include <optional>
#include <string_view>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::importers {

// CUpti_ActivityMemcpyKind, shared by nvprof and nsys (ENUM_CUDA_MEMCPY_OPER).
// Array and unified-memory variants fold into the host/device direction they move data in.
trace::CopyKind copy_kind_from_cupti(std::int64_t code);
// CUpti_ActivityMemoryKind as nvprof stores it (unknown = 0, pageable = 1, ...).
std::optional<trace::MemoryKind> memory_kind_from_cupti(std::int64_t code);
// ENUM_CUDA_MEM_KIND of nsys exports (pageable = 0, ..., unknown = 7).
std::optional<trace::MemoryKind> memory_kind_from_nsys(std::int64_t code);
// CUpti_ActivitySynchronizationType (same codes as the schema's sync_types).
trace::SyncType sync_type_from_cupti(std::int64_t code);

// Which ends of a copy are on the recording device, so source and destination
// devices can be filled in where the copy kind implies them.
struct CopyEnds {
  bool source_on_device = false, destination_on_device = false;
};
CopyEnds copy_ends(trace::CopyKind kind);

// Kineto and nvprof call "not set" stream or event ids UINT32_MAX.
inline std::optional<std::int64_t> unless_unset(std::int64_t value) {
  if (value == 0xFFFFFFFFLL || value < 0) return std::nullopt;
  return value;
}

}  // namespace gpuprof::importers
