#pragma once

#include <string>

#include "gpuprof/importers/import_sink.hpp"

namespace gpuprof::importers {

// Reads an nvprof database (`nvprof -o x.nvvp` / `.prof`): CUPTI_ACTIVITY_KIND_*
// tables with names in StringTable, peer copies in MEMCPY2. nvprof stores runtime
// and driver calls by callback id only, so their names are "cbid:N" except for
// the few ids this importer knows.
ImportResult import_nvprof(const std::string& input, ImportSink& sink);

}  // namespace gpuprof::importers
