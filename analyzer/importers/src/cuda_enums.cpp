#include "cuda_enums.hpp"

namespace gpuprof::importers {

using trace::CopyKind;
using trace::MemoryKind;

CopyKind copy_kind_from_cupti(std::int64_t code) {
  switch (code) {
    case 1: case 3: case 11: return CopyKind::host_to_device;   // HtoD, HtoA, unified HtoD
    case 2: case 4: case 12: return CopyKind::device_to_host;   // DtoH, AtoH, unified DtoH
    case 5: case 6: case 7: case 8: case 13: return CopyKind::device_to_device;
    case 9: return CopyKind::host_to_host;
    case 10: return CopyKind::peer_to_peer;
    default: return CopyKind::unknown;
  }
}

std::optional<MemoryKind> memory_kind_from_cupti(std::int64_t code) {
  switch (code) {
    case 1: return MemoryKind::pageable;
    case 2: return MemoryKind::pinned;
    case 3: case 6: return MemoryKind::device;   // device, device static
    case 4: return MemoryKind::array;
    case 5: case 7: return MemoryKind::managed;  // managed, managed static
    default: return std::nullopt;
  }
}

std::optional<MemoryKind> memory_kind_from_nsys(std::int64_t code) {
  switch (code) {
    case 0: return MemoryKind::pageable;
    case 1: return MemoryKind::pinned;
    case 2: case 5: return MemoryKind::device;
    case 3: return MemoryKind::array;
    case 4: case 6: return MemoryKind::managed;
    default: return std::nullopt;
  }
}

trace::SyncType sync_type_from_cupti(std::int64_t code) {
  if (code >= 1 && code <= 4) return static_cast<trace::SyncType>(code);
  return trace::SyncType::unknown;
}

CopyEnds copy_ends(CopyKind kind) {
  switch (kind) {
    case CopyKind::host_to_device: return {false, true};
    case CopyKind::device_to_host: return {true, false};
    case CopyKind::device_to_device: return {true, true};
    default: return {};
  }
}

}  // namespace gpuprof::importers
