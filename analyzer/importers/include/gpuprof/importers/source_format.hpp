#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuprof::importers {

// What produced a trace file. `gpuprof` is our own schema and needs no import.
enum class SourceFormat { kineto, nsys, nvprof, gpuprof };

std::string_view to_string(SourceFormat format);
// Accepts the names `gpuprof import --format` takes: kineto, nsys, nvprof.
std::optional<SourceFormat> parse_source_format(std::string_view name);

// Recognises a file from its content, never from its name: gzip or JSON object
// → kineto; SQLite with CUPTI_ACTIVITY_KIND_* and StringIds → nsys, with
// StringTable → nvprof; SQLite with our meta table → gpuprof. Anything else is a
// TraceError::bad_input naming the file and what it is.
SourceFormat detect_source_format(const std::string& path);

}  // namespace gpuprof::importers
