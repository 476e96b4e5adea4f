#pragma once

#include <span>
#include <string>

#include "gpuprof/importers/import_sink.hpp"

namespace gpuprof::importers {

// Reads an Nsight Systems SQLite export (`nsys export --type sqlite`), old
// (2.x, 2021-22) and new (3.x) schema, opened read-only. Devices are the CUDA
// ones only; other adapters listed by the export are counted, not imported.
ImportResult import_nsys(const std::string& input, ImportSink& sink);

// The tables import_nsys reads event rows from, for an import's progress (rows read of the rows they hold).
std::span<const char* const> nsys_event_tables();

}  // namespace gpuprof::importers
