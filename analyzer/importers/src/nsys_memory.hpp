#pragma once

// Nsight Systems' record of CUDA allocations and frees (`nsys profile
// --cuda-memory-usage=true`): the CUDA_GPU_MEMORY_USAGE_EVENTS table of its
// SQLite export, as rows of the memory_events table.

#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

inline constexpr const char* kNsysMemoryTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";

// Reads every row of the table. Rows the export gets wrong (a device, time, size
// or operation out of range) are left out and counted; a memory kind outside
// ENUM_CUDA_MEM_KIND is stored as unknown and counted. A table without the
// columns read here is counted and skipped whole.
void read_nsys_memory_events(sqlite::Database& database, ImportSink& sink);

}  // namespace gpuprof::importers
