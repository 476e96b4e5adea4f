#pragma once

#include <string>

namespace gpuprof::trace {

// Builds the indexes for SQL users (index.sql) in a finished trace that was
// written without them (WriterOptions::build_indexes = false: the collector),
// and notes it in meta ("indexes" = "built"). A trace that has them already is
// left as it is. Throws TraceError naming the file.
void build_trace_indexes(const std::string& path);

}  // namespace gpuprof::trace
