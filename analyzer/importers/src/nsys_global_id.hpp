#pragma once

// Nsight Systems packs process and thread ids into one "GlobalId": hardware/VM
// bits above bit 48, the pid in bits 24-47, the tid in bits 0-23. Every nsys
// table that names a thread (API calls, NVTX ranges, scheduler switches) is read
// through these, so that their rows name the same thread.

#include <cstdint>

namespace gpuprof::importers {

inline std::int64_t nsys_process_of(std::int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
inline std::int64_t nsys_thread_of(std::int64_t global_id) { return global_id & 0xFFFFFF; }

}  // namespace gpuprof::importers
