#pragma once

#include <span>
#include <string>

#include "gpuprof/importers/import_sink.hpp"

namespace gpuprof::importers {

// Reads an nvprof database (`nvprof -o x.nvvp` / `.prof`): CUPTI_ACTIVITY_KIND_*
// tables with names in StringTable, peer copies in MEMCPY2. Runtime and driver
// calls, stored by callback id only, are named from tables generated out of the
// CUDA toolkit's CUPTI headers; NVTX marker records become ranges; rows with a
// 0 or missing timestamp, or ending before they start, are dropped and counted.
ImportResult import_nvprof(const std::string& input, ImportSink& sink);

// The tables import_nvprof reads event rows from, for an import's progress (rows read of the rows they hold).
std::span<const char* const> nvprof_event_tables();

}  // namespace gpuprof::importers
