#pragma once

#include "foreign_strings.hpp"
#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

// Turns nvprof's NVTX marker records (CUPTI_ACTIVITY_KIND_MARKER, one row per
// range start and one per range end) into ranges. An end record closes the open
// range with its id (nvtxRangeStart/End, and push/pop where CUPTI numbers them);
// an end whose id matches nothing closes the innermost open range of its thread
// (nvtxRangePush/Pop). Instantaneous marks, synchronisation markers, ends that
// close nothing and ranges never closed are counted, not imported.
void import_nvprof_markers(sqlite::Database& database, ForeignStrings& strings, ImportSink& sink);

}  // namespace gpuprof::importers
